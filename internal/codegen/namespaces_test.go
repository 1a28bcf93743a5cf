package codegen

import (
	"slices"
	"strings"
	"testing"

	"github.com/tmplgen/tmplgen/internal/ir"
)

// TestLocalNamespaces checks which namespaces the generator holds as Go variables: only
// those whose every use it can see and replace. (What the templates render is checked
// against Python Jinja2 by the nslocal_ snippets of testdata/semantics.)
func TestLocalNamespaces(t *testing.T) {
	tests := []struct {
		name, src string
		want      string // the local namespaces' attributes as ns.attr, with :bool and :unread marks
	}{
		{"flag set in a loop", `{% set ns = namespace(found=false) %}{% for m in messages %}{% set ns.found = true %}{% endfor %}{{ ns.found }}`, "ns.found:bool"},
		{"value and unread attribute", `{% set ns = namespace(n=0, unused=1) %}{% set ns.n = ns.n + 1 %}{{ ns.n }}`, "ns.n ns.unused:unread"},
		{"bool then str", `{% set ns = namespace(f=false) %}{% set ns.f = 'x' %}{{ ns.f }}`, "ns.f"},
		{"set block into an attribute", `{% set ns = namespace(f=false) %}{% set ns.f %}x{% endset %}{{ ns.f }}`, "ns.f"},
		{"made in each iteration", `{% for i in x %}{% set ns = namespace(n=i) %}{{ ns.n }}{% endfor %}`, "ns.n"},
		{"method of an attribute", `{% set ns = namespace(s='a') %}{{ ns.s.upper() }}`, "ns.s"},
		{"read before it is made", `{% for i in x %}{{ ns.n }}{% set ns = namespace(n=i) %}{% endfor %}`, ""},
		{"made in a branch", `{% if c %}{% set ns = namespace(a=1) %}{% endif %}{{ ns.a }}`, ""},
		{"made twice", `{% set ns = namespace(a=1) %}{% set ns = namespace(a=2) %}{{ ns.a }}`, ""},
		{"passed to a macro", `{% macro m(n) %}{{ n.a }}{% endmacro %}{% set ns = namespace(a=1) %}{{ m(ns) }}`, ""},
		{"read in a macro", `{% set ns = namespace(a=1) %}{% macro m() %}{{ ns.a }}{% endmacro %}{{ m() }}`, "ns.a"},
		{"read in a macro never called", `{% set ns = namespace(a=1) %}{% macro m() %}{{ ns.a }}{% endmacro %}`, "ns.a:unread"},
		{"set in a call block", `{% set ns = namespace(a=1) %}{% call f() %}{% set ns.a = 2 %}{% endcall %}{{ ns.a }}`, "ns.a"},
		{"read in a macro defined before it", `{% macro m() %}{{ ns.a }}{% endmacro %}{% set ns = namespace(a=1) %}{{ m() }}`, ""},
		{"read in a macro, made in a loop", `{% for i in x %}{% set ns = namespace(a=1) %}{% macro m() %}{{ ns.a }}{% endmacro %}{{ m() }}{% endfor %}`, ""},
		{"read in a macro, made in a branch", `{% if x %}{% set ns = namespace(a=1) %}{% macro m() %}{{ ns.a }}{% endmacro %}{{ m() }}{% endif %}`, ""},
		{"made in a macro", `{% macro m() %}{% set ns = namespace(a=1) %}{{ ns.a }}{% endmacro %}{{ m() }}`, ""},
		{"printed", `{% set ns = namespace(a=1) %}{{ ns }}`, ""},
		{"tested", `{% set ns = namespace(a=1) %}{{ ns is defined }}{{ ns.a }}`, ""},
		{"subscripted", `{% set ns = namespace(a=1) %}{{ ns['a'] }}`, ""},
		{"attribute called", `{% set ns = namespace(a=1) %}{{ ns.a() }}`, ""},
		{"attribute it was not made with", `{% set ns = namespace(a=1) %}{% set ns.b = 2 %}{{ ns.b }}`, ""},
		{"underscore attribute", `{% set ns = namespace(_a=1) %}{{ ns._a }}`, ""},
		{"made from a dict", `{% set ns = namespace({'a': 1}) %}{{ ns.a }}`, ""},
		{"made from itself", `{% set ns = namespace(a=ns) %}{{ ns.a }}`, ""},
		{"copied by a loop body's set", `{% set ns = namespace(a=1) %}{% for i in x %}{{ ns.a }}{% set ns = 2 %}{% endfor %}`, ""},
	}
	for _, tt := range tests {
		tmpl, err := ir.Compile(tt.name, tt.src)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		var got []string
		for v, ns := range newGen(tmpl, false).namespaces {
			for name, a := range ns.attrs {
				s := v.Name + "." + name
				if a.isBool {
					s += ":bool"
				}
				if !a.read {
					s += ":unread"
				}
				got = append(got, s)
			}
		}
		slices.Sort(got)
		if g := strings.Join(got, " "); g != tt.want {
			t.Errorf("%s: local namespaces %q, want %q", tt.name, g, tt.want)
		}
	}
}
