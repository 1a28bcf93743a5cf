package llamaprobe

import (
	"testing"

	"github.com/tmplgen/tmplgen/internal/ir"
	"github.com/tmplgen/tmplgen/internal/llamacpp"
)

// TestProbeCapabilities checks the capabilities of small templates, each showing one rule
// of llama.cpp's probing (what counts as using a value, and where llama.cpp's engine
// fails or goes on where Jinja2 would not). Each want was checked against llama.cpp's
// own jinja::caps_get (testdata/llama_server/llama_jinja.cpp).
func TestProbeCapabilities(t *testing.T) {
	type caps struct{ system, str, typed, tools, calls, parallel, object bool }
	get := func(c llamacpp.Capabilities) caps {
		return caps{c.SystemRole, c.StringContent, c.TypedContent, c.Tools, c.ToolCalls, c.ParallelToolCalls, c.ObjectArguments}
	}
	tests := []struct {
		name, template string
		want           caps
	}{
		{"prints only the role", `{% for m in messages %}{{ m.role }}{% endfor %}`,
			caps{false, true, false, false, false, false, false}},
		{"content through a variable", `{% for m in messages %}{% set c = m.content %}{{ c }}{% endfor %}`,
			caps{true, true, false, false, false, false, false}},
		{"dict.get's result is not used until read again", `{% for m in messages %}{{ m.get('content') }}{% endfor %}`,
			caps{false, true, false, false, false, false, false}},
		{"content iterated as parts: a str cannot be iterated", `{% for m in messages %}{% for p in m.content %}{{ p.text }}{% endfor %}{% endfor %}`,
			caps{true, false, true, false, false, false, false}},
		{"selectattr on content", `{% for m in messages %}{{ m.content | selectattr('type', 'equalto', 'text') | map(attribute='text') | join }}{% endfor %}`,
			caps{true, false, true, false, false, false, false}},
		{"a system message refused", `{% if messages[0].role == 'system' %}{{ raise_exception('no') }}{% endif %}{% for m in messages %}{{ m.content }}{% endfor %}`,
			caps{false, true, false, false, false, false, false}},
		{"tools printed with tojson, calls by name and arguments", `{{ tools | tojson }}{% for m in messages %}{{ m.content }}{% for c in m.tool_calls %}{{ c.function.name }}{{ c.function.arguments | tojson }}{% endfor %}{% endfor %}`,
			caps{true, true, false, true, true, true, true}},
		{"string arguments only", `{% for m in messages %}{{ m.content }}{% if m.tool_calls %}{{ m.tool_calls[0].function.arguments }}{% endif %}{% endfor %}`,
			caps{true, true, false, false, true, false, false}},
		{"a macro sees its caller's variables", `{% macro name() %}{{ tool.function.name }}{% endmacro %}{% for tool in tools %}{{ name() }}{% endfor %}{% for m in messages %}{{ m.content }}{% endfor %}`,
			caps{true, true, false, true, false, false, false}},
		{"a skipped defaulted parameter is undefined", `{% macro f(x, field=none, flag=false) %}{% if field is not none and field in x %}{{ x[field] }}{% endif %}{% endmacro %}{% for m in messages %}{{ m.content }}{{ f(m, flag=true) }}{% endfor %}`,
			caps{true, false, false, false, false, false, false}},
		{"a namespace's items is the builtin", `{% set ns = namespace(items=[]) %}{% for m in messages %}{{ m.content }}{% set ns.items = ns.items + [m.role] %}{% endfor %}`,
			caps{true, false, false, false, false, false, false}},
		{"a list can be appended to", `{% set seen = [] %}{% for m in messages %}{% set _ = seen.append(m.content) %}{% endfor %}{{ seen | join(',') }}`,
			caps{true, true, false, false, false, false, false}},
		{"none concatenated with a str", `{% for m in messages %}{{ m.content + none }}{% endfor %}`,
			caps{true, true, false, false, false, false, false}},
		{"'undefined in x' fails", `{% for m in messages %}{{ m.content }}{% if m.missing in ['a'] %}x{% endif %}{% endfor %}`,
			caps{true, false, false, false, false, false, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tmpl, err := ir.Compile("probe.jinja", tt.template)
			if err != nil {
				t.Fatal(err)
			}
			if got := get(Capabilities(tmpl)); got != tt.want {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// TestReasoningAnalysis checks the thinking support of small templates; each want is
// what llama.cpp reports for the template (llama_render.mjs with verbose on).
func TestReasoningAnalysis(t *testing.T) {
	tests := []struct {
		name, template        string
		thinking              bool
		startTag, mode, start string
	}{
		{"no thinking", `{% for m in messages %}<|{{ m.role }}|>{{ m.content }}{% endfor %}{% if add_generation_prompt %}<|assistant|>{% endif %}`,
			false, "", "none", ""},
		{"reasoning of past turns between tags", `{% for m in messages %}<|{{ m.role }}|>{% if m.reasoning_content %}<think>{{ m.reasoning_content }}</think>{% endif %}{{ m.content }}{% endfor %}{% if add_generation_prompt %}<|assistant|>{% endif %}`,
			true, "<think>", "tag_based", "<think>"},
		{"a generation prompt opening thinking", `{% for m in messages %}<|{{ m.role }}|>{{ m.content }}{% endfor %}{% if add_generation_prompt %}<|assistant|>{% if enable_thinking %}<think>{% endif %}{% endif %}`,
			true, "<think>", "tag_based", "<think>"},
		{"not found where the prompt ends in a newline", `{% for m in messages %}<|{{ m.role }}|>{{ m.content }}{% endfor %}{% if add_generation_prompt %}<|assistant|>{% if enable_thinking %}<think>
{% endif %}{% endif %}`,
			false, "", "none", ""},
		{"an end marker when off, the marker before it as the start", `{% for m in messages %}<|{{ m.role }}|>{{ m.content }}{% endfor %}{% if add_generation_prompt %}<|assistant|>{% if not enable_thinking %}</think>{% endif %}{% endif %}`,
			true, "<|assistant|>", "tag_based", "<|assistant|>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tmpl, err := ir.Compile("think.jinja", tt.template)
			if err != nil {
				t.Fatal(err)
			}
			c := Capabilities(tmpl)
			if c.Thinking != tt.thinking || c.ThinkingStartTag != tt.startTag || c.ReasoningMode != tt.mode || c.ReasoningStart != tt.start {
				t.Errorf("got thinking %v, start tag %q, mode %s, start %q; want %v, %q, %s, %q",
					c.Thinking, c.ThinkingStartTag, c.ReasoningMode, c.ReasoningStart, tt.thinking, tt.startTag, tt.mode, tt.start)
			}
		})
	}
}

// TestDiffSplit checks diffSplit against testdata/llama_server/profile.py's diff_split.
func TestDiffSplit(t *testing.T) {
	tests := []struct {
		left, right string
		want        diff
	}{
		{"<a>x<b>", "<a>x<think>y</think><b>", diff{prefix: "<a>x", suffix: "<b>", left: "", right: "<think>y</think>"}},
		{"abc", "abcdef", diff{prefix: "abc", right: "def"}},
		{"<s>hello world</s>", "<s>hello there world</s>", diff{prefix: "<s>hello", suffix: " world</s>", right: " there"}},
		{"<|user|>U<|assistant|>", "<|user|>U<|assistant|><think>", diff{prefix: "<|user|>U<|assistant|>", right: "<think>"}},
	}
	for _, tt := range tests {
		if got := diffSplit(tt.left, tt.right); got != tt.want {
			t.Errorf("diffSplit(%q, %q) = %+v, want %+v", tt.left, tt.right, got, tt.want)
		}
	}
}
