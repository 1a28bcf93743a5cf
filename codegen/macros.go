package codegen

import (
	"slices"

	"github.com/dave/jennifer/jen"

	"github.com/tmplgen/tmplgen/ir"
)

// Calling macros directly.
//
// Every macro is compiled to a Go function with one parameter per macro parameter. A call
// the generator can resolve, f(x, y=z) where f can only be that macro, calls the
// function: {{ f(x) }} writes straight into the output, and a call whose value is used
// captures what the function writes. Only what needs the macro as a value (a call the
// generator cannot resolve, f passed as an argument, f.name...) gets a runtime macro
// value wrapping the function.
//
// A call can be resolved when the macro's variable is assigned by its definition only,
// the definition precedes the call in the same block or an enclosing one (so that it has
// run whenever the call runs), the macro does not read caller, varargs or kwargs, and the
// arguments bind to its parameters by position and name. The macro's parameters are
// then bound when the template is compiled.

// macroCalls is what the generator knows of a template's macros.
type macroCalls struct {
	// direct are the calls resolved to a macro, with their argument for each parameter
	// (nil where the call gives none).
	direct map[*ir.Call]directCall
	// called are the macros with a resolved call; valued, those whose variable is used
	// otherwise, which need a runtime macro value.
	called, valued map[*ir.Var]bool
	// recursive are the macros that can reach themselves through resolved calls: a
	// resolved call to one counts toward the nesting limit.
	recursive map[*ir.Var]bool
	// selfCalled are the macros with a resolved call inside their own body, whose
	// function is declared before it is defined.
	selfCalled map[*ir.Var]bool
}

// directCall is a resolved call: the macro and one argument per parameter.
type directCall struct {
	macro *ir.MacroDef
	args  []ir.Expr
}

// findMacroCalls resolves the template's macro calls.
func findMacroCalls(t *ir.Template) *macroCalls {
	mc := &macroCalls{
		direct:    map[*ir.Call]directCall{},
		called:    map[*ir.Var]bool{},
		valued:    map[*ir.Var]bool{},
		recursive: map[*ir.Var]bool{},

		selfCalled: map[*ir.Var]bool{},
	}
	r := &macroResolver{mc: mc, defined: map[*ir.Var]*ir.MacroDef{}, edges: map[*ir.Var][]*ir.Var{}, callBlocks: map[*ir.Call]bool{}}
	r.stmts(t.Body.Stmts)
	for v := range mc.called {
		if r.reaches(v, v, map[*ir.Var]bool{}) {
			mc.recursive[v] = true
		}
	}
	return mc
}

// macroResolver walks a template in order, knowing which macro definitions have run.
type macroResolver struct {
	mc      *macroCalls
	defined map[*ir.Var]*ir.MacroDef // the definitions that have run at this point
	inside  *ir.Var                  // the macro whose body is being walked
	outer   []*ir.Var                // the macros around it
	edges   map[*ir.Var][]*ir.Var    // resolved calls from each macro's body
	// callBlocks are the calls of call blocks, never resolved: they pass a caller,
	// which a resolvable macro does not take (Jinja2 raises a TypeError when it runs)
	callBlocks map[*ir.Call]bool
}

// resolvable reports whether calls of a macro definition can be resolved.
func resolvable(d *ir.MacroDef) bool {
	m := d.Macro
	return d.Var.Stores == 1 && m.Caller == nil && m.Varargs == nil && m.Kwargs == nil && !m.ExplicitCaller
}

func (r *macroResolver) stmts(ss []ir.Stmt) {
	var added []*ir.Var
	for _, s := range ss {
		if d, ok := s.(*ir.MacroDef); ok && resolvable(d) {
			// defined before its body is walked: the body runs after the definition
			r.defined[d.Var] = d
			added = append(added, d.Var)
		}
		r.stmt(s)
	}
	for _, v := range added {
		delete(r.defined, v)
	}
}

