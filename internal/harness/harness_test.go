package harness_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/tmplgen/tmplgen/internal/codegen"
	"github.com/tmplgen/tmplgen/internal/compiler"
	"github.com/tmplgen/tmplgen/internal/harness"
)

// TestBuildEach: a unit whose Go does not build (here, one that declares the variable
// of another) is left out with its compiler errors, and so is a unit of the same text,
// which renders with its functions; the others build and render, a unit of the same
// text as one of them too.
func TestBuildEach(t *testing.T) {
	units, failed := compiler.Compile([]compiler.Source{
		{Name: "a", File: "a.jinja", Text: "A"},
		{Name: "b", File: "b.jinja", Text: "B"},
		{Name: "c", File: "c.jinja", Text: "C"},
		{Name: "d", File: "d.jinja", Text: "B"},
		{Name: "e", File: "e.jinja", Text: "C"},
	})
	if len(failed) > 0 {
		t.Fatal(failed[0])
	}
	units[1].Ident = units[0].Ident
	bin, failures, err := harness.BuildEach(t.TempDir(), units)
	if err != nil {
		t.Fatal(err)
	}
	if len(failures) != 2 || failures[0].Unit != units[1] || failures[1].Unit != units[3] {
		t.Fatalf("failures %v, want b's and d's", failures)
	}
	for _, f := range failures {
		if msg := f.Err.Error(); !strings.Contains(msg, "redeclared") {
			t.Errorf("%s's build error %q does not say what is wrong", f.Unit.Name, msg)
		}
	}
	req := json.RawMessage(`{"messages":[]}`)
	got, err := harness.Run(bin, []harness.Request{{Template: "a", Request: req}, {Template: "b", Request: req}, {Template: "c", Request: req}, {Template: "d", Request: req}, {Template: "e", Request: req}}, time.Now(), os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`prompt "A"`, `error: unknown chat template "b": no compiled renderer has this name`, `prompt "C"`, `error: unknown chat template "d": no compiled renderer has this name`, `prompt "C"`}
	for i, r := range got {
		if r.String() != want[i] {
			t.Errorf("request %d: %s, want %s", i, r, want[i])
		}
	}
}

// TestList lists the templates of a built program, sorted by name.
func TestList(t *testing.T) {
	units, failed := compiler.Compile([]compiler.Source{
		{Name: "b", Origin: "b.jinja", File: "b.jinja", Text: "{{ messages[0].content }}"},
		{Name: "a", Origin: "a.jinja", File: "a.jinja", Text: "A"},
	})
	if len(failed) > 0 {
		t.Fatal(failed[0])
	}
	bin, err := harness.Build(t.TempDir(), units)
	if err != nil {
		t.Fatal(err)
	}
	got, err := harness.List(bin)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("List: %+v, want a and b", got)
	}
	for i, u := range []*codegen.Unit{units[1], units[0]} {
		if e := got[i]; e.Name != u.Name || e.SHA256 != u.SHA256 || e.Origin != u.Origin || e.Capabilities.Handler != "generic" {
			t.Errorf("entry %d: %+v, want %s (sha256 %s, from %s, handler generic)", i, e, u.Name, u.SHA256, u.Origin)
		}
	}
	if !got[1].Capabilities.SystemRole || got[0].Capabilities.SystemRole {
		t.Errorf("capabilities: %+v; want the system role for b only (it reads the first message)", got)
	}
}
