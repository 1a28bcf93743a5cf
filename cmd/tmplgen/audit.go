package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/internal/harness"
	"github.com/tmplgen/tmplgen/internal/ir"
	"github.com/tmplgen/tmplgen/internal/llamacpp"
	"github.com/tmplgen/tmplgen/internal/llamaprobe"
	"github.com/tmplgen/tmplgen/internal/vllmprobe"
	"github.com/tmplgen/tmplgen/templatehash"
)

var auditCommand = &command{
	name:    "audit",
	args:    "INPUT",
	summary: "report what a template reads, refuses and writes; -diff compares two versions",
	doc: `audit reports, for each template of INPUT, what a person auditing a prompt format
wants to know: the request fields and the other variables (chat_template_kwargs) it
reads, the input it refuses (raise_exception), whether it reads the clock
(strftime_now), the special tokens it writes literally, the {{ }} that write request
data and the template text with a special token that a render can only mark as data
(see render -segments), what the sandbox refuses when it runs, and the capabilities
llama.cpp finds in it.

-diff OTHER compares INPUT's (first) template with OTHER's: for each section the
items removed (-) and added (+), or that it is unchanged, then the lines of the
template text that changed, as a unified diff. With -prompts it also renders both
templates on every request of -cases (by default the oracle's cases) and shows how
the prompts differ; that compiles both with the Go toolchain.

-json prints the same as JSON: a list of audits, or with -diff an object with the
old and new audits, the section changes, the text diff and the prompt changes.

` + inputsDoc,
	flags: auditFlags,
}

