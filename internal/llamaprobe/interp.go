// Package llamaprobe is llama.cpp's load-time model: what llama-server finds out about a
// chat template when it loads it, by rendering it on sample inputs (the capabilities
// caps.go computes, the probes of probe.go, reasoning.go, load.go and tools.go, which
// parses JSON as llama.cpp does with llamacpp.NlohmannParse), computed when tmplgen compiles the template and written into its
// generated file. To run a template before its Go code exists it evaluates the template's
// IR directly (this file, with package jinja2's semantics, or llamacpp's in probe mode);
// tests use that evaluator as a second implementation to compare generated code
// against. Rendering for users always goes through generated code.
package llamaprobe

import (
	"fmt"

	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/internal/ir"
	"github.com/tmplgen/tmplgen/internal/jinja2"
	"github.com/tmplgen/tmplgen/internal/llamacpp"
	"github.com/tmplgen/tmplgen/templatehash"
)

// Template returns a tmplgen.Template that renders t by interpretation.
func Template(t *ir.Template) *tmplgen.Template {
	return &tmplgen.Template{
		Name:   t.File,
		File:   t.File,
		SHA256: templatehash.SHA256(t.Source),
		Func: func(w *jinja2.Writer) {
			m := &machine{w: w}
			env := m.enter(nil, t.Body.Scope)
			m.stmts(env, t.Body.Stmts)
		},
	}
}

// machine is one render.
type machine struct {
	w *jinja2.Writer
	// probe, when not nil, renders in probe mode (see probe.go).
	probe *probe
}

// env holds the variables of one entered scope; lookups walk to enclosing scopes.
type env struct {
	vars   map[*ir.Var]*jinja2.Value
	loops  map[*ir.Var]*jinja2.Loop
	parent *env
	// caller, in probe mode, is the environment a macro was called from: llama.cpp
	// resolves the names a macro does not define in its caller's context.
	caller *env
}

func (e *env) slot(v *ir.Var) *jinja2.Value {
	for s := e; s != nil; s = s.parent {
		if p, ok := s.vars[v]; ok {
			return p
		}
	}
	panic(fmt.Sprintf("llamaprobe: variable %s#%d is not in scope", v.Name, v.ID))
}

func (e *env) load(v *ir.Var) jinja2.Value {
	for s := e; s != nil; s = s.parent {
		if l, ok := s.loops[v]; ok {
			return l.Value()
		}
		if p, ok := s.vars[v]; ok {
			return *p
		}
		if s.caller != nil {
			if val, ok := s.caller.byName(v.Name); ok {
				return val
			}
		}
	}
	panic(fmt.Sprintf("llamaprobe: variable %s#%d is not in scope", v.Name, v.ID))
}

func (e *env) loop(v *ir.Var) (*jinja2.Loop, bool) {
	for s := e; s != nil; s = s.parent {
		if l, ok := s.loops[v]; ok {
			return l, true
		}
		if _, ok := s.vars[v]; ok || s.caller != nil {
			// a variable of that scope, or, in probe mode, a name of a macro's caller:
			// load reads it (the loop around the call, not the definition's)
			return nil, false
		}
	}
	return nil, false
}

// enter creates a scope's variables with their initial values (parameters start
// undefined until their construct assigns them).
func (m *machine) enter(parent *env, s *ir.Scope) *env {
	return m.enterFrom(parent, nil, s)
}

// enterFrom enters a scope; caller, when not nil, is where a macro was called from in
// probe mode (see env.caller).
func (m *machine) enterFrom(parent, caller *env, s *ir.Scope) *env {
	e := &env{vars: map[*ir.Var]*jinja2.Value{}, parent: parent, caller: caller}
	for _, v := range s.Vars {
		val := jinja2.Undefined(v.Name)
		if caller != nil && v.Init != nil {
			if cv, ok := caller.byName(v.Name); ok {
				e.vars[v] = &cv
				continue
			}
		}
		switch init := v.Init.(type) {
		case nil:
		case *ir.Load:
			val = parent.load(init.Var) // entering a scope reads no variable
		default:
			val = m.expr(parent, init)
		}
		e.vars[v] = &val
	}
	return e
}

// control says how a statement list ended.
type control int

const (
	normal control = iota
	breakLoop
	continueLoop
)

