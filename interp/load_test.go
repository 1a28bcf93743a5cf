package interp

import "testing"

func TestLlamaLoadError(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{`{{ 'a\nb\t\'"' ~ "\\" }}{% set x = "\"" %}{% if x %}{% elif y %}{% else %}{% endif %}`, ""},
		{`{% for m in messages %}{% if loop.first %}{% break %}{% endif %}{% endfor %}{% macro m() %}{% endmacro %}{% call m() %}{% endcall %}{% filter upper %}{% endfilter %}{% generation %}{% endgeneration %}`, ""},
		{`{{ '\# x' }}`, `lexer: unknown escape character \#`},
		{`{%- set x = 'a\u00e9' -%}`, `lexer: unknown escape character \u`},
		{`{% raw %}x{% endraw %}`, "Unknown statement: raw"},
		{`{% with a = 1 %}{% endwith %}`, "Unknown statement: with"},
		{`{%- block b %}{% endblock %}`, "Unknown statement: block"},
		{`{% with a = 1 %}{{ '\x41' }}{% endwith %}`, `lexer: unknown escape character \x`}, // the lexer runs first
		{`{# {% raw %} '\#' #}text with \# and 'quotes\q'`, ""},                             // comments and text are not lexed as code
	} {
		if got := llamaLoadError(tt.src); got != tt.want {
			t.Errorf("llamaLoadError(%q) = %q, want %q", tt.src, got, tt.want)
		}
	}
}
