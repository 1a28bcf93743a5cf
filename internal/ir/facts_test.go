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
	tests := []factCase{
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
		{"bound to another value after", `{% set ns = namespace() %}{% set ns.a = 1 %}{% set ns = messages[0] %}{% set ns.b = 1 %}`, "ns.a:true ns.b:false"},
		{"bound to another value later in a loop", `{% set ns = namespace() %}{% for m in messages %}{% set ns.a = 1 %}{% set ns = m %}{% endfor %}`, "ns.a:false"},
		{"bound in a branch", `{% set ns = namespace() %}{% if messages %}{% set ns = messages[0] %}{% endif %}{% set ns.a = 1 %}`, "ns.a:false"},
		{"bound by a with block", `{% set ns = namespace() %}{% with ns = messages[0] %}{% set ns.a = 1 %}{% endwith %}`, "ns.a:false"},
		{"bound in a macro's body", `{% set ns = namespace() %}{% macro f() %}{% set ns = messages[0] %}{% endmacro %}{% set ns.a = 1 %}{{ f() }}`, "ns.a:true"},
		{"a macro's name", `{% set ns = namespace() %}{% macro ns() %}{% endmacro %}{% set ns.a = 1 %}`, "ns.a:false"},
		{"bound after a macro reads it", `{% set ns = namespace() %}{% macro f() %}{% set ns.a = 1 %}{% endmacro %}{% set ns = messages[0] %}{{ f() }}`, "ns.a:false"},
		{"a macro parameter given one", `{% set ns = namespace() %}{% macro f(x) %}{% set x.a = 1 %}{% endmacro %}{{ f(ns) }}{{ f(x=ns) }}`, "x.a:true"},
		{"a macro parameter given one and the input", `{% set ns = namespace() %}{% macro f(x) %}{% set x.a = 1 %}{% endmacro %}{{ f(ns) }}{{ f(messages[0]) }}`, "x.a:false"},
		{"a macro parameter given one through another", `{% set ns = namespace() %}{% macro g(y) %}{% set y.b = 1 %}{% endmacro %}{% macro f(x) %}{% set x.a = 1 %}{{ g(x) }}{% endmacro %}{{ f(ns) }}`, "y.b:true x.a:true"},
		{"a macro parameter given one before it is made", `{% macro f(x) %}{% set x.a = 1 %}{% endmacro %}{{ f(ns) }}{% set ns = namespace() %}`, "x.a:false"},
		{"a macro parameter left to its default", `{% set ns = namespace() %}{% macro f(x=none) %}{% set x.a = 1 %}{% endmacro %}{{ f(ns) }}{{ f() }}`, "x.a:false"},
		{"a macro parameter llama.cpp binds no keyword to", `{% set ns = namespace() %}{% macro f(x, y) %}{% set y.a = 1 %}{% endmacro %}{{ f(y=ns) }}`, "y.a:false"},
		{"a macro parameter bound again in the body", `{% set ns = namespace() %}{% macro f(x) %}{% set x = messages[0] %}{% set x.a = 1 %}{% endmacro %}{{ f(ns) }}`, "x.a:false"},
		{"a macro parameter given by an unresolved call", `{% set ns = namespace() %}{% macro f(x) %}{% set x.a = 1 %}{% endmacro %}{{ f(ns) }}{{ f(*messages) }}`, "x.a:false"},
		{"a macro parameter of a macro value", `{% set ns = namespace() %}{% macro f(x) %}{% set x.a = 1 %}{% endmacro %}{{ f(ns) }}{% set g = f %}{{ g(messages[0]) }}`, "x.a:false"},
	}
	checkFacts(t, tests, func(tmpl *Template) (got []string) {
		attrs := NamespaceAttrs(tmpl)
		Inspect(tmpl.Body.Stmts, func(n any) bool {
			if a, ok := n.(*AttrTarget); ok {
				got = append(got, fmt.Sprintf("%s.%s:%v", a.NS.Name, a.Attr, attrs[a]))
			}
			return true
		})
		return got
	})
}

// A factCase is a template (src) and what a fact says of it (want).
type factCase struct{ name, src, want string }

// checkFacts compiles the template of each test and checks what facts says of it.
func checkFacts(t *testing.T, tests []factCase, facts func(*Template) []string) {
	t.Helper()
	for _, tt := range tests {
		tmpl, err := Compile(tt.name, tt.src)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if s := strings.Join(facts(tmpl), " "); s != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, s, tt.want)
		}
	}
}

