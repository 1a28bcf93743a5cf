package main

import (
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/tmplgen/tmplgen/interp"
	"github.com/tmplgen/tmplgen/ir"
	"github.com/tmplgen/tmplgen/runtime"
)

// audit is what a person auditing a prompt format wants to know about a template.
type audit struct {
	name, sha string
	lines     []string
	inputs    []string // input fields read (messages[].role...)
	variables []string // other variables read (chat_template_kwargs such as enable_thinking)
	raises    []string // "line N: message"
	tokens    []string // special tokens written literally
	refusals  []string // what the sandbox refuses when it runs
	caps      []string // what llama.cpp detects (see capsLines)
}

// standardInputs are the variables every request provides; anything else a template
// reads is a keyword argument (or a special token, named *_token).
var standardInputs = map[string]bool{"messages": true, "tools": true, "documents": true, "add_generation_prompt": true}

func auditOf(s source) (*audit, error) {
	t, err := ir.Compile(s.File, s.Text)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Origin, err)
	}
	a := &audit{name: s.Name, sha: runtime.SHA256(s.Text), lines: strings.Split(t.Source, "\n")}
	for _, p := range compactPaths(ir.Reads(t)) {
		root := p
		if i := strings.IndexAny(p, ".["); i >= 0 {
			root = p[:i]
		}
		if standardInputs[root] || strings.HasSuffix(root, "_token") {
			a.inputs = append(a.inputs, p)
		} else {
			a.variables = append(a.variables, p)
		}
	}
	for _, r := range ir.Raises(t) {
		a.raises = append(a.raises, fmt.Sprintf("line %d: %s", r.Pos.Line, r.Message))
	}
	a.tokens = ir.SpecialTokens(t)
	for _, r := range ir.SandboxRefusals(t) {
		a.refusals = append(a.refusals, fmt.Sprintf("line %d: %s", r.Pos.Line, r.What))
	}
	a.caps = capsLines(interp.Capabilities(t))
	return a, nil
}

