package ir

import (
	"strings"
	"testing"
)

func compile(t *testing.T, src string) *Template {
	t.Helper()
	tmpl, err := Compile("test.jinja", src)
	if err != nil {
		t.Fatalf("Compile(%q): %v", src, err)
	}
	return tmpl
}

// scopeVar returns the variable of that name declared in a scope.
func scopeVar(s *Scope, name string) *Var {
	for _, v := range s.Vars {
		if v.Name == name {
			return v
		}
	}
	return nil
}

// TestLoopScope: a set inside a loop body assigns a variable of the loop's scope, which
// starts as the outer variable (or undefined) each iteration and does not leak out.
func TestLoopScope(t *testing.T) {
	tmpl := compile(t, "{% set x = 1 %}{% for i in l %}{% set x = 2 %}{% set y = 3 %}{% endfor %}{{ x }}")
	root := scopeVar(tmpl.Body.Scope, "x")
	loop := tmpl.Body.Stmts[1].(*For)
	inner := scopeVar(loop.Body.Scope, "x")
	if root == nil || inner == nil || root == inner {
		t.Fatalf("want distinct x in the root and loop scopes: %v %v", root, inner)
	}
	if l, ok := inner.Init.(*Load); !ok || l.Var != root {
		t.Errorf("the loop's x should start as the outer x, got %s", ExprString(inner.Init))
	}
	if y := scopeVar(loop.Body.Scope, "y"); y == nil || ExprString(y.Init) != "undefined(y)" {
		t.Errorf("y should be a loop variable starting undefined, got %+v", y)
	}
	if scopeVar(tmpl.Body.Scope, "y") != nil {
		t.Error("y leaked out of the loop")
	}
	if p := tmpl.Body.Stmts[2].(*Print); p.X.(*Load).Var != root {
		t.Error("after the loop, x is the root x")
	}
	if loop.Loop != nil {
		t.Error("the loop variable is not read, so the loop should have none")
	}
}

// TestBranchStore: a name stored only inside an if at the top level starts from the
// render's context (a variable of the input), as Jinja2 resolves it.
func TestBranchStore(t *testing.T) {
	tmpl := compile(t, "{% if c %}{% set z = 1 %}{% endif %}{{ z }}")
	z := scopeVar(tmpl.Body.Scope, "z")
	if z == nil || ExprString(z.Init) != "input.z" {
		t.Fatalf("z should start as input.z, got %+v", z)
	}
	tmpl = compile(t, "{% set z = 0 %}{% if c %}{% set z = 1 %}{% endif %}{{ z }}")
	if z := scopeVar(tmpl.Body.Scope, "z"); ExprString(z.Init) != "undefined(z)" {
		t.Errorf("z assigned before the if starts undefined, got %s", ExprString(z.Init))
	}
}

// TestNamespace: assigning a namespace attribute inside a loop reaches the outer
// namespace; no loop variable is created for it.
func TestNamespace(t *testing.T) {
	tmpl := compile(t, "{% set ns = namespace(a=1) %}{% for i in l %}{% set ns.a = 2 %}{% endfor %}{{ ns.a }}")
	loop := tmpl.Body.Stmts[1].(*For)
	set := loop.Body.Stmts[0].(*Assign)
	at, ok := set.Target.(*AttrTarget)
	if !ok || at.NS != scopeVar(tmpl.Body.Scope, "ns") {
		t.Errorf("ns.a should assign the root ns, got %#v", set.Target)
	}
	if scopeVar(loop.Body.Scope, "ns") != nil {
		t.Error("the loop should not declare its own ns")
	}
	if c, ok := tmpl.Body.Stmts[0].(*Assign).Value.(*Call); !ok || ExprString(c.Fn) != "global.namespace" {
		t.Errorf("namespace(...) should call the global, got %s", ExprString(tmpl.Body.Stmts[0].(*Assign).Value))
	}
}

