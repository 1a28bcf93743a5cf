package ir

import (
	"slices"
	"strings"
	"testing"
)

// TestDeadInits checks which variables start without their initial value: those every
// path assigns before any read. (What the templates render is checked against Python
// Jinja2 by the deadinit_ snippets of testdata/semantics.)
func TestDeadInits(t *testing.T) {
	tests := []struct {
		name, src string
		want      string // the dead-init variables of loop bodies and the top level
	}{
		{"set first in a loop", `{% for m in messages %}{% set content = m.content %}{{ content }}{% endfor %}`, "content"},
		{"set in both branches", `{% for m in messages %}{% if m %}{% set c = 1 %}{% else %}{% set c = 2 %}{% endif %}{{ c }}{% endfor %}`, "c"},
		{"set in one branch", `{% for m in messages %}{% if m %}{% set c = 1 %}{% endif %}{{ c }}{% endfor %}`, ""},
		{"read before the set", `{% for m in messages %}{{ c }}{% set c = 1 %}{% endfor %}`, ""},
		{"read by its own set", `{% for m in messages %}{% set c = c ~ m %}{% endfor %}`, ""},
		{"read in the condition", `{% for m in messages %}{% if c %}{% set c = 1 %}{% else %}{% set c = 2 %}{% endif %}{% endfor %}`, ""},
		{"read in a nested loop first", `{% for m in messages %}{% for n in m %}{{ c }}{% endfor %}{% set c = 1 %}{% endfor %}`, ""},
		{"read by a macro defined first", `{% for m in messages %}{% macro f() %}{{ c }}{% endmacro %}{% set c = 1 %}{{ f() }}{% endfor %}`, ""},
		{"set by a set block", `{% for m in messages %}{% set c %}x{% endset %}{{ c }}{% endfor %}`, ""},
		{"unpacked", `{% for m in messages %}{% set c, d = 1, 2 %}{{ c }}{{ d }}{% endfor %}`, ""},
		{"set at the top level", `{% set c = 1 %}{{ c }}`, "c"},
		{"read at the top level first", `{{ c }}{% set c = 1 %}{{ c }}`, ""},
		{"set first in a macro", `{% macro f() %}{% set c = 1 %}{{ c }}{% endmacro %}{{ f() }}`, "c"},
	}
	for _, tt := range tests {
		tmpl, err := Compile(tt.name, tt.src)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		var got []string
		for v := range DeadInits(tmpl) {
			got = append(got, v.Name)
		}
		slices.Sort(got)
		if s := strings.Join(got, " "); s != tt.want {
			t.Errorf("%s: dead inits %q, want %q", tt.name, s, tt.want)
		}
	}
}