func (m *machine) stmts(e *env, ss []ir.Stmt) control {
	for _, s := range ss {
		if c := m.stmt(e, s); c != normal {
			return c
		}
	}
	return normal
}

func (m *machine) stmt(e *env, s ir.Stmt) control {
	if p := s.Position(); p.Line > 0 {
		if _, isText := s.(*ir.Text); !isText {
			m.w.At(p.Line, p.Col, ir.Construct(s))
		}
	}
	switch s := s.(type) {
	case *ir.Text:
		m.w.WriteString(s.Text)
	case *ir.Print:
		if m.probe != nil {
			// llama.cpp's engine writes values in its own forms (nothing for a dict)
			llamacpp.Write(m.w, m.expr(e, s.X))
		} else {
			m.w.Write(m.expr(e, s.X))
		}
	case *ir.If:
		if m.cond(e, s.Cond) {
			return m.stmts(e, s.Then)
		}
		return m.stmts(e, s.Else)
	case *ir.For:
		m.forStmt(e, s)
	case *ir.Assign:
		m.store(e, s.Target, m.expr(e, s.Value))
	case *ir.Capture:
		if m.probe != nil && len(s.Filters) > 0 {
			if _, c := m.capture(e, s.Body, nil); c != normal {
				return c
			}
			jinja2.Throw(llamacpp.EngineError, llamacpp.SetBlockFilterError)
		}
		v, c := m.capture(e, s.Body, s.Filters)
		if c != normal {
			return c
		}
		m.store(e, s.Target, v)
	case *ir.MacroDef:
		*e.slot(s.Var) = m.macro(e, s.Macro, false)
	case *ir.CallBlock:
		args, kwargs := m.args(e, s.Call.Args)
		kwargs = append(kwargs, jinja2.KW("caller", m.macro(e, s.Caller, true)))
		m.w.Write(m.call(e, s.Call.Fn, args, kwargs))
	case *ir.FilterBlock:
		v, c := m.capture(e, s.Body, s.Filters)
		if c != normal {
			return c
		}
		if m.probe != nil {
			llamacpp.WriteFilterBlock(m.w, v)
		} else {
			jinja2.WriteFilterBlock(m.w, v)
		}
	case *ir.With:
		values := make([]jinja2.Value, len(s.Values))
		for i, x := range s.Values {
			values[i] = m.expr(e, x)
		}
		inner := m.enter(e, s.Body.Scope)
		for i, t := range s.Targets {
			m.store(inner, t, values[i])
		}
		return m.stmts(inner, s.Body.Stmts)
	case *ir.Break:
		return breakLoop
	case *ir.Continue:
		return continueLoop
	case *ir.Fail:
		jinja2.Fail(failKind(s.Kind), s.Msg)
	default:
		panic(fmt.Sprintf("llamaprobe: unknown statement %T", s))
	}
	return normal
}

// failKind returns the error kind an ir.Fail names (ir.Fail.Kind).
func failKind(name string) jinja2.ErrorKind {
	switch name {
	case "RuntimeError":
		return jinja2.RuntimeError
	case "TypeError":
		return jinja2.TypeError
	case "EngineError":
		return llamacpp.EngineError
	}
	panic("llamaprobe: an ir.Fail of kind " + name)
}

// capture runs a block (of a set block or filter block) and returns what it wrote with
// the filters applied, and how the block ended.
func (m *machine) capture(e *env, body *ir.Block, filters []*ir.Filter) (jinja2.Value, control) {
	mark := m.w.Mark()
	inner := m.enter(e, body.Scope)
	if c := m.stmts(inner, body.Stmts); c != normal {
		m.w.Drop(mark) // Jinja2 drops the block's text with it
		return jinja2.Value{}, c
	}
	v := m.w.Cut(mark)
	for _, f := range filters {
		v = m.filter(inner, f, v)
	}
	return v, normal
}

func (m *machine) forStmt(e *env, s *ir.For) {
	if !s.Recursive {
		m.loop(e, s, m.expr(e, s.Iter), 1, nil)
		return
	}
	// a recursive loop: loop(x) runs the whole loop again over x, one level deeper
	var recurse func(jinja2.Value, int)
	recurse = func(iter jinja2.Value, depth int) { m.loop(e, s, iter, depth, recurse) }
	recurse(m.expr(e, s.Iter), 1)
}

