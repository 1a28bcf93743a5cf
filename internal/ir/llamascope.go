package ir

// Macro scope under llama.cpp's semantics.
//
// Jinja2 resolves a name a macro does not define where the macro is defined; llama.cpp's
// engine (common/jinja/runtime.cpp, macro_statement) runs a macro in a copy of the
// variables of the scope it is called from, so the same name means the caller's loop
// target, the caller's {% set %}, the calling macro's parameter. {% macro name() %}{{
// tool.name }}{% endmacro %} called in {% for tool in tools %} prints each tool's name
// with llama.cpp and fails with Jinja2.
//
// For the llama.cpp render function the generator passes those names to a macro's
// function: resolveLlamaScopes finds, for each macro with resolved calls, the names it
// reads from outside itself whose value at some call differs from the one its definition
// sees (its free names, MacroCalls.LlamaFree), and for each resolved call the value of
// each in the scope of the call (DirectCall.LlamaEnv). A name a macro only passes on to a
// macro it calls is free in it too. A call through a value (MacroCalls.ValueCalls) is a
// call site as well, of the one macro it can call when that is known, else of every
// macro with a value; it gives the values of the names of MacroCalls.LlamaScope, the free
// names of all the macros with a value (ValueCall.LlamaEnv, llamacpp.CallIn), and the
// macro value takes those it reads after its arguments (llamacpp.ScopeValue).

// CallerVar is, in a macro's body, the value of a free name of the macro (see
// MacroCalls.LlamaFree): the variable of that name in the scope the macro was called
// from. It occurs only in DirectCall.LlamaEnv.
type CallerVar struct {
	At
	Name string
}

// llamaScopes is the analysis of resolveLlamaScopes.
type llamaScopes struct {
	mc *MacroCalls
	// owner is the macro whose body each scope belongs to (nil: the template's)
	owner map[*Scope]*MacroDef
	// varScope is the scope of each variable
	varScope map[*Var]*Scope
	// lexical are, for each macro, the names it reads from outside, each with the value
	// its definition gives it
	lexical map[*MacroDef]map[string]Expr
	order   map[*MacroDef][]string
	sites   []callSite
	// unknown are the calls through values that may call any macro with a value
	unknown []callSite
	dynamic map[*MacroDef]map[string]bool
	// added says that a free name was recorded since the flag was cleared
	added bool
	// dead are the variables whose initial value no code sees (DeadInits), and macros
	// the variables of the macros with resolved calls or a value
	dead   map[*Var]bool
	macros map[*Var]bool
	// valued are the macros with a value, in the order of the template
	valued []*MacroDef
}

// callSite is a resolved call, or a call through a value, and the scope it is made in.
type callSite struct {
	call  *Call
	scope *Scope
}

// resolveLlamaScopes fills mc.LlamaFree and the LlamaEnv of mc.Direct.
func (mc *MacroCalls) resolveLlamaScopes(t *Template) {
	a := &llamaScopes{
		mc:       mc,
		owner:    map[*Scope]*MacroDef{},
		varScope: map[*Var]*Scope{},
		lexical:  map[*MacroDef]map[string]Expr{},
		order:    map[*MacroDef][]string{},
		dynamic:  map[*MacroDef]map[string]bool{},
		dead:     DeadInits(t),
		macros:   map[*Var]bool{},
	}
	// the macros whose bodies take names from their callers, known before the walk: a
	// macro that reads one defined after it reads no free name there
	Inspect(t.Body.Stmts, func(n any) bool {
		if d, ok := n.(*MacroDef); ok {
			if mc.Valued[d.Var] {
				a.valued = append(a.valued, d)
			}
			if resolvable(d) && mc.Called[d.Var] || mc.Valued[d.Var] {
				a.macros[d.Var] = true
			}
		}
		return true
	})
	a.enter(t.Body.Scope, nil)
	a.walk(t.Body.Stmts, t.Body.Scope)
	if len(a.unknown)*len(a.valued) <= maxUnknownScope {
		a.sites = append(a.sites, a.unknown...)
	}
	// a name is free in a macro when some call gives it a value other than the
	// definition's; a call inside another macro that does not define the name passes that
	// macro's own, so freeness spreads to callers until nothing changes
	for changed := true; changed; {
		changed = false
		a.added = false
		for _, s := range a.sites {
			for _, callee := range a.callees(s.call) {
				for _, name := range a.order[callee] {
					// valueAt also records a name the caller passes on as free in it
					v := a.valueAt(s.scope, name)
					if !a.dynamic[callee][name] && !a.sameValue(v, a.lexical[callee][name]) {
						a.dynamic[callee][name] = true
						changed = true
					}
				}
			}
		}
		changed = changed || a.added
	}
	for d, names := range a.order {
		for _, name := range names {
			if a.dynamic[d][name] {
				mc.LlamaFree[d] = append(mc.LlamaFree[d], name)
				mc.LlamaDefault[d] = append(mc.LlamaDefault[d], a.lexical[d][name])
			}
		}
	}
	seen := map[string]bool{}
	for _, d := range a.valued {
		for _, name := range mc.LlamaFree[d] {
			if !seen[name] {
				seen[name] = true
				mc.LlamaScope = append(mc.LlamaScope, name)
			}
		}
	}
	for _, s := range a.sites {
		if c, ok := mc.Direct[s.call]; ok {
			for _, name := range mc.LlamaFree[c.Macro] {
				c.LlamaEnv = append(c.LlamaEnv, a.valueAt(s.scope, name))
			}
			mc.Direct[s.call] = c
			continue
		}
		c := mc.ValueCalls[s.call]
		for _, name := range mc.LlamaScope {
			c.LlamaEnv = append(c.LlamaEnv, a.valueAt(s.scope, name))
		}
		mc.ValueCalls[s.call] = c
	}
}

