package codegen_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
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

// TestSameText: a text is compiled once, into the file of its first template; another
// template of the same text is a variable of its own (its name, its file name) that
// renders with the first one's functions.
func TestSameText(t *testing.T) {
	units, failed := compiler.Compile([]compiler.Source{
		{Name: "a", File: "a.jinja", Text: "{{ messages }}"},
		{Name: "b", File: "b.jinja", Text: "{{ tools }}"},
		{Name: "c", File: "c.jinja", Text: "{{ messages }}"},
	})
	if len(failed) > 0 {
		t.Fatal(failed[0])
	}
	if units[0].SameText != nil || units[1].SameText != nil || units[2].SameText != units[0] {
		t.Fatalf("SameText: %v, %v, %v; want only c's, a", units[0].SameText, units[1].SameText, units[2].SameText)
	}
	if units[2].IR.File != "c.jinja" || units[0].IR.File != "a.jinja" {
		t.Errorf("the files are %s and %s, want a.jinja and c.jinja", units[0].IR.File, units[2].IR.File)
	}
	files, err := codegen.Package("p", units)
	if err != nil {
		t.Fatal(err)
	}
	funcs := func(name string) []string {
		f, err := parser.ParseFile(token.NewFileSet(), name, files[name], 0)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok {
				names = append(names, fn.Name.Name)
			}
		}
		return names
	}
	if got := funcs("a.go"); len(got) == 0 {
		t.Error("a.go declares no render function")
	}
	if got := funcs("c.go"); len(got) > 0 {
		t.Errorf("c.go declares %v: it renders with a's functions", got)
	}
	c := string(files["c.go"])
	for _, want := range []string{`Func:      A.Func,`, `LlamaFunc: A.LlamaFunc,`, `File:      "c.jinja",`, `Name:      "c",`} {
		if !strings.Contains(c, want) {
			t.Errorf("c.go has no %s:\n%s", want, c)
		}
	}
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