// loop runs a for loop over iter; recurse is set for a recursive loop.
func (m *machine) loop(e *env, s *ir.For, iter jinja2.Value, depth int, recurse func(jinja2.Value, int)) {
	if m.probe != nil {
		iter = m.probeFor(iter)
		if _, several := s.Target.(*ir.TupleTarget); several {
			iter = llamacpp.Pairs(iter)
		}
	}
	var filter func(jinja2.Value) bool
	if s.Filter != nil {
		filter = func(item jinja2.Value) bool {
			fe := m.enter(e, s.FilterScope)
			m.store(fe, s.FilterTarget, item)
			return m.cond(fe, s.Filter)
		}
	}
	loop := jinja2.NewLoop(m.w, iter, filter)
	if recurse != nil {
		loop = jinja2.NewRecursiveLoop(m.w, iter, filter, depth, recurse)
	}
	iterated := false
	for loop.Next() {
		inner := m.enter(e, s.Body.Scope)
		if s.Loop != nil {
			delete(inner.vars, s.Loop)
			inner.loops = map[*ir.Var]*jinja2.Loop{s.Loop: loop}
		}
		m.store(inner, s.Target, loop.Item())
		c := m.stmts(inner, s.Body.Stmts)
		if c == breakLoop {
			break
		}
		if c == continueLoop {
			continue
		}
		iterated = true
	}
	if !iterated && s.Else != nil {
		m.stmts(m.enter(e, s.Else.Scope), s.Else.Stmts)
	}
}

func (m *machine) store(e *env, t ir.Target, v jinja2.Value) {
	switch t := t.(type) {
	case *ir.VarTarget:
		*e.slot(t.Var) = v
	case *ir.AttrTarget:
		if m.probe != nil {
			probeSetAttr(e.load(t.NS), t.Attr, v)
			return
		}
		jinja2.SetAttr(e.load(t.NS), t.Attr, v)
	case *ir.TupleTarget:
		unpack := jinja2.Unpack
		if m.probe != nil {
			unpack = llamacpp.Unpack
		}
		vals := unpack(v, len(t.Items))
		for i, it := range t.Items {
			if _, name := it.(*ir.VarTarget); !name && m.probe != nil {
				llamaFail("Cannot unpack to non-identifier")
			}
			m.store(e, it, vals[i])
		}
	}
}

// macro builds a macro value whose body runs in a new scope for each call; a call
// block's caller is anonymous. In probe mode its arguments are bound as llama.cpp binds
// them (llamacpp.BindMacro, as the generated llama.cpp function does).
func (m *machine) macro(e *env, mac *ir.Macro, anonymous bool) jinja2.Value {
	spec := &jinja2.MacroSpec{Name: mac.Name, Anonymous: anonymous, Caller: mac.Caller != nil, Kwargs: mac.Kwargs != nil, Varargs: mac.Varargs != nil}
	for _, p := range mac.Params {
		spec.Params = append(spec.Params, p.Name)
	}
	if m.probe != nil {
		spec.Bind = llamacpp.BindMacro
	}
	return jinja2.NewMacro(m.w, spec, func(args []jinja2.Value) {
		var caller *env // in probe mode, where it was called from
		if m.probe != nil {
			if !anonymous {
				caller = m.probe.caller
			}
			m.probe.caller = nil
		}
		inner := m.enterFrom(e, caller, mac.Body.Scope)
		slot := 0
		for i, p := range mac.Params {
			v := args[slot]
			slot++
			switch {
			case v.IsMissing() && mac.Defaults[i] != nil:
				v = m.expr(inner, mac.Defaults[i])
			case m.probe != nil:
				v = llamacpp.Param(v, p.Name)
			case mac.Defaults[i] == nil:
				v = jinja2.Param(v, p.Name)
			}
			*inner.slot(p) = v
		}
		for _, v := range []*ir.Var{mac.Caller, mac.Kwargs, mac.Varargs} {
			if v != nil {
				*inner.slot(v) = args[slot]
				slot++
			}
		}
		m.stmts(inner, mac.Body.Stmts)
	})
}

