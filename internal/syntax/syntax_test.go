package syntax

import (
	"fmt"
	"math/big"
	"strings"
	"testing"
)

// sexpr prints an expression as an s-expression, to check how the parser groups it.
func sexpr(x Expr) string {
	switch x := x.(type) {
	case nil:
		return "nil"
	case *Name:
		return x.Name
	case *Const:
		switch v := x.Value.(type) {
		case string:
			return fmt.Sprintf("%q", v)
		case *big.Int:
			return v.String()
		case nil:
			return "none"
		}
		return fmt.Sprint(x.Value)
	case *Tuple:
		return "(tuple" + list(x.Items) + ")"
	case *List:
		return "(list" + list(x.Items) + ")"
	case *Dict:
		s := "(dict"
		for _, p := range x.Items {
			s += " " + sexpr(p.Key) + ":" + sexpr(p.Value)
		}
		return s + ")"
	case *Getattr:
		return "(. " + sexpr(x.X) + " " + x.Attr + ")"
	case *Getitem:
		return "([] " + sexpr(x.X) + " " + sexpr(x.Arg) + ")"
	case *Slice:
		return "(: " + sexpr(x.Start) + " " + sexpr(x.Stop) + " " + sexpr(x.Step) + ")"
	case *Call:
		return "(call " + sexpr(x.Fn) + args(x.Args) + ")"
	case *Filter:
		return "(| " + sexpr(x.X) + " " + x.Name + args(x.Args) + ")"
	case *Test:
		return "(is " + sexpr(x.X) + " " + x.Name + args(x.Args) + ")"
	case *Unary:
		return "(" + x.Op + " " + sexpr(x.X) + ")"
	case *Binary:
		return "(" + x.Op + " " + sexpr(x.L) + " " + sexpr(x.R) + ")"
	case *Concat:
		return "(~" + list(x.Items) + ")"
	case *Compare:
		s := "(cmp " + sexpr(x.X)
		for _, op := range x.Ops {
			s += " " + op.Op + " " + sexpr(op.X)
		}
		return s + ")"
	case *CondExpr:
		return "(if " + sexpr(x.Test) + " " + sexpr(x.Then) + " " + sexpr(x.Else) + ")"
	case *NSRef:
		return "(ns " + x.Name + " " + x.Attr + ")"
	}
	return fmt.Sprintf("?%T", x)
}

func list(xs []Expr) string {
	s := ""
	for _, x := range xs {
		s += " " + sexpr(x)
	}
	return s
}

func args(a Args) string {
	s := list(a.Args)
	for _, kw := range a.Kwargs {
		s += " " + kw.Name + "=" + sexpr(kw.Value)
	}
	if a.DynArgs != nil {
		s += " *" + sexpr(a.DynArgs)
	}
	if a.DynKwargs != nil {
		s += " **" + sexpr(a.DynKwargs)
	}
	return s
}

func parseExpr(t *testing.T, src string) Expr {
	t.Helper()
	tmpl, err := Parse("{{ " + src + " }}")
	if err != nil {
		t.Fatalf("Parse(%q): %v", src, err)
	}
	if len(tmpl.Body) != 1 {
		t.Fatalf("Parse(%q): %d nodes", src, len(tmpl.Body))
	}
	return tmpl.Body[0].(*Print).X
}

// TestPrecedence checks operator precedence and associativity as Jinja2's parser has
// them (including its quirks: ** is left-associative and binds looser than unary minus,
// filters bind tighter than arithmetic, `not` binds looser than comparisons).
func TestPrecedence(t *testing.T) {
	tests := []struct{ src, want string }{
		{"1 + 2 * 3", "(+ 1 (* 2 3))"},
		{"1 - 2 - 3", "(- (- 1 2) 3)"},
		{"2 ** 3 ** 2", "(** (** 2 3) 2)"},
		{"-2 ** 2", "(** (neg 2) 2)"},
		{"a ~ b + c", "(+ (~ a b) c)"},
		{"a + b ~ c", "(+ a (~ b c))"},
		{"a * b ~ c", "(~ (* a b) c)"},
		{"not a == b", "(not (cmp a == b))"},
		{"not a and b or c", "(or (and (not a) b) c)"},
		{"a < b < c", "(cmp a < b < c)"},
		{"a not in b", "(cmp a notin b)"},
		{"x | trim + 'a'", "(+ (| x trim) \"a\")"},
		{"-x | abs", "(| (neg x) abs)"},
		{"x is not none and y", "(and (not (is x none)) y)"},
		{"x is divisibleby 3", "(is x divisibleby 3)"},
		{"(x is defined) if y else z", "(if y (is x defined) z)"},
		{"x is sameas none", "(is x sameas none)"},
		{"a if b", "(if b a nil)"},
		{"a if b else c if d else e", "(if b a (if d c e))"},
		{"(a if b else c) | d", "(| (if b a c) d)"},
		{"f(1, x=2, *a, **k)", "(call f 1 x=2 *a **k)"},
		{"a.b[0].c()", "(call (. ([] (. a b) 0) c))"},
		{"a.0.1", "([] ([] a 0) 1)"},
		{"x[1:-1:2]", "([] x (: 1 (neg 1) 2))"},
		{"x[::-1]", "([] x (: nil nil (neg 1)))"},
		{"x[:2]", "([] x (: nil 2 nil))"},
		{"x[1,2]", "([] x (tuple 1 2))"},
		{"x | default('a', true) | join(', ')", "(| (| x default \"a\" true) join \", \")"},
		{"[1, 'a', none, true, 2.5]", "(list 1 \"a\" none true 2.5)"},
		{"{'a': 1, b: [c]}", "(dict \"a\":1 b:(list c))"},
		{"(1,)", "(tuple 1)"},
		{"()", "(tuple)"},
		{"1, 2", "(tuple 1 2)"},
		{"'a' 'b' \"c\"", "\"abc\""},
		{"0x1F + 0o17 + 0b11 + 1_000", "(+ (+ (+ 31 15) 3) 1000)"},
		{"1e3 + 1.5 + 2.", "?"},
	}
	for _, tt := range tests {
		if tt.want == "?" {
			if _, err := Parse("{{ " + tt.src + " }}"); err == nil {
				t.Errorf("%s: parsed, want an error", tt.src)
			}
			continue
		}
		if got := sexpr(parseExpr(t, tt.src)); got != tt.want {
			t.Errorf("%s\n got  %s\n want %s", tt.src, got, tt.want)
		}
	}
}

