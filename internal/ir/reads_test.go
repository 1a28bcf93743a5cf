package ir

import (
	"strings"
	"testing"
)

// TestReads: the input paths a template reads, followed through variables; a variable
// assigned on every path before it is read does not read its input value, one assigned
// on some paths only does.
func TestReads(t *testing.T) {
	tests := []struct {
		name, src string
		want      string
	}{
		{"fields of each message", `{% for m in messages %}{{ m.role }}{{ m['content'] }}{% endfor %}`, "messages messages[].content messages[].role"},
		{"an alias assigned on one path", `{% if custom_tools is defined %}{% set tools = custom_tools %}{% endif %}{% for t in tools %}{{ t.name }}{% endfor %}`,
			"custom_tools custom_tools[].name tools tools[].name"},
		{"assigned on every path", `{% if x %}{% set s = 1 %}{% else %}{% set s = 2 %}{% endif %}{{ s }}`, "x"},
		{"assigned first", `{% set tools = [] %}{{ tools }}`, ""},
		{"read through a namespace", `{% set ns = namespace(t=tools) %}{% for x in ns.t %}{{ x.type }}{% endfor %}`, "tools tools[].type"},
	}
	for _, tt := range tests {
		tmpl, err := Compile(tt.name, tt.src)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := strings.Join(Reads(tmpl), " "); got != tt.want {
			t.Errorf("%s: reads %q, want %q", tt.name, got, tt.want)
		}
	}
}