func (m *machine) cond(e *env, x ir.Expr) bool {
	switch x := x.(type) {
	case *ir.Unary:
		if x.Op == "not" {
			return !m.cond(e, x.X)
		}
	case *ir.Binary:
		switch x.Op {
		case "and":
			return m.cond(e, x.L) && m.cond(e, x.R)
		case "or":
			return m.cond(e, x.L) || m.cond(e, x.R)
		}
	case *ir.Compare:
		left := m.expr(e, x.X)
		if m.probe != nil {
			// llama.cpp's chain: (a < b) < c, each comparison on the bool before it
			ok := llamaComparisons[x.Ops[0]](left, m.expr(e, x.Ys[0]))
			for i, op := range x.Ops[1:] {
				ok = llamaComparisons[op](jinja2.Bool(ok), m.expr(e, x.Ys[i+1]))
			}
			return ok
		}
		for i, op := range x.Ops {
			right := m.expr(e, x.Ys[i])
			if !comparisons[op](left, right) {
				return false
			}
			left = right
		}
		return true
	case *ir.Test:
		args, kwargs := m.args(e, x.Args)
		v := m.expr(e, x.X)
		if m.probe != nil {
			return llamacpp.CallTest(x.Name, v, args, kwargs)
		}
		return jinja2.CallTest(x.Name, v, args, kwargs)
	}
	if m.probe != nil {
		return llamacpp.Truthy(m.expr(e, x))
	}
	return m.expr(e, x).Truthy()
}

// comparisons are Jinja2's comparison operators.
var comparisons = map[string]func(a, b jinja2.Value) bool{
	"==": jinja2.Eq, "!=": jinja2.Ne, "<": jinja2.Lt, "<=": jinja2.Le, ">": jinja2.Gt, ">=": jinja2.Ge,
	"in": jinja2.In, "notin": jinja2.NotIn,
}

var binaryOps = map[string]func(a, b jinja2.Value) jinja2.Value{
	"+": jinja2.Add, "-": jinja2.Sub, "*": jinja2.Mul, "/": jinja2.Div,
	"//": jinja2.FloorDiv, "%": jinja2.Mod, "**": jinja2.Pow,
}

func (m *machine) expr(e *env, x ir.Expr) jinja2.Value {
	if m.probe != nil {
		if v, ok := m.probeExpr(e, x); ok {
			return v
		}
	}
	switch x := x.(type) {
	case *ir.Const:
		return ir.ConstValue(x.Value)
	case *ir.Load:
		return e.load(x.Var)
	case *ir.Input:
		return m.w.Lookup(x.Name)
	case *ir.Global:
		if m.probe != nil && llamacpp.LacksGlobal(x.Name) {
			return m.w.Lookup(x.Name)
		}
		return jinja2.Globals(m.w, x.Name)
	case *ir.Undef:
		return jinja2.Undefined(x.Name)
	case *ir.Attr:
		if l, ok := x.X.(*ir.Load); ok {
			if loop, ok := e.loop(l.Var); ok {
				return loop.Value().Attr(x.Name)
			}
		}
		return m.expr(e, x.X).Attr(x.Name)
	case *ir.Item:
		return m.expr(e, x.X).Item(m.expr(e, x.Key))
	case *ir.Slice:
		part := func(p ir.Expr) jinja2.Value {
			if p == nil {
				return jinja2.None()
			}
			return m.expr(e, p)
		}
		return m.expr(e, x.X).Slice(part(x.Start), part(x.Stop), part(x.Step))
	case *ir.List:
		return jinja2.NewList(m.exprs(e, x.Items)...)
	case *ir.Tuple:
		return jinja2.NewTuple(m.exprs(e, x.Items)...)
	case *ir.Dict:
		kv := make([]jinja2.Value, 0, 2*len(x.Keys))
		for i := range x.Keys {
			kv = append(kv, m.expr(e, x.Keys[i]), m.expr(e, x.Values[i]))
		}
		return jinja2.DictOf(kv...)
	case *ir.Unary:
		switch x.Op {
		case "neg":
			return jinja2.Neg(m.expr(e, x.X))
		case "pos":
			return jinja2.Pos(m.expr(e, x.X))
		}
		return jinja2.Bool(!m.cond(e, x.X))
	case *ir.Binary:
		switch x.Op {
		case "and":
			if m.probe != nil {
				return llamacpp.And(m.expr(e, x.L), func() jinja2.Value { return m.expr(e, x.R) })
			}
			return jinja2.And(m.expr(e, x.L), func() jinja2.Value { return m.expr(e, x.R) })
		case "or":
			if m.probe != nil {
				return llamacpp.Or(m.expr(e, x.L), func() jinja2.Value { return m.expr(e, x.R) })
			}
			return jinja2.Or(m.expr(e, x.L), func() jinja2.Value { return m.expr(e, x.R) })
		}
		return binaryOps[x.Op](m.expr(e, x.L), m.expr(e, x.R))
	case *ir.Concat:
		return jinja2.Concat(m.exprs(e, x.Items)...)
	case *ir.Compare, *ir.Test:
		return jinja2.Bool(m.cond(e, x))
	case *ir.Invalid:
		return jinja2.Fail(llamacpp.EngineError, x.Msg, m.expr(e, x.X))
	case *ir.Unspelled:
		if m.probe != nil {
			return m.expr(e, x.X) // llama.cpp folds no constant
		}
		return jinja2.Fail(jinja2.NameError, x.Msg())
	case *ir.Cond:
		if m.cond(e, x.Test) {
			return m.expr(e, x.Then)
		}
		if x.Else == nil {
			return jinja2.NoElse(x.P.Line)
		}
		return m.expr(e, x.Else)
	case *ir.Call:
		args, kwargs := m.args(e, x.Args)
		return m.call(e, x.Fn, args, kwargs)
	case *ir.Filter:
		return m.filter(e, &ir.Filter{At: x.At, Name: x.Name, Args: x.Args}, m.expr(e, x.X))
	}
	panic(fmt.Sprintf("llamaprobe: unknown expression %T", x))
}