// TestListMethods: a list's append and pop change no list of the input when the list is
// name.attr of a namespace the template made, and name.attr only ever holds a list
// display.
func TestListMethods(t *testing.T) {
	tests := []factCase{
		{"a queue", `{% set q = namespace(ids=[]) %}{% for m in messages %}{% set _ = q.ids.append(m) %}{% set x = q.ids.pop(0) %}{% endfor %}`, "q.ids.append:true q.ids.pop:true"},
		{"given the input", `{% set q = namespace(ids=messages) %}{{ q.ids.append(1) }}`, "q.ids.append:false"},
		{"set to the input", `{% set q = namespace(ids=[]) %}{% set q.ids = messages %}{{ q.ids.pop() }}`, "q.ids.pop:false"},
		{"set to another list", `{% set q = namespace(ids=[]) %}{% set q.ids = [messages[0]] %}{{ q.ids.pop() }}`, "q.ids.pop:true"},
		{"set by a tuple", `{% set q = namespace(ids=[]) %}{% set q.ids, x = messages %}{{ q.ids.pop() }}`, "q.ids.pop:false"},
		{"set by a block", `{% set q = namespace(ids=[]) %}{% set q.ids %}x{% endset %}{{ q.ids.pop() }}`, "q.ids.pop:false"},
		{"never given", `{% set q = namespace() %}{{ q.ids.pop() }}`, "q.ids.pop:false"},
		{"attributes from a dict", `{% set q = namespace(messages[0], ids=[]) %}{{ q.ids.append(1) }}`, "q.ids.append:false"},
		{"attributes from kwargs", `{% set q = namespace(ids=[], **messages[0]) %}{{ q.ids.append(1) }}`, "q.ids.append:false"},
		{"before it is made", `{{ q.ids.append(1) }}{% set q = namespace(ids=[]) %}`, "q.ids.append:false"},
		{"made in a branch", `{% if messages %}{% set q = namespace(ids=[]) %}{% endif %}{{ q.ids.append(1) }}`, "q.ids.append:false"},
		{"in a block after it is made", `{% set q = namespace(ids=[]) %}{% if messages %}{{ q.ids.append(1) }}{% endif %}`, "q.ids.append:true"},
		{"a plain list", `{% set l = [] %}{{ l.append(1) }}{{ messages.pop() }}`, ""},
		{"in a macro, the caller's", `{% set q = namespace(ids=[]) %}{% macro f() %}{{ q.ids.append(1) }}{% endmacro %}{{ f() }}`, "q.ids.append:true"},
		{"made again, then bound to the list", `{% if not tools %}{% set tools = namespace(value=[]) %}{% for m in messages %}{% set _ = tools.value.append(m) %}{% endfor %}{% set tools = tools.value %}{% endif %}{% macro f(tools) %}{{ tools.value.append(1) }}{% endmacro %}{{ f(messages[0]) }}`, "tools.value.append:true tools.value.append:false"},
		{"in a macro, a parameter", `{% set q = namespace(ids=[]) %}{% macro f(q) %}{{ q.ids.append(1) }}{% endmacro %}{{ f(messages[0]) }}`, "q.ids.append:false"},
	}
	checkFacts(t, tests, func(tmpl *Template) (got []string) {
		lists := ListMethods(tmpl)
		Inspect(tmpl.Body.Stmts, func(n any) bool {
			if c, ok := n.(*Call); ok {
				if m, ok := c.Fn.(*Attr); ok && (m.Name == "append" || m.Name == "pop") {
					if a, ok := m.X.(*Attr); ok {
						if l, ok := a.X.(*Load); ok {
							got = append(got, fmt.Sprintf("%s.%s.%s:%v", l.Var.Name, a.Name, m.Name, lists[c]))
						}
					}
				}
			}
			return true
		})
		return got
	})
}