// maxUnknownScope bounds the calls through values that may call any macro with a value
// (their count times the number of such macros) that the analysis takes for call sites:
// each may give every such macro its names, which a hostile template (a thousand macros
// each calling through a value) makes cubic. Beyond it such calls give no names: the
// macro reads those of its definition, where llama.cpp reads its caller's. Real
// templates have a few.
const maxUnknownScope = 1000

// callees returns the macros a call site may call.
func (a *llamaScopes) callees(c *Call) []*MacroDef {
	if d, ok := a.mc.Direct[c]; ok {
		return []*MacroDef{d.Macro}
	}
	if d := a.mc.ValueCalls[c].Macro; d != nil {
		return []*MacroDef{d}
	}
	return a.valued
}

// LlamaShadowed returns the variables around a macro's definition that its LlamaFree
// names stand for in its body: in llama.cpp's semantics the body reads the caller's
// value of the name, never them.
func (mc *MacroCalls) LlamaShadowed(d *MacroDef) map[*Var]bool {
	var vars map[*Var]bool
	for _, name := range mc.LlamaFree[d] {
		for s := d.Macro.Body.Scope.Parent; s != nil; s = s.Parent {
			if v := s.Lookup(name); v != nil {
				if vars == nil {
					vars = map[*Var]bool{}
				}
				vars[v] = true
			}
		}
	}
	return vars
}

// enter records a scope, its variables and the macro it belongs to.
func (a *llamaScopes) enter(s *Scope, owner *MacroDef) {
	a.owner[s] = owner
	for _, v := range s.Vars {
		a.varScope[v] = s
	}
}

// walk visits statements run in scope s.
func (a *llamaScopes) walk(stmts []Stmt, s *Scope) {
	Inspect(stmts, func(n any) bool {
		switch n := n.(type) {
		case *Block:
			a.enter(n.Scope, a.owner[s])
			a.walk(n.Stmts, n.Scope)
			return false
		case *For:
			a.exprIn(n.Iter, s)
			if n.Filter != nil {
				a.enter(n.FilterScope, a.owner[s])
				a.exprIn(n.Filter, n.FilterScope)
			}
			a.enter(n.Body.Scope, a.owner[s])
			a.walk(n.Body.Stmts, n.Body.Scope)
			if n.Else != nil {
				a.enter(n.Else.Scope, a.owner[s])
				a.walk(n.Else.Stmts, n.Else.Scope)
			}
			return false
		case *MacroDef:
			body := n.Macro.Body.Scope
			// a default is evaluated in the scope of the call (bind_parameters: args.ctx):
			// what it reads from outside is the macro's, as its body's is
			defaults := body
			if a.macros[n.Var] {
				a.lexical[n] = map[string]Expr{}
				a.dynamic[n] = map[string]bool{}
				a.enter(body, n)
			} else {
				a.enter(body, a.owner[s])
				defaults = s
			}
			for _, x := range n.Macro.Defaults {
				if x != nil {
					a.exprIn(x, defaults)
				}
			}
			a.walk(n.Macro.Body.Stmts, body)
			return false
		case *Macro:
			// the caller of a call block runs in a copy of the call's scope
			for _, x := range n.Defaults {
				a.exprIn(x, s)
			}
			a.enter(n.Body.Scope, a.owner[s])
			a.walk(n.Body.Stmts, n.Body.Scope)
			return false
		}
		a.node(n, s)
		return true
	})
	a.inits(s)
}

