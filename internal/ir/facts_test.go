package ir

import (
	"fmt"
	"strings"
	"testing"
)

// TestNamespaceAttrs checks which attribute assignments set a namespace's attribute
// wherever llama.cpp's engine looks the name up, so that its render need not copy its
// input for them: each want lists the template's attribute assignments in order, with
// whether they do. (What llama.cpp renders when one sets an item of an input dict is
// checked against llama-server by testdata/llama_engine.)
func TestNamespaceAttrs(t *testing.T) {
	tests := []struct {
		name, src string
		want      string
	}{
		{"made first", `{% set ns = namespace(a=1) %}{% for m in messages %}{% set ns.a = m %}{% endfor %}`, "ns.a:true"},
		{"made in the same loop", `{% for m in messages %}{% set ns = namespace() %}{% if m %}{% set ns.a = 1 %}{% endif %}{% endfor %}`, "ns.a:true"},
		{"set before it is made", `{% set ns.a = 1 %}{% set ns = namespace() %}`, "ns.a:false"},
		{"made in a branch", `{% if messages %}{% set ns = namespace() %}{% endif %}{% set ns.a = 1 %}`, "ns.a:false"},
		{"made in a loop before", `{% for m in messages %}{% set ns = namespace() %}{% endfor %}{% set ns.a = 1 %}`, "ns.a:false"},
		{"an input", `{% set m = messages[0] %}{% set m.content = 'x' %}`, "m.content:false"},
		{"assigned another value too", `{% set ns = namespace() %}{% set ns = messages[0] %}{% set ns.a = 1 %}`, "ns.a:false"},
		{"a loop target too", `{% set ns = namespace() %}{% for ns in messages %}{% set ns.a = 1 %}{% endfor %}`, "ns.a:false"},
		{"a macro parameter too", `{% set ns = namespace() %}{% macro f(ns) %}{% set ns.a = 1 %}{% endmacro %}{{ f(messages[0]) }}`, "ns.a:false"},
		{"made in the macro", `{% macro f() %}{% set ns = namespace() %}{% for x in messages %}{% set ns.a = x %}{% endfor %}{% endmacro %}{{ f() }}`, "ns.a:true"},
		{"the caller's, made before any call", `{% set ns = namespace() %}{% macro f() %}{% set ns.a = 1 %}{% endmacro %}{{ f() }}`, "ns.a:true"},
		{"the caller's, made after a call", `{% macro f() %}{% set ns.a = 1 %}{% endmacro %}{{ f() }}{% set ns = namespace() %}{{ f() }}`, "ns.a:false"},
		{"the caller's, made after its definition", `{% macro f() %}{% set ns.a = 1 %}{% endmacro %}{% set ns = namespace() %}{{ f() }}`, "ns.a:true"},
		{"the caller's, made by a call of it", `{% macro f() %}{% set ns.a = 1 %}{% endmacro %}{% set ns = namespace(x=f()) %}{{ f() }}`, "ns.a:false"},
		{"the caller's, made in a branch", `{% macro f() %}{% set ns.a = 1 %}{% endmacro %}{% if messages %}{% set ns = namespace() %}{% endif %}{{ f() }}`, "ns.a:false"},
		{"the caller's, set before it is made", `{% set ns.b = 1 %}{% set ns = namespace() %}{% macro f() %}{% set ns.a = 1 %}{% endmacro %}{{ f() }}`, "ns.b:false ns.a:false"},
		{"in a call block's caller", `{% set ns = namespace() %}{% macro f() %}{{ caller() }}{% endmacro %}{% call f() %}{% set ns.a = 1 %}{% endcall %}`, "ns.a:true"},
		{"in a set block", `{% set ns = namespace() %}{% set x %}{% set ns.a = 1 %}{% endset %}`, "ns.a:true"},
	}
	for _, tt := range tests {
		tmpl, err := Compile(tt.name, tt.src)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		attrs := NamespaceAttrs(tmpl)
		var got []string
		Inspect(tmpl.Body.Stmts, func(n any) bool {
			if a, ok := n.(*AttrTarget); ok {
				got = append(got, fmt.Sprintf("%s.%s:%v", a.NS.Name, a.Attr, attrs[a]))
			}
			return true
		})
		if s := strings.Join(got, " "); s != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, s, tt.want)
		}
	}
}
