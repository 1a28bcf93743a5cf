package codegen_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tmplgen/tmplgen/internal/codegen"
	"github.com/tmplgen/tmplgen/internal/compiler"
	"github.com/tmplgen/tmplgen/internal/harness"
	"github.com/tmplgen/tmplgen/internal/ir"
	"github.com/tmplgen/tmplgen/internal/txtar"
)

var update = flag.Bool("update", false, "rewrite the ir and go sections of the construct cases (testdata/codegen/cases)")

const constructCases = "../../testdata/codegen/cases"

// TestConstructs checks one small case per construct and per codegen specialisation
// (testdata/codegen/cases/NAME.txtar): the template's IR with its facts
// (ir.FormatFacts) and its generated Go are the archive's ir and go sections (goldens:
// -update rewrites them; review the diff), and
// each request of requests.jsonl, rendered by the generated code, gives what Python
// Jinja2 gave (expected.jsonl, recorded by record.py): the same prompt, or an error at
// the template line Jinja2's traceback names.
func TestConstructs(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join(constructCases, "*.txtar"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no construct cases in %s (%v)", constructCases, err)
	}
	type request struct {
		name, id string
		raw      json.RawMessage
		want     map[string]any
	}
	var units []*codegen.Unit
	var requests []request
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".txtar")
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		a := txtar.Parse(b)
		text, _ := a.Get("template.jinja")
		us, failed := compiler.Compile([]compiler.Source{{Name: name, Origin: "testdata/codegen/cases/" + name + ".txtar", File: name + ".jinja", Text: string(text)}})
		if len(failed) > 0 {
			t.Errorf("%s: %v", name, failed[0])
			continue
		}
		u := us[0]
		units = append(units, u)
		src, err := codegen.File("cases", u)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		changed := false
		for _, section := range []struct {
			file string
			got  []byte
		}{{"ir", []byte(ir.Format(u.IR) + "\n" + ir.FormatFacts(u.IR))}, {"go", src}} {
			want, _ := a.Get(section.file)
			if bytes.Equal(want, section.got) {
				continue
			}
			if *update {
				a.Set(section.file, section.got)
				changed = true
				continue
			}
			t.Errorf("%s: the %s section differs from what tmplgen writes now (go test ./codegen -run TestConstructs -update rewrites it):\n%s", name, section.file, lineDiff(want, section.got))
		}
		if changed {
			if err := os.WriteFile(path, txtar.Format(a), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		reqs, _ := a.Get("requests.jsonl")
		exp, _ := a.Get("expected.jsonl")
		wants := map[string]map[string]any{}
		for _, line := range strings.Split(strings.TrimSpace(string(exp)), "\n") {
			var w map[string]any
			if err := json.Unmarshal([]byte(line), &w); err != nil {
				t.Fatalf("%s: expected.jsonl: %v (run testdata/codegen/cases/record.py)", name, err)
			}
			wants[w["id"].(string)] = w
		}
		for _, line := range strings.Split(strings.TrimSpace(string(reqs)), "\n") {
			var r struct{ ID string }
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatalf("%s: requests.jsonl: %v", name, err)
			}
			w, ok := wants[r.ID]
			if !ok {
				t.Errorf("%s %s: no recorded answer (run testdata/codegen/cases/record.py)", name, r.ID)
				continue
			}
			requests = append(requests, request{name, r.ID, json.RawMessage(line), w})
		}
	}
	bin, err := harness.Build(t.TempDir(), units)
	if err != nil {
		t.Fatal(err)
	}
	reqs := make([]harness.Request, len(requests))
	for i, r := range requests {
		reqs[i] = harness.Request{Template: r.name, Request: r.raw, AllowMissingTokens: true}
	}
	var stderr bytes.Buffer
	results, err := harness.Run(bin, reqs, time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC), &stderr)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	for i, r := range requests {
		got, at := results[i], r.name+" "+r.id
		prompt, wantPrompt := r.want["prompt"].(string)
		switch {
		case wantPrompt && got.Prompt == nil:
			t.Errorf("%s: Jinja2 renders %q; got %s", at, prompt, got)
		case wantPrompt && *got.Prompt != prompt:
			t.Errorf("%s: got %q, Jinja2 renders %q", at, *got.Prompt, prompt)
		case !wantPrompt && got.Error == nil:
			t.Errorf("%s: Jinja2 fails (%v); got %s", at, r.want["error"], got)
		case !wantPrompt:
			if line, ok := r.want["line"].(float64); ok && !strings.HasPrefix(*got.Error, fmt.Sprintf("%s.jinja:%d:", r.name, int(line))) {
				t.Errorf("%s: Jinja2 reports the error at line %d; got %s", at, int(line), *got.Error)
			}
		}
	}
}

// lineDiff shows where got differs from want: the first differing line, with the lines
// around it on both sides.
func lineDiff(want, got []byte) string {
	w, g := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	i := 0
	for i < len(w) && i < len(g) && w[i] == g[i] {
		i++
	}
	from := max(i-3, 0)
	var b strings.Builder
	fmt.Fprintf(&b, "first difference at line %d:\n", i+1)
	for j := from; j < i; j++ {
		fmt.Fprintf(&b, "   %s\n", w[j])
	}
	for j := i; j < min(i+4, len(w)); j++ {
		fmt.Fprintf(&b, " - %s\n", w[j])
	}
	for j := i; j < min(i+4, len(g)); j++ {
		fmt.Fprintf(&b, " + %s\n", g[j])
	}
	return b.String()
}