// stmt walks a statement: its expressions, and its blocks and macro bodies in order.
func (r *macroResolver) stmt(s ir.Stmt) {
	ir.Inspect([]ir.Stmt{s}, func(n any) bool {
		switch n := n.(type) {
		case *ir.Block:
			r.stmts(n.Stmts)
			return false
		case *ir.If:
			if n != s {
				r.stmt(n)
				return false
			}
			ir.InspectExpr(n.Cond, r.expr)
			r.stmts(n.Then)
			r.stmts(n.Else)
			return false
		case *ir.CallBlock:
			r.callBlocks[n.Call] = true
		case *ir.MacroDef:
			if n != s {
				r.stmt(n)
				return false
			}
			r.outer = append(r.outer, n.Var)
			outer := r.inside
			r.inside = n.Var
			for _, d := range n.Macro.Defaults {
				if d != nil {
					ir.InspectExpr(d, r.expr)
				}
			}
			r.stmts(n.Macro.Body.Stmts)
			r.inside = outer
			r.outer = r.outer[:len(r.outer)-1]
			return false
		case ir.Expr:
			return r.expr(n)
		}
		return true
	})
}

// expr looks at an expression for macro calls and other uses of macro variables.
func (r *macroResolver) expr(n any) bool {
	switch x := n.(type) {
	case *ir.Call:
		if args, d, ok := r.resolve(x); ok {
			r.mc.direct[x] = directCall{macro: d, args: args}
			r.mc.called[d.Var] = true
			if slices.Contains(r.outer, d.Var) {
				r.mc.selfCalled[d.Var] = true
			}
			if r.inside != nil {
				r.edges[r.inside] = append(r.edges[r.inside], d.Var)
			}
			for _, a := range x.Args.Args {
				ir.InspectExpr(a, r.expr)
			}
			for _, kw := range x.Kwargs {
				ir.InspectExpr(kw.Value, r.expr)
			}
			return false
		}
	case *ir.Load:
		r.mc.valued[x.Var] = true
	case *ir.Macro:
		// the caller of a call block
		outer := r.inside
		r.inside = nil
		r.stmts(x.Body.Stmts)
		r.inside = outer
		return false
	}
	return true
}

// resolve binds the arguments of a call to the parameters of the macro it calls, if it
// can be resolved.
func (r *macroResolver) resolve(c *ir.Call) ([]ir.Expr, *ir.MacroDef, bool) {
	l, ok := c.Fn.(*ir.Load)
	if !ok || c.DynArgs != nil || c.DynKwargs != nil || r.callBlocks[c] {
		return nil, nil, false
	}
	d, ok := r.defined[l.Var]
	if !ok || len(c.Args.Args) > len(d.Macro.Params) {
		return nil, nil, false
	}
	args := make([]ir.Expr, len(d.Macro.Params))
	copy(args, c.Args.Args)
	for _, kw := range c.Kwargs {
		i := paramIndex(d.Macro, kw.Name)
		if i < 0 || args[i] != nil {
			return nil, nil, false
		}
		args[i] = kw.Value
	}
	return args, d, true
}

// paramIndex returns the position of a macro's parameter, or -1.
func paramIndex(m *ir.Macro, name string) int {
	for i, p := range m.Params {
		if p.Name == name {
			return i
		}
	}
	return -1
}

// reaches reports whether macro to can be reached from macro from through resolved calls.
func (r *macroResolver) reaches(from, to *ir.Var, seen map[*ir.Var]bool) bool {
	for _, next := range r.edges[from] {
		if next == to {
			return true
		}
		if !seen[next] {
			seen[next] = true
			if r.reaches(next, to, seen) {
				return true
			}
		}
	}
	return false
}

// macroCall compiles a resolved call as a value: what the macro writes, captured.
func (g *gen) macroCall(c directCall) *jen.Statement {
	return jen.Id("w").Dot("Capture").Call(jen.Func().Params().Block(g.callMacroFunc(c)))
}

// callMacroFunc is the Go call of a macro's function for a resolved call.
func (g *gen) callMacroFunc(c directCall) *jen.Statement {
	args := make([]jen.Code, len(c.args))
	for i, a := range c.args {
		if a == nil {
			args[i] = rt("Missing").Call()
		} else {
			args[i] = g.value(a)
		}
	}
	return jen.Id(g.macroFuncs[c.macro.Var]).Call(args...)
}