// TestGenerationPrompt: a render with add_generation_prompt is the render without it
// and then the last statement's output only when that statement is an
// {% if add_generation_prompt %} (or an and of the name and more) and nothing before
// depends on the name (which llama-server defines only when true): it may only be set
// false or kept, also when it is not defined; and the render without more when nothing
// reads it.
func TestGenerationPrompt(t *testing.T) {
	const loop = `{% for m in messages %}{{ m.content }}{% endfor %}`
	tests := []factCase{
		{"the last statement", loop + `{% if add_generation_prompt %}<a>{% endif %}`, "line 1"},
		{"never read", loop + `<a>`, "the end"},
		{"text after it", loop + `{% if add_generation_prompt %}<a>{% endif %}x`, "none"},
		{"with an else", loop + `{% if add_generation_prompt %}<a>{% else %}<b>{% endif %}`, "none"},
		{"an and", loop + `{% if add_generation_prompt and messages %}<a>{% endif %}`, "line 1"},
		{"an and, the name last", loop + `{% if messages and (tools and add_generation_prompt) %}<a>{% endif %}`, "line 1"},
		{"an or", loop + `{% if add_generation_prompt or messages %}<a>{% endif %}`, "none"},
		{"not", loop + `{% if not add_generation_prompt %}<a>{% endif %}`, "none"},
		{"set false when not defined", `{% if add_generation_prompt is not defined %}{% set add_generation_prompt = false %}{% endif %}` + loop + `{% if add_generation_prompt %}<a>{% endif %}`, "line 1"},
		{"set when not defined, and more", `{% if add_generation_prompt is not defined %}{% set add_generation_prompt = false %}<a>{% endif %}{% if add_generation_prompt %}<a>{% endif %}`, "none"},
		{"tested whether defined", `{% if not add_generation_prompt is defined %}<a>{% endif %}` + loop + `{% if add_generation_prompt %}<a>{% endif %}`, "none"},
		{"only tested whether defined", `{% if add_generation_prompt is defined %}<a>{% endif %}` + loop, "none"},
		{"tested for its value", `{% if add_generation_prompt is false %}<a>{% endif %}{% if add_generation_prompt %}<a>{% endif %}`, "none"},
		{"set false", `{% if tools %}{% set add_generation_prompt = none %}{% endif %}` + loop + `{% if add_generation_prompt %}<a>{% endif %}`, "line 1"},
		{"set false in a loop", `{% for m in messages %}{% set add_generation_prompt = '' %}{% endfor %}{% if add_generation_prompt %}<a>{% endif %}`, "line 1"},
		{"kept by default", `{% set add_generation_prompt = add_generation_prompt | default(false) %}{% if add_generation_prompt %}<a>{% endif %}`, "line 1"},
		{"true by default", `{% set add_generation_prompt = add_generation_prompt | default(true) %}{% if add_generation_prompt %}<a>{% endif %}`, "none"},
		{"true by default, when false too", `{% set add_generation_prompt = add_generation_prompt | default(true, true) %}{% if add_generation_prompt %}<a>{% endif %}`, "none"},
		{"kept if defined", `{% set add_generation_prompt = add_generation_prompt if add_generation_prompt is defined else 0 %}{% if add_generation_prompt %}<a>{% endif %}`, "line 1"},
		{"true if not defined", `{% set add_generation_prompt = add_generation_prompt if add_generation_prompt is defined else true %}{% if add_generation_prompt %}<a>{% endif %}`, "none"},
		{"or false", `{% set add_generation_prompt = add_generation_prompt or false %}{% if add_generation_prompt %}<a>{% endif %}`, "line 1"},
		{"or true", `{% set add_generation_prompt = add_generation_prompt or true %}{% if add_generation_prompt %}<a>{% endif %}`, "none"},
		{"negated", `{% set add_generation_prompt = not add_generation_prompt %}{% if add_generation_prompt %}<a>{% endif %}`, "none"},
		{"captured", `{% set add_generation_prompt %}{% endset %}{% if add_generation_prompt %}<a>{% endif %}`, "none"},
		{"unpacked", `{% set add_generation_prompt, x = (false, 1) %}{% if add_generation_prompt %}<a>{% endif %}`, "none"},
		{"a macro parameter", `{% macro f(add_generation_prompt) %}{{ add_generation_prompt is defined }}{% endmacro %}{{ f() }}{% if add_generation_prompt %}<a>{% endif %}`, "none"},
		{"read before", `{{ add_generation_prompt }}` + loop + `{% if add_generation_prompt %}<a>{% endif %}`, "none"},
		{"read in a macro", `{% macro f() %}{{ add_generation_prompt }}{% endmacro %}{{ f() }}{% if add_generation_prompt %}<a>{% endif %}`, "none"},
		{"assigned", `{% set add_generation_prompt = true %}{% if add_generation_prompt %}<a>{% endif %}`, "none"},
		{"a loop target", `{% for add_generation_prompt in messages %}{% endfor %}{% if add_generation_prompt %}<a>{% endif %}`, "none"},
		{"not at the top level", `{% if messages %}{% if add_generation_prompt %}<a>{% endif %}{% endif %}`, "none"},
	}
	checkFacts(t, tests, func(tmpl *Template) []string {
		switch start, ok := GenerationPrompt(tmpl); {
		case !ok:
			return []string{"none"}
		case start == nil:
			return []string{"the end"}
		default:
			return []string{fmt.Sprintf("line %d", start.P.Line)}
		}
	})
}