// compactPaths keeps paths to at most maxShown steps, marking cut ones with "…", and
// drops a path that is the prefix of a longer one kept.
func compactPaths(paths []string) []string {
	const maxShown = 8
	seen := map[string]bool{}
	var out []string
	for _, p := range paths {
		steps := 0
		for i, r := range p {
			if r == '.' || r == '[' {
				steps++
				if steps == maxShown {
					p = p[:i] + "…"
					break
				}
			}
		}
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	sort.Strings(out)
	var kept []string
	for i, p := range out {
		if i+1 < len(out) && (strings.HasPrefix(out[i+1], p+".") || strings.HasPrefix(out[i+1], p+"[")) {
			continue
		}
		kept = append(kept, p)
	}
	return kept
}

func (a *audit) sections() [][2]string {
	join := func(items []string, sep string) string {
		if len(items) == 0 {
			return "(none)"
		}
		return strings.Join(items, sep)
	}
	return [][2]string{
		{"reads from the request", join(a.inputs, "\n")},
		{"reads these variables (chat_template_kwargs)", join(a.variables, "\n")},
		{"refuses input with (raise_exception)", join(a.raises, "\n")},
		{"writes these special tokens literally", join(a.tokens, " ")},
		{"does what the sandbox refuses (SecurityError when it runs)", join(a.refusals, "\n")},
		{capsSection, join(a.caps, "\n")},
	}
}

func (a *audit) write(w io.Writer) {
	fmt.Fprintf(w, "template %s\nsha256   %s\n", a.name, a.sha)
	for _, s := range a.sections() {
		fmt.Fprintf(w, "\n%s:\n", s[0])
		for _, line := range strings.Split(s[1], "\n") {
			fmt.Fprintf(w, "  %s\n", line)
		}
	}
}

func cmdAudit(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("audit", flag.ContinueOnError)
	fs.SetOutput(stderr)
	other := fs.String("diff", "", "another version of the template (or model) to compare with")
	if err := fs.Parse(args); err != nil {
		return usageError{err.Error()}
	}
	if fs.NArg() != 1 {
		return usageError{"want one template file or model"}
	}
	audits, err := auditInput(fs.Arg(0))
	if err != nil {
		return err
	}
	if *other == "" {
		for i, a := range audits {
			if i > 0 {
				fmt.Fprintln(stdout)
			}
			a.write(stdout)
		}
		return nil
	}
	others, err := auditInput(*other)
	if err != nil {
		return err
	}
	writeAuditDiff(stdout, audits[0], others[0])
	return nil
}

// auditInput audits each template of a template file or model.
func auditInput(path string) ([]*audit, error) {
	srcs, _, err := readInput(path)
	if err != nil {
		return nil, err
	}
	var out []*audit
	for _, s := range srcs {
		a, err := auditOf(s)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

// writeAuditDiff shows what changed from a to b: for each section the items removed
// (-) and added (+), then the lines of the template that changed.
func writeAuditDiff(w io.Writer, a, b *audit) {
	fmt.Fprintf(w, "--- %s (sha256 %s)\n+++ %s (sha256 %s)\n", a.name, a.sha, b.name, b.sha)
	if a.sha == b.sha {
		fmt.Fprintln(w, "\nthe templates are identical")
		return
	}
	as, bs := a.sections(), b.sections()
	for i := range as {
		removed, added := setDiff(strings.Split(as[i][1], "\n"), strings.Split(bs[i][1], "\n"))
		if as[i][0] == "writes these special tokens literally" {
			removed, added = setDiff(strings.Fields(as[i][1]), strings.Fields(bs[i][1]))
		}
		if len(removed)+len(added) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s:\n", as[i][0])
		for _, r := range removed {
			fmt.Fprintf(w, "  - %s\n", r)
		}
		for _, r := range added {
			fmt.Fprintf(w, "  + %s\n", r)
		}
	}
	fmt.Fprintln(w, "\ntemplate text:")
	for _, line := range lineDiff(a.lines, b.lines, 2) {
		fmt.Fprintf(w, "  %s\n", line)
	}
}

// setDiff returns the items only in a and those only in b.
func setDiff(a, b []string) (onlyA, onlyB []string) {
	inA, inB := map[string]bool{}, map[string]bool{}
	for _, x := range a {
		inA[x] = true
	}
	for _, x := range b {
		inB[x] = true
		if !inA[x] && x != "(none)" {
			onlyB = append(onlyB, x)
		}
	}
	for _, x := range a {
		if !inB[x] && x != "(none)" {
			onlyA = append(onlyA, x)
		}
	}
	return onlyA, onlyB
}

// lineDiff is a unified diff of two texts' lines with some lines of context, the
// changed lines marked - and +, each hunk starting with the line numbers.
func lineDiff(a, b []string, context int) []string {
	// longest common subsequence, by dynamic programming (templates are small)
	n, m := len(a), len(b)
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type op struct {
		kind byte // ' ', '-', '+'
		text string
		i, j int
	}
	var ops []op
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			ops = append(ops, op{' ', a[i], i, j})
			i, j = i+1, j+1
		case j < m && (i == n || lcs[i][j+1] >= lcs[i+1][j]):
			ops = append(ops, op{'+', b[j], i, j})
			j++
		default:
			ops = append(ops, op{'-', a[i], i, j})
			i++
		}
	}
	var out []string
	last := -1
	for k, o := range ops {
		if o.kind == ' ' {
			near := false
			for d := max(0, k-context); d <= min(len(ops)-1, k+context); d++ {
				if ops[d].kind != ' ' {
					near = true
				}
			}
			if !near {
				continue
			}
		}
		if k != last+1 {
			out = append(out, fmt.Sprintf("@@ line %d / %d @@", o.i+1, o.j+1))
		}
		out = append(out, string(o.kind)+" "+o.text)
		last = k
	}
	if len(out) == 0 {
		out = append(out, "(no line changed)")
	}
	return out
}
