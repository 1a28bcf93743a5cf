package codegen_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tmplgen/tmplgen/internal/codegen"
	"github.com/tmplgen/tmplgen/internal/compiler"
)

// TestGeneratedBuilds: templates that Jinja2 compiles, whose generated Go once failed to
// build, type-check (which finds unused variables as the compiler does). What they render
// is checked against Python Jinja2 by the build_ snippets of testdata/semantics.
func TestGeneratedBuilds(t *testing.T) {
	var elif strings.Builder
	elif.WriteString("{% if x == 0 %}0")
	for i := 1; i < 1000; i++ {
		fmt.Fprintf(&elif, "{%% elif x == %d %%}%d", i, i)
	}
	elif.WriteString("{% endif %}")
	tests := []struct{ name, src string }{
		{"macro called only by a macro never called", "{% macro m1() %}{% endmacro %}{% macro m2() %}{{ m1() }}{% endmacro %}"},
		{"namespace read only by a macro never called", "{% set ns = namespace(n=0) %}{% macro m() %}{{ ns.n }}{% endmacro %}"},
		{"call block on a macro without caller", "{% macro m() %}{% endmacro %}{% call m() %}x{% endcall %}"},
		{"caller of a macro never called calls a macro", "{% macro m1() %}{% endmacro %}{% macro m2() %}{% call f() %}{{ m1() }}{% endcall %}{% endmacro %}"},
		{"1,000 branches of elif", elif.String()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			units, failed := compiler.Compile([]compiler.Source{{Name: "build", Origin: "build.jinja", File: "build.jinja", Text: tt.src}})
			if len(failed) > 0 {
				t.Fatal(failed[0])
			}
			files, err := codegen.Package("buildpkg", units)
			if err != nil {
				t.Fatal(err)
			}
			typeCheck(t, files)
		})
	}
}