func auditFlags(fs *flag.FlagSet) func(stdio, []string) error {
	other := fs.String("diff", "", "another version of the template, `OTHER`: a template file or model to compare INPUT with")
	prompts := fs.Bool("prompts", false, "with -diff, also render both templates on the requests of -cases and compare the prompts")
	casesFile := fs.String("cases", "../shared/oracle/cases.json", "with -prompts, the requests: a JSON `FILE` listing requests, each with an id")
	profileName := fs.String("profile", "transformers", "with -prompts, the request handling, `PROFILE`: transformers, llama-server or vllm")
	asJSON := fs.Bool("json", false, "print the audit, or with -diff the comparison, as JSON")
	return func(s stdio, args []string) error {
		set := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
		switch {
		case len(args) != 1:
			return usageError{"want one template file or model"}
		case *prompts && *other == "":
			return usageError{"-prompts compares the prompts of two templates: give -diff OTHER"}
		case (set["cases"] || set["profile"]) && !*prompts:
			return usageError{"-cases and -profile choose what -prompts renders: give -prompts"}
		}
		profile, err := harness.ParseProfile(*profileName)
		if err != nil {
			return usageError{err.Error()}
		}
		audits, err := auditInput(args[0])
		if err != nil {
			return err
		}
		if *other == "" {
			if *asJSON {
				return writeJSON(s.out, audits)
			}
			for i, a := range audits {
				if i > 0 {
					fmt.Fprintln(s.out)
				}
				a.write(s.out)
			}
			return nil
		}
		others, err := auditInput(*other)
		if err != nil {
			return err
		}
		d := diffAudits(audits[0], others[0])
		if *prompts && d.Old.SHA256 != d.New.SHA256 {
			if d.Prompts, err = diffPrompts(d.Old, d.New, *casesFile, profile, s.err); err != nil {
				return err
			}
		}
		if *asJSON {
			return writeJSON(s.out, d)
		}
		d.write(s.out)
		return nil
	}
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// audit is what a person auditing a prompt format wants to know about a template.
type audit struct {
	Template string `json:"template"`
	SHA256   string `json:"sha256"`
	// JinjaRefusal is the syntax error of a text Jinja2 refuses and llama.cpp loads
	// (generation tags that do not pair up): every profile but llama-server's fails.
	JinjaRefusal string `json:"jinja_refusal,omitempty"`
	// Reads are the request fields read, as paths (messages[].role...); Variables the
	// other variables read (chat_template_kwargs such as enable_thinking).
	Reads     []string `json:"reads"`
	Variables []string `json:"variables"`
	// Raises are the raise_exception calls, Clock the strftime_now calls.
	Raises []lineNote `json:"raises"`
	Clock  []lineNote `json:"clock"`
	// SpecialTokens are the special tokens written literally.
	SpecialTokens []string `json:"special_tokens"`
	// DataWrites are the {{ }} that write request data (data segments of a prompt);
	// MarkupLosses the template text with a special token that a render can only mark
	// as data (see Template.RenderSegments).
	DataWrites   []lineNote `json:"data_writes"`
	MarkupLosses []lineNote `json:"markup_losses"`
	// Refusals are what the sandbox refuses when it runs.
	Refusals     []lineNote            `json:"sandbox_refusals"`
	Capabilities llamacpp.Capabilities `json:"capabilities"`
	// VLLM is what vLLM's server decides about the template when it loads it.
	VLLM tmplgen.VLLMFacts `json:"vllm"`

	src   source
	lines []string // the template text's lines
}

// lineNote is something a template does at a line of its text.
type lineNote struct {
	Line int    `json:"line"`
	What string `json:"what"`
}

func (n lineNote) String() string { return fmt.Sprintf("line %d: %s", n.Line, n.What) }

// standardInputs are the variables every request provides; anything else a template
// reads is a keyword argument (or a special token, named *_token).
var standardInputs = map[string]bool{"messages": true, "tools": true, "documents": true, "add_generation_prompt": true}

func auditOf(s source) (*audit, error) {
	t, refusal, err := ir.CompileLenient(s.File, s.Text)
	var lt *ir.Template // the template as llama.cpp reads it, which its capabilities are probed with
	if err == nil {
		lt, err = ir.Llama(t)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Origin, err)
	}
	a := &audit{
		Template: s.Name, SHA256: templatehash.SHA256(s.Text), JinjaRefusal: refusal,
		Reads: []string{}, Variables: []string{}, Raises: []lineNote{}, Clock: []lineNote{}, Refusals: []lineNote{},
		DataWrites: []lineNote{}, MarkupLosses: []lineNote{},
		SpecialTokens: ir.SpecialTokens(t), Capabilities: llamaprobe.Capabilities(lt), VLLM: vllmprobe.Facts(s.Text, t),
		src: s, lines: strings.Split(t.Source, "\n"),
	}
	for _, p := range compactPaths(ir.Reads(t)) {
		root := p
		if i := strings.IndexAny(p, ".["); i >= 0 {
			root = p[:i]
		}
		if standardInputs[root] || strings.HasSuffix(root, "_token") {
			a.Reads = append(a.Reads, p)
		} else {
			a.Variables = append(a.Variables, p)
		}
	}
	for _, r := range ir.Raises(t) {
		a.Raises = append(a.Raises, lineNote{r.Pos.Line, r.Message})
	}
	ir.Inspect(t.Body.Stmts, func(n any) bool {
		if c, ok := n.(*ir.Call); ok {
			if g, ok := c.Fn.(*ir.Global); ok && g.Name == "strftime_now" {
				a.Clock = append(a.Clock, lineNote{c.P.Line, harness.Clip(strings.TrimSpace(a.lines[c.P.Line-1]), 120)})
			}
		}
		return true
	})
	writes, losses := ir.Origins(t)
	for _, w := range writes {
		a.DataWrites = append(a.DataWrites, lineNote{w.Pos.Line, fmt.Sprintf("col %d: %s", w.Pos.Col, a.statementAt(w.Pos))})
	}
	for _, l := range losses {
		a.MarkupLosses = append(a.MarkupLosses, lineNote{l.Pos.Line, fmt.Sprintf("col %d: %s", l.Pos.Col, l.Why)})
	}
	for _, r := range ir.SandboxRefusals(t) {
		a.Refusals = append(a.Refusals, lineNote{r.Pos.Line, r.What})
	}
	return a, nil
}

// statementAt returns the {{ }} or statement of the template text that begins at pos, or
// the rest of its line, clipped.
func (a *audit) statementAt(pos ir.Pos) string {
	if pos.Line < 1 || pos.Line > len(a.lines) {
		return ""
	}
	line := a.lines[pos.Line-1]
	rest := line[min(max(pos.Col-1, 0), len(line)):]
	for _, end := range []string{"}}", "%}"} {
		if i := strings.Index(rest, end); i >= 0 {
			rest = rest[:i+len(end)]
			break
		}
	}
	return harness.Clip(strings.TrimSpace(rest), 100)
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
		if i+1 < len(out) && extendsPath(out[i+1], p) {
			continue
		}
		kept = append(kept, p)
	}
	return kept
}

// extendsPath reports whether path long goes on from path p (messages[].content[].text
// from messages[].content).
func extendsPath(long, p string) bool {
	return strings.HasPrefix(long, p+".") || strings.HasPrefix(long, p+"[")
}

