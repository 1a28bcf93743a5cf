package llamaprobe

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
		// numbers, as llama_chat_driver recorded them: digits and a fraction only
		{`{{ 2.5 }}{{ x1 }}{{ loop.index0 }}{{ 1.e5 }}{{ [1, 2,] }}{{ {'a': 1,} }}{{ f(1,) }}{{ '1e5' }}`, ""},
		{`{{ 1e5 }}`, "parser: Parser Error: Expected }} (Got e5)"},
		{`{% if 1e5 %}yes{% endif %}`, "parser: Parser Error: Expected %} (Got e5)"},
		{`{% if x > 1_000 %}{% endif %}`, "parser: Parser Error: Expected %} (Got _000)"},
		{`{{ 0x10 }}`, "parser: Parser Error: Expected }} (Got x10)"},
		{`{{ 1_000 }}`, "parser: Parser Error: Expected }} (Got _000)"},
		{`{% set x = 2.5e-7 %}`, "parser: Parser Error: Expected %} (Got e)"},
		// the name after a number where a bracket expects its end, or a dict its colon
		{`{{ (1e300) }}`, "parser: Parser Error: Expected ) (Got e300)"},
		{`{% set x = (1e5) %}`, "parser: Parser Error: Expected ) (Got e5)"},
		{`{{ {1e5: 2} }}`, "parser: Parser Error: Expected : (Got e5)"},
		{`{{ {'a': 1e5} }}`, "parser: Parser Error: Expected : (Got })"},
		{`{{ {'a': 1e5, 'b': 2} }}`, "parser: Parser Error: Expected : (Got ,)"},
		{`{{ {'a': (1e5)} }}`, "parser: Parser Error: Expected ) (Got e5)"},
		{`{{ x[1e5] }}`, ""},
		// a tuple's trailing comma, not a call's
		{`{{ (1,) }}`, "Unexpected token: ) of type 7"},
		{`{{ (1, 2 ,) }}`, "Unexpected token: ) of type 7"},
		{`{{ (1,) }}{{ '\q' }}`, `lexer: unknown escape character \q`}, // the lexer first
		{`{% raw %}{{ 1e5 }}`, "Unknown statement: raw"},               // then the first in the text
		// no // or **, as llama_chat_driver recorded them (strings and comments aside)
		{`{{ 7 // 2 }}`, "Unexpected token: / of type 22"},
		{`{{ x ** 2 }}{{ y // 3 }}`, "Unexpected token: * of type 22"},
		{`{{ "a//b" }}{# 2 ** 3 #}{{ 1 }}`, ""},
	} {
		if got := llamaLoadError(tt.src); got != tt.want {
			t.Errorf("llamaLoadError(%q) = %q, want %q", tt.src, got, tt.want)
		}
	}
}
