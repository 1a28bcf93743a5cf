package ir

import "slices"

// Resolving macro calls (what lets codegen call macros directly).
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
//
// A call the generator cannot resolve goes through the value of the name it calls
// (MacroCalls.ValueCalls). When the name's variable is assigned by a macro's definition
// only, the call can only call that macro (f(*xs), a call block, a macro reading caller,
// varargs or kwargs, one defined after the call in the template). In the llama.cpp
// render function such a call gives the macro the names it takes from the scope of the
// call, as a call of any other value gives whatever macro it calls (see llamascope.go).

// MacroCalls is what is known of a template's macro calls.
type MacroCalls struct {
	// Direct are the calls resolved to a macro, with their argument for each parameter
	// (nil where the call gives none).
	Direct map[*Call]DirectCall
	// Called are the macros with a resolved call; Valued, those whose variable is used
	// otherwise, which need a macro value.
	Called, Valued map[*Var]bool
	// Recursive are the macros that can reach themselves through resolved calls: a
	// resolved call to one counts toward the nesting limit.
	Recursive map[*Var]bool
	// SelfCalled are the macros with a resolved call inside their own body.
	SelfCalled map[*Var]bool
	// LlamaFree are, for each definition of a macro with resolved calls or a value, the
	// names llama.cpp's engine gives it from the scope it is called from where Jinja2
	// gives another value (see llamascope.go); by definition, since two macros defined
	// under one name take names of their own.
	LlamaFree map[*MacroDef][]string
	// LlamaDefault are the values of each macro's LlamaFree names where the macro is
	// defined: what a call through a macro value gives them.
	LlamaDefault map[*MacroDef][]Expr
	// ValueCalls are the calls through a value (not resolved, and not of a macro's
	// caller, a global function or an attribute): those of a known macro's variable,
	// and those of any other variable or expression that may hold a macro.
	ValueCalls map[*Call]ValueCall
	// LlamaScope are the names whose values a call through a value gives the macro it
	// calls in the llama.cpp render function, in order: the LlamaFree names of the
	// macros with a value (see llamascope.go).
	LlamaScope []string
}

// DirectCall is a resolved call: the macro and one argument per parameter (nil where
// the call gives none).
type DirectCall struct {
	Macro *MacroDef
	Args  []Expr
	// LlamaArgs are the arguments as llama.cpp's engine binds them, and LlamaLost the
	// keyword arguments it evaluates but binds to no parameter (see llamaBind); both nil
	// when LlamaBindsLate.
	LlamaArgs, LlamaLost []Expr
	// LlamaBindsLate says that llama.cpp's engine binds the call's arguments by their
	// values, which the call binds when it runs then (llamacpp.BindMacro): a keyword
	// argument names the parameter of a positional one, which it takes when the keyword
	// argument is undefined, or a positional argument may be a KwArg, which is a keyword
	// argument to the engine (MakesKwArgs).
	LlamaBindsLate bool
	// LlamaEnv is, for each of the macro's LlamaFree names, its value in the scope of
	// the call (see llamascope.go).
	LlamaEnv []Expr
}

// ValueCall is a call through a value.
type ValueCall struct {
	// Macro is the only macro the call can call: its variable is assigned by its
	// definition only. Nil when the value may be any.
	Macro *MacroDef
	// LlamaEnv is, for each name of LlamaScope, its value in the scope of the call (see
	// llamascope.go).
	LlamaEnv []Expr
}

