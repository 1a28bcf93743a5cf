package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/tmplgen/tmplgen/internal/harness"
)

// semanticsDir holds the snippet table and what Python Jinja2 renders for each snippet
// (recorded by record.py there, never written by hand).
var semanticsDir = filepath.Join("..", "..", "testdata", "semantics")

// snippet is one entry of snippets.json: a tiny template and the variables it renders
// with. Vars and Messages stay raw JSON so that the key order of dicts reaches the
// template as Python's json.loads would give it.
type snippet struct {
	ID       string          `json:"id"`
	Template string          `json:"template"`
	Vars     json.RawMessage `json:"vars"`
	Messages json.RawMessage `json:"messages"`
}

// request is the request record.py renders the snippet from: no generation prompt,
// bos/eos "<s>"/"</s>", the vars as chat_template_kwargs.
func (s snippet) request() json.RawMessage {
	msgs, vars := s.Messages, s.Vars
	if len(msgs) == 0 {
		msgs = json.RawMessage("[]")
	}
	if len(vars) == 0 {
		vars = json.RawMessage("{}")
	}
	var b bytes.Buffer
	b.WriteString(`{"messages":`)
	b.Write(msgs)
	b.WriteString(`,"add_generation_prompt":false,"bos":"<s>","eos":"</s>","chat_template_kwargs":`)
	b.Write(vars)
	b.WriteString("}")
	return b.Bytes()
}

// TestSemantics compiles every snippet of testdata/semantics/snippets.json with the
// real pipeline and renders it under both profiles: under transformers' it compares with
// the Python Jinja2 rendering recorded in expected.json (the same bytes, or an error where
// Jinja2 raised one, at the template line Jinja2's traceback names), under llama-server's
// with llama-server b10587's, recorded in expected_llama_server.json.
func TestSemantics(t *testing.T) {
	var snippets []snippet
	readJSON(t, filepath.Join(semanticsDir, "snippets.json"), &snippets)
	// the references, each with its recordings and the snippets where tmplgen knowingly
	// differs from it, with the reason: reported without failing, and a failure when one
	// starts to match (to take it off the list)
	type reference struct {
		name, file, knownFile string
		profile               harness.Profile
		expected              map[string]result
		known                 map[string]string
	}
	refs := []*reference{
		{name: "Python Jinja2", file: "expected.json", knownFile: "known_differences.json", profile: harness.Transformers},
		{name: "llama-server", file: "expected_llama_server.json", knownFile: "known_differences_llama_server.json", profile: harness.LlamaServer},
	}
	byProfile := map[harness.Profile]*reference{}
	for _, ref := range refs {
		readJSON(t, filepath.Join(semanticsDir, ref.file), &ref.expected)
		readJSON(t, filepath.Join(semanticsDir, ref.knownFile), &ref.known)
		byProfile[ref.profile] = ref
	}
	// the template line Jinja2's traceback names for an error raised while rendering
	var errorLines map[string]struct {
		Line int `json:"line"`
	}
	readJSON(t, filepath.Join(semanticsDir, "expected.json"), &errorLines)

	srcs := make([]source, 0, len(snippets))
	pairs := make([]checkPair, 0, len(refs)*len(snippets))
	byName := map[string]snippet{}
	for _, s := range snippets {
		if _, dup := byName[s.ID]; dup {
			t.Fatalf("snippet %q appears twice", s.ID)
		}
		byName[s.ID] = s
		srcs = append(srcs, source{Name: s.ID, Origin: s.ID, File: s.ID + ".jinja", Text: s.Template})
		for _, ref := range refs {
			want, ok := ref.expected[s.ID]
			if !ok || (want.Prompt == nil && want.Error == nil) {
				t.Errorf("snippet %q has no expectation in %s: run python3 testdata/semantics/record.py", s.ID, ref.file)
				continue
			}
			pairs = append(pairs, checkPair{Template: s.ID, Case: s.ID, Want: want, Request: s.request(), Profile: ref.profile})
		}
	}
	for _, ref := range refs {
		var stale []string
		for id := range ref.expected {
			if _, ok := byName[id]; !ok {
				stale = append(stale, id)
			}
		}
		sort.Strings(stale)
		for _, id := range stale {
			t.Errorf("%s records %q, which is not a snippet: run python3 testdata/semantics/record.py", ref.file, id)
		}
		for id := range ref.known {
			if _, ok := byName[id]; !ok {
				t.Errorf("%s names %q, which is not a snippet", ref.knownFile, id)
			}
		}
	}
	if len(pairs) == 0 {
		t.Fatal("no snippets")
	}

	units, failed := compile(srcs)
	compileErrs := map[string]error{}
	for _, f := range failed {
		compileErrs[f.Source.Name] = f.Err
	}
	var stderr bytes.Buffer
	got, failures, err := renderEach(units, pairs, compileErrs, nil, harness.OracleNow, &stderr)
	if err != nil {
		t.Fatalf("rendering the snippets: %v\n%s", err, stderr.String())
	}
	buildErrs := buildErrors(failures)
	nfail := map[harness.Profile]int{}
	for i, p := range pairs {
		if err, ok := buildErrs[p.Template]; ok {
			if p.Profile == harness.Transformers {
				nfail[p.Profile]++
				t.Errorf("%s: the generated Go does not build: %v", p.Template, err)
			}
			continue
		}
		ref := byProfile[p.Profile]
		reason, known := ref.known[p.Template]
		if want := errorLines[p.Template].Line; p.Profile == harness.Transformers && want > 0 && got[i].Error != nil {
			line := harness.ErrorLine(*got[i].Error, p.Template+".jinja")
			lineReason, knownLine := knownLineDifferences[p.Template]
			switch {
			case line == want && knownLine:
				t.Errorf("%s now reports Jinja2's error line: take it off knownLineDifferences", p.Template)
			case line != want && knownLine:
				t.Logf("known difference %s (%s): Jinja2 reports line %d; got %s", p.Template, lineReason, want, *got[i].Error)
			case line != want:
				nfail[p.Profile]++
				t.Errorf("%s: Jinja2 reports the error at line %d; got %s", p.Template, want, *got[i].Error)
			}
		}
		if harness.Same(p.Want, got[i]) {
			if known {
				t.Errorf("%s now matches %s: take it off %s", p.Template, ref.name, ref.knownFile)
			}
			continue
		}
		if known {
			t.Logf("known difference from %s %s (%s): want %s; got %s", ref.name, p.Template, reason, showResult(p.Want), showResult(got[i]))
			continue
		}
		nfail[p.Profile]++
		t.Errorf("%s (%s)\n\ttemplate: %s\n\twant:     %s\n\tgot:      %s", p.Template, ref.name,
			strconv.Quote(byName[p.Template].Template), showResult(p.Want), showResult(got[i]))
	}
	for profile, n := range nfail {
		t.Logf("%d of %d snippets differ under the %s profile", n, len(snippets), profile)
	}
}

// knownLineDifferences are the snippets whose error tmplgen reports at another line than
// Jinja2's traceback, with the reason.
var knownLineDifferences = map[string]string{
	"elif_pos_06": "Jinja2 gives an elif the line of the first token of its condition, tmplgen the line of the elif keyword",
}

// showResult prints a rendering for a mismatch report: a quoted prompt, or the error.
func showResult(r result) string {
	if r.Error != nil {
		return "error: " + harness.Clip(strings.ReplaceAll(*r.Error, "\n", `\n`), 300)
	}
	if r.Prompt != nil {
		return harness.Clip(strconv.Quote(*r.Prompt), 500)
	}
	return "nothing"
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
