package codegen_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/internal/codegen"
	"github.com/tmplgen/tmplgen/internal/codegen/internal/golden"
	"github.com/tmplgen/tmplgen/internal/compiler"
)

const goldenTemplates = "../../testdata/codegen"

// goldenSources reads the templates of the codegen goldens from their catalog.
func goldenSources(t *testing.T) []compiler.Source {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(goldenTemplates, "catalog.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	var srcs []compiler.Source
	for _, line := range strings.Split(string(b), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		text, err := os.ReadFile(filepath.Join(goldenTemplates, f[1]))
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, compiler.Source{Name: f[0], Origin: f[1], File: f[1], Text: string(text)})
	}
	return srcs
}

// TestGoldens generates the golden templates again and compares with the checked-in
// files of package golden: any change to the generated code shows up here, and is
// accepted by running go generate ./... and reviewing the diff.
func TestGoldens(t *testing.T) {
	units, failed := compiler.Compile(goldenSources(t))
	if len(failed) > 0 {
		t.Fatalf("compile: %v", failed[0])
	}
	files, err := codegen.Package("golden", units)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range files {
		got, err := os.ReadFile(filepath.Join("internal/golden", name))
		if err != nil {
			t.Errorf("%s: %v (run go generate ./...)", name, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("internal/golden/%s differs from what the generator writes now: run go generate ./... and review the diff", name)
		}
	}
}

// TestGoldenRenders renders every request of testdata/codegen through the golden code
// and compares with what Python Jinja2 renders (expected.json, recorded by record.py).
func TestGoldenRenders(t *testing.T) {
	var requests []struct {
		ID      string          `json:"id"`
		Request json.RawMessage `json:"request"`
	}
	readJSON(t, filepath.Join(goldenTemplates, "requests.json"), &requests)
	var expected map[string]struct {
		Prompt *string `json:"prompt"`
		Error  *string `json:"error"`
	}
	readJSON(t, filepath.Join(goldenTemplates, "expected.json"), &expected)
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	n := 0
	for _, tmpl := range golden.Registry.All() {
		for _, r := range requests {
			key := tmpl.Name + "/" + r.ID
			want, ok := expected[key]
			if !ok {
				t.Errorf("%s: no recorded expectation (run testdata/codegen/record.py)", key)
				continue
			}
			req, err := tmplgen.ParseRequest(r.Request)
			if err != nil {
				t.Fatalf("%s: %v", key, err)
			}
			req.Now = now
			got, err := tmpl.Render(&req.Input)
			n++
			switch {
			case want.Error != nil && err == nil:
				t.Errorf("%s: rendered %q, want an error like %q", key, got, *want.Error)
			case want.Error == nil && err != nil:
				t.Errorf("%s: %v", key, err)
			case want.Prompt != nil && got != *want.Prompt:
				t.Errorf("%s:\n got  %q\n want %q", key, got, *want.Prompt)
			}
		}
	}
	if n != len(expected) {
		t.Errorf("rendered %d pairs, expected.json has %d", n, len(expected))
	}
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