// auditSection is one section of an audit: a title and its items.
type auditSection struct {
	title string
	items []string
	// paths says that the items are paths of compactPaths: one that another item
	// goes on from is read too.
	paths bool
	// inline says that the items are printed on one line.
	inline bool
}

func (a *audit) sections() []auditSection {
	notes := func(ns []lineNote) []string {
		var out []string
		for _, n := range ns {
			out = append(out, n.String())
		}
		return out
	}
	return []auditSection{
		{title: "reads from the request", items: a.Reads, paths: true},
		{title: "reads these variables (chat_template_kwargs)", items: a.Variables, paths: true},
		{title: "refuses input with (raise_exception)", items: notes(a.Raises)},
		{title: "reads the clock (strftime_now: the prompt depends on the date)", items: notes(a.Clock)},
		{title: "writes these special tokens literally", items: a.SpecialTokens, inline: true},
		{title: "writes request data (data segments: a tokenizer does not parse special tokens in them)", items: notes(a.DataWrites)},
		{title: "has template text with a special token that a render can only mark as data", items: notes(a.MarkupLosses)},
		{title: "does what the sandbox refuses (SecurityError when it runs)", items: notes(a.Refusals)},
		{title: capsSection, items: capsLines(a.Capabilities)},
		{title: "vLLM (what its server decides when it loads the template)", items: vllmLines(a.VLLM)},
	}
}

// vllmLines says how vLLM hands the template contents and developer messages.
func vllmLines(f tmplgen.VLLMFacts) []string {
	content := "content format: string (text parts joined with \"\\n\")"
	if f.OpenAIContent {
		content = "content format: openai (every content a list of text parts)"
	}
	developer := "developer messages: become system messages (the template never names the role)"
	if f.DeveloperRole {
		developer = "developer messages: kept (the template names the role)"
	}
	return []string{content, developer}
}

func (a *audit) write(w io.Writer) {
	fmt.Fprintf(w, "template %s\nsha256   %s\n", a.Template, a.SHA256)
	if a.JinjaRefusal != "" {
		fmt.Fprintf(w, "\nJinja2 refuses the template when it loads it (llama.cpp loads it):\n  %s\n", a.JinjaRefusal)
	}
	for _, s := range a.sections() {
		fmt.Fprintf(w, "\n%s:\n", s.title)
		switch {
		case len(s.items) == 0:
			fmt.Fprintln(w, "  (none)")
		case s.inline:
			fmt.Fprintf(w, "  %s\n", strings.Join(s.items, " "))
		default:
			for _, item := range s.items {
				fmt.Fprintf(w, "  %s\n", item)
			}
		}
	}
}

