package compiler

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tmplgen/tmplgen/internal/codegen"
)

// TestHostileShapes compiles templates shaped to make a compiler's passes deep or
// quadratic (templates come from model files downloaded from the internet): a chain of
// thousands of operations, which every pass walks recursively, is refused with the
// nesting error at the operation that goes too deep, an if with more than 2,000 elifs
// at the first too many, and call blocks nested more than 50 deep at the 51st; thousands of variables, macros (calling
// each other directly or through values), statements or numbered
// Go names on one line compile, and 2,000 elifs. Each would take minutes, or
// exhaust the stack, with a pass that walks the tree per variable, per macro or per
// token; here they take a second or two in all.
func TestHostileShapes(t *testing.T) {
	repeat := func(s string, n int) string { return strings.Repeat(s, n) }
	join := func(sep string, n int) string { return "{{ " + strings.TrimSuffix(repeat("x"+sep, n), sep) + " }}" }
	deep := map[string]string{
		"or":         join(" or ", 5000),
		"and":        join(" and ", 5000),
		"plus":       join(" + ", 5000),
		"times":      join(" * ", 5000),
		"power":      join(" ** ", 5000),
		"compare":    join(" < ", 5000),
		"filters":    "{{ x" + repeat("|upper", 5000) + " }}",
		"attributes": "{{ x" + repeat(".a", 5000) + " }}",
		"items":      "{{ x" + repeat("[0]", 5000) + " }}",
		"calls":      "{{ f" + repeat("()", 5000) + " }}",
		"conditions": "{{ x" + repeat(" if x", 5000) + " }}",
	}
	for name, text := range deep {
		t.Run(name, func(t *testing.T) {
			_, failed := Compile([]Source{{Name: name, Origin: name, File: name + ".jinja", Text: text}})
			if len(failed) != 1 || !strings.Contains(failed[0].Error(), "template nests more than 400 levels deep") {
				t.Fatalf("got %v, want the nesting error", failed)
			}
		})
	}
	t.Run("elifs too many", func(t *testing.T) {
		text := "{% if x %}a" + repeat("{% elif x %}b", 2001) + "{% endif %}"
		_, failed := Compile([]Source{{Name: "elifs", Origin: "elifs", File: "elifs.jinja", Text: text}})
		if len(failed) != 1 || !strings.Contains(failed[0].Error(), "line 1, column 26015: an if statement with more than 2000 elif branches") {
			t.Fatalf("got %v, want the error of too many elifs at the 2001st", failed)
		}
	})
	t.Run("call blocks too deep", func(t *testing.T) {
		text := "{% macro m() %}{{ caller() }}{% endmacro %}" + repeat("{% call m() %}", 51) + "x" + repeat("{% endcall %}", 51)
		_, failed := Compile([]Source{{Name: "calls", Origin: "calls", File: "calls.jinja", Text: text}})
		if len(failed) != 1 || !strings.Contains(failed[0].Error(), "line 1, column 744: call blocks nest more than 50 deep") {
			t.Fatalf("got %v, want the error of too deep call blocks at the 51st", failed)
		}
	})
	var vars, macros, values, outputs strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&vars, "{%% set v%d = x %%}{{ v%d }}", i, i)
		if i < 1000 {
			fmt.Fprintf(&macros, "{%% macro m%d() %%}{{ m%d() }}{%% endmacro %%}", i, i+1)
			fmt.Fprintf(&values, "{%% macro m%d() %%}{{ y%d }}{{ h() }}{%% endmacro %%}{%% set h = m%d %%}", i, i, i)
		}
		fmt.Fprintf(&outputs, "{{ x < x }}{{ x ~ x }}")
	}
	params := make([]string, 10000)
	for i := range params {
		params[i] = fmt.Sprintf("a%d=%d", i, i)
	}
	wide := map[string]string{
		"parameters":  "{% macro f(" + strings.Join(params, ", ") + ") %}{{ a0 }}{% endmacro %}{{ f(1) }}",
		"variables":   vars.String(),
		"macros":      macros.String() + "{{ m0() }}",
		"values":      values.String() + "{% for m in messages %}{% set y5 = 1 %}{{ h() }}{% endfor %}",
		"outputs":     outputs.String(),
		"concat":      join(" ~ ", 20000),
		"elifs":       "{% if x %}a" + repeat("{% elif x %}b", 2000) + "{% endif %}",
		"call blocks": "{% macro m() %}{{ caller() }}{% endmacro %}" + repeat("{% call m() %}", 50) + "x" + repeat("{% endcall %}", 50),
	}
	for name, text := range wide {
		t.Run(name, func(t *testing.T) {
			units, failed := Compile([]Source{{Name: name, Origin: name, File: name + ".jinja", Text: text}})
			if len(failed) != 0 {
				t.Fatal(failed[0])
			}
			if _, err := codegen.File("p", units[0]); err != nil {
				t.Fatal(err)
			}
		})
	}
}
