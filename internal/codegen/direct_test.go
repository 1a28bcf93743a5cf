package codegen

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"

	"github.com/tmplgen/tmplgen/internal/jinja2"
)

// TestDirectFuncs checks the tables of direct calls against the runtime: every test and
// filter of jinja2.Tests and jinja2.Filters has an entry and every entry a name the
// runtime has, and each entry's Go function (of the methods' too) is declared in package
// runtime with the parameters generated code passes it (the value and args more, or v,
// args and kwargs).
func TestDirectFuncs(t *testing.T) {
	pkgs, err := parser.ParseDir(token.NewFileSet(), "../../jinja2", nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	params := map[string]int{} // the exported functions of runtime, by their parameters
	for _, f := range pkgs["jinja2"].Files {
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && fn.Name.IsExported() {
				n := 0
				for _, p := range fn.Type.Params.List {
					n += max(len(p.Names), 1)
				}
				params[fn.Name.Name] = n
			}
		}
	}
	check := func(kind string, table map[string]direct, names map[string]bool) {
		for name := range names {
			if _, ok := table[name]; !ok {
				t.Errorf("the runtime's %s %q has no direct entry", kind, name)
			}
		}
		for name, d := range table {
			if !names[name] {
				t.Errorf("direct %s %q is not one of the runtime's", kind, name)
			}
			want := 1 + d.args
			if d.args < 0 {
				want = 3
			}
			if got, ok := params[d.fn]; !ok || got != want {
				t.Errorf("%s %q: jinja2.%s takes %d parameters (declared: %v), want %d", kind, name, d.fn, got, ok, want)
			}
		}
	}
	tests, filters := map[string]bool{}, map[string]bool{}
	for name := range jinja2.Tests {
		tests[name] = true
	}
	for name := range jinja2.Filters {
		filters[name] = true
	}
	check("test", directTests, tests)
	check("filter", directFilters, filters)
	for name, byArgs := range directMethods {
		for n, fn := range byArgs {
			if got, ok := params[fn]; !ok || got != 1+n {
				t.Errorf("method %s with %d arguments: jinja2.%s takes %d parameters (declared: %v), want %d", name, n, fn, got, ok, 1+n)
			}
		}
	}
}
