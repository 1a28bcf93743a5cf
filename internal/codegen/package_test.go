package codegen_test

import (
	"testing"

	"github.com/tmplgen/tmplgen/internal/codegen"
	"github.com/tmplgen/tmplgen/internal/compiler"
)

// TestPackageNames: templates with the same name (alpaca.jinja from two directories)
// get distinct identifiers and files; names that end like build constraints are kept
// out of them.
func TestPackageNames(t *testing.T) {
	units, failed := compiler.Compile([]compiler.Source{
		{Name: "alpaca", File: "alpaca.jinja", Text: "{{ 1 }}"},
		{Name: "alpaca", File: "alpaca.jinja", Text: "{{ 2 }}"},
		{Name: "model_test", File: "t.jinja", Text: "x"},
		{Name: "x-linux", File: "t.jinja", Text: "y"},
		{Name: "registry", File: "t.jinja", Text: "z"},
	})
	if len(failed) > 0 {
		t.Fatal(failed[0])
	}
	files, err := codegen.Package("p", units)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"alpaca.go", "alpaca_2.go", "model_test_tmpl.go", "x_linux_tmpl.go", "registry_tmpl.go", "registry.go"} {
		if _, ok := files[name]; !ok {
			t.Errorf("no file %s among %v", name, keys(files))
		}
	}
	if len(files) != 6 {
		t.Errorf("%d files, want 6: %v", len(files), keys(files))
	}
	if units[0].Ident == units[1].Ident {
		t.Errorf("both alpaca templates are %s", units[0].Ident)
	}
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