func (m *machine) exprs(e *env, xs []ir.Expr) []jinja2.Value {
	out := make([]jinja2.Value, len(xs))
	for i, x := range xs {
		out[i] = m.expr(e, x)
	}
	return out
}

func (m *machine) args(e *env, a ir.Args) ([]jinja2.Value, []jinja2.Kwarg) {
	var args []jinja2.Value
	for _, p := range a.Places() {
		if p.Kwarg != nil {
			// (a keyword argument before positional ones, which only llama.cpp reads)
			args = append(args, llamacpp.KwArgPlace())
		} else {
			args = append(args, m.expr(e, p.Arg))
		}
	}
	if a.DynArgs != nil {
		args = jinja2.Spread(args, m.expr(e, a.DynArgs))
	}
	var kwargs []jinja2.Kwarg
	for _, kw := range a.Kwargs {
		if kw.PositionalAfter > 0 {
			kwargs = append(kwargs, llamacpp.Placed(kw.Name, m.expr(e, kw.Value)))
			continue
		}
		kwargs = append(kwargs, jinja2.KW(kw.Name, m.expr(e, kw.Value)))
	}
	if a.DynKwargs != nil {
		kwargs = jinja2.SpreadKwargs(kwargs, m.expr(e, a.DynKwargs))
	}
	return args, kwargs
}

// call calls fn: a method when fn is an attribute, otherwise the value fn evaluates to.
func (m *machine) call(e *env, fn ir.Expr, args []jinja2.Value, kwargs []jinja2.Kwarg) jinja2.Value {
	if a, ok := fn.(*ir.Attr); ok {
		recv := m.expr(e, a.X)
		if l, ok := a.X.(*ir.Load); ok {
			if loop, ok := e.loop(l.Var); ok {
				recv = loop.Value()
			}
		}
		if m.probe != nil {
			return m.probeMethod(recv, a.Name, args, kwargs)
		}
		return jinja2.CallMethod(recv, a.Name, args, kwargs)
	}
	if g, ok := fn.(*ir.Global); ok && m.probe != nil {
		switch {
		case g.Name == "strftime_now":
			return llamacpp.StrftimeNow(m.w, args, kwargs)
		case g.Name == "namespace":
			return llamacpp.NewNamespace(m.w, args, kwargs)
		case g.Name == "range" && len(kwargs) == 0:
			return llamacpp.Range(m.w, args...)
		case llamacpp.LacksGlobal(g.Name):
			return llamacpp.CallMissingGlobal(m.w, g.Name, args, kwargs)
		}
	}
	callee := m.expr(e, fn)
	if m.probe != nil {
		m.probe.caller = e
	}
	return jinja2.Call(callee, args, kwargs)
}

func (m *machine) filter(e *env, f *ir.Filter, v jinja2.Value) jinja2.Value {
	args, kwargs := m.args(e, f.Args)
	if m.probe != nil {
		return m.probeFilter(f.Name, v, args, kwargs)
	}
	return jinja2.CallFilter(f.Name, v, args, kwargs)
}