// inits records the free names of the initial values of a scope's variables.
func (a *llamaScopes) inits(s *Scope) {
	d := a.owner[s]
	if d == nil {
		return
	}
	for _, v := range s.Vars {
		if a.dead[v] {
			continue
		}
		switch x := v.Init.(type) {
		case *Input, *Undef:
			a.free(d, v.Name, x)
		case *Load:
			if a.owner[a.varScope[x.Var]] != d {
				a.free(d, x.Var.Name, x)
			}
		}
	}
}

// exprIn visits an expression evaluated in scope s.
func (a *llamaScopes) exprIn(x Expr, s *Scope) {
	if x != nil {
		InspectExpr(x, func(n any) bool {
			a.node(n, s)
			return true
		})
	}
}

// node records a resolved call made in scope s, or a name read there from outside the
// macro s belongs to.
func (a *llamaScopes) node(n any, s *Scope) {
	d := a.owner[s]
	switch n := n.(type) {
	case *Call:
		if _, direct := a.mc.Direct[n]; direct {
			a.sites = append(a.sites, callSite{n, s})
		} else if c, valued := a.mc.ValueCalls[n]; valued {
			if c.Macro == nil {
				a.unknown = append(a.unknown, callSite{n, s})
			} else {
				a.sites = append(a.sites, callSite{n, s})
			}
		}
	case *Load:
		if d != nil && a.owner[a.varScope[n.Var]] != d && !a.macros[n.Var] {
			a.free(d, n.Var.Name, n)
		}
	case *Input:
		if d != nil {
			a.free(d, n.Name, n)
		}
	}
}

// free records a name macro d reads from outside, with the value its definition gives.
func (a *llamaScopes) free(d *MacroDef, name string, lexical Expr) {
	if _, ok := a.lexical[d][name]; ok {
		return
	}
	a.lexical[d][name] = lexical
	a.order[d] = append(a.order[d], name)
	a.added = true
}

// valueAt is the value llama.cpp gives a name in scope s: the variable of the name in s
// or an enclosing scope of the same macro (one never assigned stands for the value it
// starts from); else, in a macro, what the macro's caller gives it (a free name of the
// macro) or its definition does; else the render's context.
func (a *llamaScopes) valueAt(s *Scope, name string) Expr {
	d := a.owner[s]
	for sc := s; sc != nil && a.owner[sc] == d; sc = sc.Parent {
		if v := sc.Lookup(name); v != nil && (v.Init == nil || v.Stores > 0) {
			return &Load{Var: v}
		}
	}
	if d == nil {
		return resolveName(Pos{}, name)
	}
	if _, ok := a.lexical[d][name]; !ok {
		// the name is free in d as it is free in the macro d calls
		a.free(d, name, a.definitionValue(d, name))
	}
	if a.dynamic[d][name] {
		return &CallerVar{Name: name}
	}
	return a.lexical[d][name]
}

// definitionValue is the value of a name where macro d is defined.
func (a *llamaScopes) definitionValue(d *MacroDef, name string) Expr {
	return a.valueAt(d.Macro.Body.Scope.Parent, name)
}

// Lookup returns the scope's variable of a name, or nil.
func (s *Scope) Lookup(name string) *Var {
	for _, v := range s.Vars {
		if v.Name == name {
			return v
		}
	}
	return nil
}

// sameValue reports whether two values of a name are the same.
func (a *llamaScopes) sameValue(x, y Expr) bool {
	x, y = a.settled(x), a.settled(y)
	switch x := x.(type) {
	case *Load:
		l, ok := y.(*Load)
		return ok && l.Var == x.Var
	case *Input:
		i, ok := y.(*Input)
		return ok && i.Name == x.Name
	case *Global:
		g, ok := y.(*Global)
		return ok && g.Name == x.Name
	case *Undef:
		u, ok := y.(*Undef)
		return ok && u.Name == x.Name
	case *CallerVar:
		c, ok := y.(*CallerVar)
		return ok && c.Name == x.Name
	}
	return false
}

// settled is the value a read of a variable outside any macro that is never assigned
// always gives: what it starts from.
func (a *llamaScopes) settled(x Expr) Expr {
	if l, ok := x.(*Load); ok {
		v := l.Var
		if v.Init != nil && v.Stores == 0 && !a.dead[v] && a.owner[a.varScope[v]] == nil {
			return a.settled(v.Init)
		}
	}
	return x
}