// auditInput audits each template of a template file or model.
func auditInput(path string) ([]*audit, error) {
	srcs, _, err := readInput(path, "")
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

// auditDiff is what changed from one template (Old) to another (New).
type auditDiff struct {
	Old      *audit          `json:"old"`
	New      *audit          `json:"new"`
	Sections []sectionChange `json:"sections"`
	// Text is the unified diff of the template texts' lines.
	Text []string `json:"text"`
	// Prompts are the prompts that changed, with -prompts.
	Prompts *promptsDiff `json:"prompts,omitempty"`
}

// sectionChange is how a section of the audit changed: its items removed and added,
// and how many items both have.
type sectionChange struct {
	Title     string   `json:"title"`
	Removed   []string `json:"removed"`
	Added     []string `json:"added"`
	Unchanged int      `json:"unchanged"`
}

func diffAudits(a, b *audit) *auditDiff {
	d := &auditDiff{Old: a, New: b, Text: lineDiff(a.lines, b.lines, 2)}
	bs := b.sections()
	for i, s := range a.sections() {
		c := sectionChange{Title: s.title, Removed: []string{}, Added: []string{}}
		for _, x := range s.items {
			if has(bs[i].items, x, s.paths) {
				c.Unchanged++
			} else {
				c.Removed = append(c.Removed, x)
			}
		}
		for _, x := range bs[i].items {
			if !has(s.items, x, s.paths) {
				c.Added = append(c.Added, x)
			}
		}
		d.Sections = append(d.Sections, c)
	}
	return d
}

// has reports whether items hold x or, for paths, a path that goes on from x (then
// x is read too).
func has(items []string, x string, paths bool) bool {
	for _, it := range items {
		if it == x || paths && extendsPath(it, x) {
			return true
		}
	}
	return false
}

func (d *auditDiff) write(w io.Writer) {
	fmt.Fprintf(w, "--- %s (sha256 %s)\n+++ %s (sha256 %s)\n", d.Old.Template, d.Old.SHA256, d.New.Template, d.New.SHA256)
	if d.Old.SHA256 == d.New.SHA256 {
		fmt.Fprintln(w, "\nthe templates are identical")
		return
	}
	for _, c := range d.Sections {
		switch {
		case len(c.Removed)+len(c.Added) > 0:
		case c.Unchanged == 0:
			fmt.Fprintf(w, "\n%s: unchanged (none)\n", c.Title)
			continue
		default:
			fmt.Fprintf(w, "\n%s: unchanged (%s)\n", c.Title, count(c.Unchanged, "item"))
			continue
		}
		fmt.Fprintf(w, "\n%s:\n", c.Title)
		for _, x := range c.Removed {
			fmt.Fprintf(w, "  - %s\n", x)
		}
		for _, x := range c.Added {
			fmt.Fprintf(w, "  + %s\n", x)
		}
		if c.Unchanged > 0 {
			fmt.Fprintf(w, "  (%s unchanged)\n", count(c.Unchanged, "more item"))
		}
	}
	fmt.Fprintln(w, "\ntemplate text:")
	for _, line := range d.Text {
		fmt.Fprintf(w, "  %s\n", line)
	}
	if p := d.Prompts; p != nil {
		fmt.Fprintf(w, "\nprompts (the %s of %s, profile %s): %d the same, %d differ\n", count(p.Same+len(p.Changed), "request"), p.Cases, p.Profile, p.Same, len(p.Changed))
		for _, c := range p.Changed {
			fmt.Fprintf(w, "  case %s:\n", c.Case)
			if c.Diff == nil {
				fmt.Fprintf(w, "    - %s\n    + %s\n", c.Old, c.New)
				continue
			}
			for _, line := range c.Diff {
				fmt.Fprintf(w, "    %s\n", line)
			}
		}
	}
}

// count is "1 item" or "N items".
func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// promptsDiff is how the prompts of two templates differ on a set of requests.
type promptsDiff struct {
	Cases   string          `json:"cases"`
	Profile string          `json:"profile"`
	Same    int             `json:"same"`
	Changed []promptsChange `json:"changed"`
}

// promptsChange is a request the templates render differently: what each gives and,
// when both give a prompt, the unified diff of its lines.
type promptsChange struct {
	Case string   `json:"case"`
	Old  result   `json:"old"`
	New  result   `json:"new"`
	Diff []string `json:"diff,omitempty"`
}

// diffPrompts renders both templates on every case of the cases file (compiled and
// built together, as check does) and returns how their prompts differ.
func diffPrompts(a, b *audit, casesFile string, profile harness.Profile, stderr io.Writer) (*promptsDiff, error) {
	cases, err := harness.ReadCases(casesFile)
	if err != nil {
		return nil, err
	}
	before, after := a.src, b.src
	before.Name, after.Name = "old", "new"
	units, failed := compile([]source{before, after})
	if len(failed) > 0 {
		return nil, failed[0]
	}
	ids := sortedKeys(cases)
	var pairs []checkPair
	for _, id := range ids {
		pairs = append(pairs, checkPair{Template: "old", Case: id, Profile: profile}, checkPair{Template: "new", Case: id, Profile: profile})
	}
	got, err := renderPairs(units, pairs, nil, cases, harness.OracleNow, stderr)
	if err != nil {
		return nil, err
	}
	d := &promptsDiff{Cases: casesFile, Profile: profile.String(), Changed: []promptsChange{}}
	for k, id := range ids {
		o, n := got[2*k], got[2*k+1]
		if o.String() == n.String() {
			d.Same++
			continue
		}
		c := promptsChange{Case: id, Old: o, New: n}
		if o.Prompt != nil && n.Prompt != nil {
			c.Diff = lineDiff(strings.Split(*o.Prompt, "\n"), strings.Split(*n.Prompt, "\n"), 2)
		}
		d.Changed = append(d.Changed, c)
	}
	return d, nil
}

// lineDiff is a unified diff of two texts' lines with some lines of context: hunks
// of lines removed (-) then added (+), each starting with "@@ -L,N +L,N @@".
func lineDiff(a, b []string, context int) []string {
	var out []string
	for _, h := range diffHunks(a, b, context) {
		out = append(out, hunkHeader(h))
		for _, o := range h {
			out = append(out, string(o.kind)+" "+o.text)
		}
	}
	if len(out) == 0 {
		out = append(out, "(no line changed)")
	}
	return out
}