// ResolveMacroCalls resolves the template's macro calls.
func ResolveMacroCalls(t *Template) *MacroCalls {
	mc := &MacroCalls{
		Direct:    map[*Call]DirectCall{},
		Called:    map[*Var]bool{},
		Valued:    map[*Var]bool{},
		Recursive: map[*Var]bool{},

		SelfCalled: map[*Var]bool{},
		LlamaFree:  map[*MacroDef][]string{},

		LlamaDefault: map[*MacroDef][]Expr{},
		ValueCalls:   map[*Call]ValueCall{},
	}
	r := &macroResolver{mc: mc, defined: map[*Var]*MacroDef{}, known: map[*Var]*MacroDef{}, callers: map[*Var]bool{}, edges: map[*Var][]*Var{}, callBlocks: map[*Call]bool{}, kwArgs: MakesKwArgs(t)}
	Inspect(t.Body.Stmts, func(n any) bool {
		switch n := n.(type) {
		case *MacroDef:
			if n.Var.Stores == 1 {
				r.known[n.Var] = n
			}
			if n.Macro.Caller != nil {
				r.callers[n.Macro.Caller] = true
			}
		case *Macro:
			if n.Caller != nil {
				r.callers[n.Caller] = true
			}
		}
		return true
	})
	r.stmts(t.Body.Stmts)
	for v := range mc.Called {
		if r.reaches(v, v, map[*Var]bool{}) {
			mc.Recursive[v] = true
		}
	}
	mc.resolveLlamaScopes(t)
	return mc
}

// macroResolver walks a template in order, knowing which macro definitions have run.
type macroResolver struct {
	mc      *MacroCalls
	defined map[*Var]*MacroDef // the definitions that have run at this point
	// known are the macros whose variables only their definitions assign; callers the
	// variables of the macros' callers (a call block's caller takes nothing from the
	// scope it is called from: it runs in the call block's)
	known   map[*Var]*MacroDef
	callers map[*Var]bool
	inside  *Var            // the macro whose body is being walked
	outer   []*Var          // the macros around it
	edges   map[*Var][]*Var // resolved calls from each macro's body
	// callBlocks are the calls of call blocks, never resolved: they pass a caller,
	// which a resolvable macro does not take (Jinja2 raises a TypeError when it runs)
	callBlocks map[*Call]bool
	// kwArgs: the template may make KwArgs (MakesKwArgs)
	kwArgs bool
}

// resolvable reports whether calls of a macro definition can be resolved.
func resolvable(d *MacroDef) bool {
	m := d.Macro
	return d.Var.Stores == 1 && m.Caller == nil && m.Varargs == nil && m.Kwargs == nil && !m.ExplicitCaller
}

