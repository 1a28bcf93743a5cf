package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestLimits compiles templates that would recurse forever, loop for hours or build
// gigabytes, and checks that each ends with the error of the limit it hits (the render
// stops quickly: the limits bound output, iterations, value sizes and call depth).
func TestLimits(t *testing.T) {
	tests := []struct{ name, template, want string }{
		{"recursive macro", "{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}", "LimitError: macro calls nest more than"},
		{"recursive loop", "{% for x in [1] recursive %}{{ loop([1]) }}{% endfor %}", "LimitError: macro calls nest more than"},
		{"huge range", "{% for i in range(10**9) %}{% endfor %}", "Range too big"},
		{"nested loops", "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}", "LimitError: loops and macro calls ran more than"},
		{"output", "{% for i in range(100000) %}{{ 'x' * 100000 }}{% endfor %}", "LimitError: output exceeds"},
		{"huge string", "{{ 'x' * 10**10 }}", "LimitError"},
		{"huge power", "{{ 10 ** 1000000000 }}", "LimitError"},
		{"replace bomb", "{{ ('x' * 1000000).replace('', 'y' * 100) | length }}", "LimitError"},
		{"huge list", "{{ [0] * 10**7 }}", "LimitError: a list of"},
		{"list doubled", "{% set ns = namespace(l=[0]) %}{% for i in range(100) %}{% set ns.l = ns.l + ns.l %}{% endfor %}", "LimitError: a list of"},
		{"lists joined", "{% set l = [0] * 4000000 %}{{ (l + l) | length }}", "LimitError: a list of"},
		{"chars of a long str", "{{ ('x' * 10**7) | list | length }}", "LimitError: a list of"},
		{"namespace loop", "{% set ns = namespace(x=0) %}{% for i in range(99999) %}{% for j in range(99999) %}{% set ns.x = ns.x + 1 %}{% endfor %}{% endfor %}", "LimitError: loops and macro calls ran more than"},
		{"macro calls", "{% macro f(n) %}{% if n > 0 %}{{ f(n - 1) }}{{ f(n - 1) }}{% endif %}{% endmacro %}{{ f(60) }}", "LimitError: loops and macro calls ran more than"},
	}
	var srcs []source
	var pairs []checkPair
	for _, tt := range tests {
		srcs = append(srcs, source{Name: tt.name, Origin: tt.name, File: "limits.jinja", Text: tt.template})
		pairs = append(pairs, checkPair{Template: tt.name, Case: tt.name, Request: []byte(`{"messages": []}`)})
	}
	units, failed := compile(srcs)
	if len(failed) > 0 {
		t.Fatal(failed[0])
	}
	var stderr bytes.Buffer
	got, err := renderPairs(units, pairs, nil, nil, time.Now(), &stderr)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	for i, tt := range tests {
		if got[i].Error == nil || !strings.Contains(*got[i].Error, tt.want) {
			t.Errorf("%s: got %v, want an error containing %q", tt.name, got[i], tt.want)
		}
	}
}