// TestStringEscapes checks string literals decode as Python's unicode-escape codec does
// after backslashreplace (Jinja2's lexer).
func TestStringEscapes(t *testing.T) {
	tests := []struct{ src, want string }{
		{`'a\nb'`, "a\nb"},
		{`"tab\there"`, "tab\there"},
		{`'it\'s'`, "it's"},
		{`'\x41\u00e9\U0001F600'`, "Aé😀"},
		{`'\101'`, "A"},
		{`'\d\w'`, `\d\w`},
		{`'é\é'`, `é\xe9`},
		{`'a\
b'`, "ab"},
	}
	for _, tt := range tests {
		c, ok := parseExpr(t, tt.src).(*Const)
		if !ok || c.Value != tt.want {
			t.Errorf("%s: got %#v, want %q", tt.src, c, tt.want)
		}
	}
	if _, err := Parse(`{{ '\x4' }}`); err == nil || !strings.Contains(err.Error(), "truncated") {
		t.Errorf("bad \\x escape: got %v", err)
	}
}

// TestWhitespace checks the lexer's whitespace control: trim_blocks, lstrip_blocks, the
// - and + markers, comments and raw blocks, and the dropped final newline.
func TestWhitespace(t *testing.T) {
	tests := []struct{ src, want string }{
		{"a\n{% if x %}\nb\n{% endif %}\nc\n", "a\n|b\n|c"},
		{"a\n    {% if x %}\n  b\n{% endif %}", "a\n|  b\n"},
		{"a  {%- if x -%}  b  {%- endif -%}  c", "a|b|c"},
		{"a\n  {%+ if x %}b{% endif +%}\nc", "a\n  |b|\nc"},
		{"a\n  {{ x }}\n", "a\n  "},
		{"a  {{- x -}}  b", "a|b"},
		{"a\n  {# note #}\nb", "a\n|b"},
		{"a {#- note -#} b", "a|b"},
		{"{% raw %}{{ x }}{% endraw %}", "{{ x }}"},
		{"a\r\nb\rc\n\n", "a\nb\nc\n"},
		{"x\u00a0{%- if y %}{% endif %}", "x"},
	}
	for _, tt := range tests {
		tmpl, err := Parse(tt.src)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.src, err)
		}
		var parts []string
		var walk func([]Node)
		walk = func(nodes []Node) {
			for _, n := range nodes {
				switch n := n.(type) {
				case *Data:
					parts = append(parts, n.Text)
				case *If:
					walk(n.Body)
				}
			}
		}
		walk(tmpl.Body)
		if got := strings.Join(parts, "|"); got != tt.want {
			t.Errorf("%q\n got  %q\n want %q", tt.src, got, tt.want)
		}
	}
}