// TestMacroScope: a macro reads outer variables as they are when it is called (it
// refers to the outer variable), has its own parameters, and uses caller, varargs and
// kwargs only when its body reads them.
func TestMacroScope(t *testing.T) {
	tmpl := compile(t, "{% set g = 1 %}{% macro m(a, b=2) %}{{ g }}{{ a }}{{ caller() }}{{ varargs }}{% endmacro %}{{ m(1) }}")
	def := tmpl.Body.Stmts[1].(*MacroDef)
	m := def.Macro
	if len(m.Params) != 2 || m.Defaults[0] != nil || ExprString(m.Defaults[1]) != "2" {
		t.Errorf("params: %s", macroString(m))
	}
	if m.Caller == nil || m.Varargs == nil || m.Kwargs != nil {
		t.Errorf("implicit parameters: caller %v varargs %v kwargs %v", m.Caller, m.Varargs, m.Kwargs)
	}
	g := scopeVar(tmpl.Body.Scope, "g")
	if p := m.Body.Stmts[0].(*Print); p.X.(*Load).Var != g {
		t.Error("the macro should read the root g")
	}
	if def.Var != scopeVar(tmpl.Body.Scope, "m") {
		t.Error("the macro is assigned to the root m")
	}
}

// TestLoopVariable: the loop variable exists only when the body reads it; a nested
// loop that reads loop gets its own.
func TestLoopVariable(t *testing.T) {
	tmpl := compile(t, "{% for a in x %}{{ loop.index }}{% for b in y %}{{ loop.index }}{% endfor %}{% endfor %}")
	outer := tmpl.Body.Stmts[0].(*For)
	inner := outer.Body.Stmts[1].(*For)
	if outer.Loop == nil || inner.Loop == nil || outer.Loop == inner.Loop {
		t.Fatal("each loop should have its own loop variable")
	}
	if p := inner.Body.Stmts[0].(*Print); p.X.(*Attr).X.(*Load).Var != inner.Loop {
		t.Error("loop.index in the inner body is the inner loop's")
	}
}

// TestConstantText: printing a literal becomes template text, merged with its
// neighbours, as Jinja2's optimizer folds it.
func TestConstantText(t *testing.T) {
	tmpl := compile(t, "a{{ 'b' }}{{ 1 }}{{ true }}c{{ -2 }}")
	if len(tmpl.Body.Stmts) != 1 {
		t.Fatalf("want one text statement, got %d", len(tmpl.Body.Stmts))
	}
	if got := tmpl.Body.Stmts[0].(*Text).Text; got != "ab1Truec-2" {
		t.Errorf("got %q", got)
	}
	// none stays a print: llama.cpp writes it as "", Jinja2 as "None"
	tmpl = compile(t, "a{{ none }}b")
	if len(tmpl.Body.Stmts) != 3 {
		t.Fatalf("{{ none }}: want text, print, text; got %d statements", len(tmpl.Body.Stmts))
	}
	if _, ok := tmpl.Body.Stmts[1].(*Print); !ok {
		t.Errorf("{{ none }} lowered to %T, want a print", tmpl.Body.Stmts[1])
	}
}

// TestLoweringErrors: constructs Jinja2 rejects when it compiles a template.
func TestLoweringErrors(t *testing.T) {
	for src, want := range map[string]string{
		"{% break %}":                                       "'break' outside loop",
		"{% for loop in x %}{% endfor %}":                   "special loop variable",
		"{% macro m(caller) %}{{ caller() }}{% endmacro %}": "caller",
		"{% for x in y %}{% macro m() %}{% break %}{% endmacro %}{% endfor %}": "'break' outside loop",
	} {
		_, err := Compile("t.jinja", src)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want an error about %q", src, err, want)
		}
	}
}

// TestFormat prints the IR with positions, scopes and resolved variables.
func TestFormat(t *testing.T) {
	tmpl := compile(t, "{% for m in messages %}{{ m.role | upper }}{% endfor %}")
	out := Format(tmpl)
	for _, want := range []string{
		"template test.jinja",
		"scope messages#1 = input.messages",
		"1:1       for m#2 in messages#1",
		"print m#2.role | upper",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("Format output lacks %q:\n%s", want, out)
		}
	}
}
