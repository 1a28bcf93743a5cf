package llamaprobe_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/generated"
	"github.com/tmplgen/tmplgen/internal/ir"
	"github.com/tmplgen/tmplgen/internal/llamaprobe"
)

const shared = "../../../shared"

// oracleCases returns the oracle's cases as inputs, by id.
func oracleCases(t *testing.T) map[string]*tmplgen.Input {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(shared, "oracle/cases.json"))
	if err != nil {
		t.Fatalf("the shared oracle is missing: %v", err)
	}
	var cases []map[string]json.RawMessage
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	out := map[string]*tmplgen.Input{}
	for _, c := range cases {
		var id string
		json.Unmarshal(c["id"], &id)
		raw, _ := json.Marshal(c)
		req, err := tmplgen.ParseRequest(raw)
		if err != nil {
			t.Fatal(err)
		}
		req.Now = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
		out[id] = &req.Input
	}
	return out
}

// TestOracle interprets every template of the shared corpus for every recorded case and
// compares with Python Jinja2's rendering: the interpreter must agree with the
// reference as the generated code does.
func TestOracle(t *testing.T) {
	inputs := oracleCases(t)
	passed, failed := 0, 0
	root := filepath.Join(shared, "templates")
	filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.Contains(d.Name(), ".jinja") {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		b, err := os.ReadFile(filepath.Join(shared, "oracle/expected", rel+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var exp struct {
			Cases map[string]map[string]map[string]*string
		}
		if err := json.Unmarshal(b, &exp); err != nil {
			t.Fatal(err)
		}
		src, _ := os.ReadFile(path)
		tmpl, compileErr := ir.Compile(d.Name(), string(src))
		for id, engines := range exp.Cases {
			want, ok := engines["transformers"]
			if !ok {
				continue
			}
			var got string
			err := compileErr
			if err == nil {
				got, err = llamaprobe.Template(tmpl).Render(inputs[id])
			}
			switch {
			case want["error"] != nil && err != nil, want["prompt"] != nil && err == nil && got == *want["prompt"]:
				passed++
			default:
				failed++
				if failed <= 20 {
					t.Errorf("%s %s: got %q (err %v), want %v", rel, id, got, err, want)
				}
			}
		}
		return nil
	})
	t.Logf("%d passed, %d failed", passed, failed)
}

// TestAgreesWithGenerated renders every compiled catalog template both ways for every
// case: the interpreter and the generated code must give the same bytes or both fail.
func TestAgreesWithGenerated(t *testing.T) {
	inputs := oracleCases(t)
	b, err := os.ReadFile("../../templates/catalog.tsv")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		path := filepath.Join("../../templates", f[1])
		if rel, ok := strings.CutPrefix(f[1], "shared:"); ok {
			path = filepath.Join(shared, "templates", rel)
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		tmpl, err := ir.Compile(filepath.Base(path), string(src))
		if err != nil {
			t.Fatal(err)
		}
		compiled, err := generated.ByName(f[0])
		if err != nil {
			t.Fatalf("%s is not in the registry", f[0])
		}
		for id, in := range inputs {
			want, wantErr := compiled.Render(in)
			got, gotErr := llamaprobe.Template(tmpl).Render(in)
			if (wantErr != nil) != (gotErr != nil) || want != got {
				t.Errorf("%s %s: interpreted %q (%v), compiled %q (%v)", f[0], id, got, gotErr, want, wantErr)
			}
		}
	}
}