func (r *macroResolver) stmts(ss []Stmt) {
	var added []*Var
	for _, s := range ss {
		if d, ok := s.(*MacroDef); ok && resolvable(d) {
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
func (r *macroResolver) stmt(s Stmt) {
	Inspect([]Stmt{s}, func(n any) bool {
		switch n := n.(type) {
		case *Block:
			r.stmts(n.Stmts)
			return false
		case *If:
			if n != s {
				r.stmt(n)
				return false
			}
			InspectExpr(n.Cond, r.expr)
			r.stmts(n.Then)
			r.stmts(n.Else)
			return false
		case *CallBlock:
			r.callBlocks[n.Call] = true
		case *MacroDef:
			if n != s {
				r.stmt(n)
				return false
			}
			r.outer = append(r.outer, n.Var)
			outer := r.inside
			r.inside = n.Var
			for _, d := range n.Macro.Defaults {
				if d != nil {
					InspectExpr(d, r.expr)
				}
			}
			r.stmts(n.Macro.Body.Stmts)
			r.inside = outer
			r.outer = r.outer[:len(r.outer)-1]
			return false
		case Expr:
			return r.expr(n)
		}
		return true
	})
}

// expr looks at an expression for macro calls and other uses of macro variables.
func (r *macroResolver) expr(n any) bool {
	switch x := n.(type) {
	case *Call:
		if args, d, ok := r.resolve(x); ok {
			dc := DirectCall{Macro: d, Args: args, LlamaBindsLate: r.kwArgs && len(x.Args.Args) > 0 || namesPositional(x, d.Macro)}
			if !dc.LlamaBindsLate {
				dc.LlamaArgs, dc.LlamaLost = llamaBind(x, d.Macro)
			}
			r.mc.Direct[x] = dc
			r.mc.Called[d.Var] = true
			if slices.Contains(r.outer, d.Var) {
				r.mc.SelfCalled[d.Var] = true
			}
			if r.inside != nil {
				r.edges[r.inside] = append(r.edges[r.inside], d.Var)
			}
			for _, a := range x.Args.Args {
				InspectExpr(a, r.expr)
			}
			for _, kw := range x.Kwargs {
				InspectExpr(kw.Value, r.expr)
			}
			return false
		}
		switch fn := x.Fn.(type) {
		case *Load:
			if !r.callers[fn.Var] {
				// (whenever the call runs, a known macro's variable holds the macro, or
				// the value it starts from, before the definition has run)
				r.mc.ValueCalls[x] = ValueCall{Macro: r.known[fn.Var]}
			}
		case *Global, *Attr:
			// a global function, a method (or a macro a dict or namespace holds, which
			// keeps the names of its definition: the call may be a method's)
		default:
			r.mc.ValueCalls[x] = ValueCall{} // fs[0](), (f or g)()...
		}
	case *Load:
		r.mc.Valued[x.Var] = true
	case *Macro:
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
func (r *macroResolver) resolve(c *Call) ([]Expr, *MacroDef, bool) {
	l, ok := c.Fn.(*Load)
	if !ok || c.DynArgs != nil || c.DynKwargs != nil || r.callBlocks[c] || c.Interleaved() {
		// (a keyword argument before a positional one, which only llama.cpp reads, is
		// bound when the call runs: llamacpp.BindMacro)
		return nil, nil, false
	}
	d, ok := r.defined[l.Var]
	if !ok || len(c.Args.Args) > len(d.Macro.Params) {
		return nil, nil, false
	}
	args := make([]Expr, len(d.Macro.Params))
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

// llamaBind binds the arguments of a call as llama.cpp's engine does: of the as many
// parameters as the call has arguments (positional and keyword), each takes the keyword
// argument of its name, else the positional argument at its place, else is undefined;
// the others (nil) take their defaults. A keyword argument that skips a parameter is
// lost (and the skipped parameter undefined): lost returns those.
func llamaBind(c *Call, m *Macro) (args, lost []Expr) {
	args = make([]Expr, len(m.Params))
	given := len(c.Args.Args) + len(c.Kwargs)
	for i, p := range m.Params[:min(given, len(m.Params))] {
		switch kw := kwargOf(c, p.Name); {
		case kw != nil:
			args[i] = kw
		case i < len(c.Args.Args):
			args[i] = c.Args.Args[i]
		default:
			args[i] = &Undef{At: c.At, Name: p.Name}
		}
	}
	for _, kw := range c.Kwargs {
		if i := paramIndex(m, kw.Name); i < 0 || i >= given {
			lost = append(lost, kw.Value)
		}
	}
	return args, lost
}

// namesPositional reports whether a keyword argument of the call names a parameter of
// the macro that a positional argument is at.
func namesPositional(c *Call, m *Macro) bool {
	for _, kw := range c.Kwargs {
		if i := paramIndex(m, kw.Name); i >= 0 && i < len(c.Args.Args) {
			return true
		}
	}
	return false
}

// MakesKwArgs reports whether llama.cpp's engine may make a KwArg running the template:
// the value of a keyword argument where a builtin takes it for a positional one, which
// only default does (default(boolean=true) gives it when it gives its default).
func MakesKwArgs(t *Template) bool {
	makes := false
	Inspect(t.Body.Stmts, func(n any) bool {
		if f, ok := n.(*Filter); ok && (f.Name == "default" || f.Name == "d") && len(f.Kwargs) > 0 && (len(f.Args.Args) == 0 || f.Interleaved()) {
			makes = true
		}
		return !makes
	})
	return makes
}

// kwargValues returns the values of keyword arguments, in order.
func kwargValues(kws []Kwarg) []Expr {
	vs := make([]Expr, len(kws))
	for i, kw := range kws {
		vs[i] = kw.Value
	}
	return vs
}

// kwargOf returns the value of the call's keyword argument name, or nil.
func kwargOf(c *Call, name string) Expr {
	for _, kw := range c.Kwargs {
		if kw.Name == name {
			return kw.Value
		}
	}
	return nil
}

// paramIndex returns the position of a macro's parameter, or -1.
func paramIndex(m *Macro, name string) int {
	for i, p := range m.Params {
		if p.Name == name {
			return i
		}
	}
	return -1
}

// reaches reports whether macro to can be reached from macro from through resolved calls.
func (r *macroResolver) reaches(from, to *Var, seen map[*Var]bool) bool {
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