// TestStatements checks the statement forms parse into the right nodes.
func TestStatements(t *testing.T) {
	src := `{% for k, v in d.items() if v recursive %}{% break %}{% continue %}{% else %}{% endfor %}` +
		`{% set ns.a = 1 %}{% set a, b = 1, 2 %}{% set c | upper %}x{% endset %}` +
		`{% macro m(a, b=1) %}{{ caller() }}{% endmacro %}{% call(x) m(1) %}{{ x }}{% endcall %}` +
		`{% filter upper | trim %}y{% endfilter %}{% with a = 1 %}{% endwith %}` +
		`{% generation %}g{% endgeneration %}{% if a %}{% elif b %}{% else %}{% endif %}`
	tmpl, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, n := range tmpl.Body {
		kinds = append(kinds, strings.TrimPrefix(fmt.Sprintf("%T", n), "*syntax."))
	}
	want := "For Set Set SetBlock Macro CallBlock FilterBlock With Generation If"
	if got := strings.Join(kinds, " "); got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
	f := tmpl.Body[0].(*For)
	if sexpr(f.Target) != "(tuple k v)" || sexpr(f.Test) != "v" || !f.Recursive || len(f.Body) != 2 {
		t.Errorf("for: target %s test %s recursive %v body %d", sexpr(f.Target), sexpr(f.Test), f.Recursive, len(f.Body))
	}
	if ns := tmpl.Body[1].(*Set).Target; sexpr(ns) != "(ns ns a)" {
		t.Errorf("namespace target: %s", sexpr(ns))
	}
	m := tmpl.Body[4].(*Macro)
	if m.Name != "m" || len(m.Params) != 2 || m.Params[1].Default == nil {
		t.Errorf("macro: %+v", m)
	}
	i := tmpl.Body[9].(*If)
	if len(i.Elifs) != 1 || i.Else == nil && len(i.Else) != 0 {
		t.Errorf("if: %+v", i)
	}
}

// TestErrors checks that syntax errors name the line and column and say what is wrong.
func TestErrors(t *testing.T) {
	tests := []struct {
		src  string
		pos  Pos
		want string
	}{
		{"{% if x %}", Pos{1, 11}, "Unexpected end of template"},
		{"a\n{% for x in y %}\n{% endif %}", Pos{3, 4}, "Encountered unknown tag 'endif'"},
		{"{{ x + }}", Pos{1, 8}, "unexpected"},
		{"{{ 'abc }}", Pos{1, 4}, "unexpected char"},
		{"{{ x ) }}", Pos{1, 6}, "unexpected ')'"},
		{"{% foo %}", Pos{1, 4}, "Encountered unknown tag 'foo'"},
		{"a\n{% autoescape true %}{{ x }}{% endautoescape %}", Pos{2, 4}, "tmplgen does not compile {% autoescape %} blocks"},
		{"{# never closed", Pos{1, 1}, "Missing end of comment tag"},
		{"{% set 1 = 2 %}", Pos{1, 8}, "can't assign"},
		{"{% macro m(a=1, b) %}{% endmacro %}", Pos{1, 18}, "non-default argument follows default argument"},
		{"{{ x is defined is y }}", Pos{1, 17}, "You cannot chain multiple tests with is"},
		{"{{ x is defined if y }}", Pos{1, 20}, "expected token 'end of print statement'"},
		{"ok\n{{ \xff }}", Pos{2, 4}, "not valid UTF-8"},
	}
	for _, tt := range tests {
		_, err := Parse(tt.src)
		e, ok := err.(*Error)
		if !ok {
			t.Errorf("%q: got %v, want a syntax error", tt.src, err)
			continue
		}
		if e.Pos != tt.pos || !strings.Contains(e.Msg, tt.want) {
			t.Errorf("%q: got %v at %v, want %q at %v", tt.src, e.Msg, e.Pos, tt.want, tt.pos)
		}
	}
}

// TestNestingLimit checks that deeply nested input fails cleanly instead of exhausting
// the stack.
func TestNestingLimit(t *testing.T) {
	deep := "{{ " + strings.Repeat("(", 5000) + "1" + strings.Repeat(")", 5000) + " }}"
	if _, err := Parse(deep); err == nil || !strings.Contains(err.Error(), "nests more than") {
		t.Errorf("deep nesting: got %v", err)
	}
	blocks := strings.Repeat("{% if x %}", 2000) + strings.Repeat("{% endif %}", 2000)
	if _, err := Parse(blocks); err == nil || !strings.Contains(err.Error(), "nests more than") {
		t.Errorf("deep blocks: got %v", err)
	}
}

// TestParseLlamaDiffers: ParseLlama reports a text whose whitespace around tags
// llama.cpp's lexer strips otherwise than Jinja2's (testdata/llama_engine's
// strip_unicode_* record what each strips), and only then.
func TestParseLlamaDiffers(t *testing.T) {
	for src, want := range map[string]bool{
		"  \t{% if x %}a{% endif %}\n{{ x -}}  \n b": false,
		"\u3000{% if x %}a{% endif %}":               true,
		"a \u00a0{%- if x %}a{% endif %}":            true,
		"{{ x -}}\u2028b":                            true,
		"\v{% if x %}a{% endif %}":                   false, // both strip \v before a block
		"a\v{{- x }}":                                true,  // "-" strips spaces, tabs and newlines only
	} {
		_, got, err := ParseLlama(src)
		if err != nil || got != want {
			t.Errorf("ParseLlama(%q) differs = %v, %v; want %v", src, got, err, want)
		}
	}
}
