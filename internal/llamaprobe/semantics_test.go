package llamaprobe_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/internal/ir"
	"github.com/tmplgen/tmplgen/internal/llamaprobe"
)

// TestSemantics runs the snippet table of testdata/semantics (Python Jinja2's renderings
// of 2,600 snippets) through the interpreter, which must agree with Jinja2 wherever the
// compiled code does.
func TestSemantics(t *testing.T) {
	dir := "../../testdata/semantics"
	var snippets []struct {
		ID       string          `json:"id"`
		Template string          `json:"template"`
		Vars     json.RawMessage `json:"vars"`
		Messages json.RawMessage `json:"messages"`
	}
	var expected map[string]struct{ Prompt, Error *string }
	var known map[string]string
	for name, v := range map[string]any{"snippets.json": &snippets, "expected.json": &expected, "known_differences.json": &known} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	failed := 0
	for _, s := range snippets {
		want := expected[s.ID]
		msgs, vars := string(s.Messages), string(s.Vars)
		if msgs == "" {
			msgs = "[]"
		}
		if vars == "" {
			vars = "{}"
		}
		req, err := tmplgen.ParseRequest([]byte(`{"messages":` + msgs + `,"add_generation_prompt":false,"bos":"<s>","eos":"</s>","chat_template_kwargs":` + vars + `}`))
		if err != nil {
			t.Fatalf("%s: %v", s.ID, err)
		}
		req.Now = now
		var got string
		tmpl, err := ir.Compile(s.ID+".jinja", s.Template)
		if err == nil {
			got, err = llamaprobe.Template(tmpl).Render(&req.Input)
		}
		ok := (want.Error != nil && err != nil) || (want.Prompt != nil && err == nil && got == *want.Prompt)
		if _, isKnown := known[s.ID]; ok == isKnown {
			if isKnown {
				t.Errorf("%s now matches Jinja2 when interpreted: take it off known_differences.json", s.ID)
				continue
			}
			failed++
			if failed <= 30 {
				t.Errorf("%s: %q\n\tgot  %q (err %v)\n\twant %v %v", s.ID, strings.TrimSpace(s.Template), got, err, deref(want.Prompt), deref(want.Error))
			}
		}
	}
	if failed > 0 {
		t.Logf("%d of %d snippets differ", failed, len(snippets))
	}
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}
