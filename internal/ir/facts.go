package ir

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Facts the code generator starts from, computed from the IR alone (see also DeadInits
// and ResolveMacroCalls); tmplgen ir prints them (FormatFacts).

// markupFilters are the filters that make Markup values: every Markup in a render comes
// from one of them.
var markupFilters = map[string]bool{"safe": true, "escape": true, "e": true, "forceescape": true}

// MakesMarkup reports whether the template uses a filter that makes Markup.
func MakesMarkup(t *Template) bool {
	found := false
	Inspect(t.Body.Stmts, func(n any) bool {
		if f, ok := n.(*Filter); ok && markupFilters[f.Name] {
			found = true
		}
		return !found
	})
	return found
}

// NamespaceAttrs returns the attribute assignments ({% set name.attr = ... %}) that,
// wherever llama.cpp's engine looks the name up (its macros read their caller's
// scope), set an attribute of a namespace the template made, never an item of a dict
// of the render's input: nothing binds the name but {% set name = namespace(...) %}
// (no loop, macro parameter, with block or other assignment), and one of those runs
// before the assignment: a statement before it in its statement list or an enclosing
// one, within its macro or at the top level; for an assignment in a macro, else the
// first top-level one, when it and the top-level statements before it set none of its
// attributes and call nothing but globals (so that no macro runs before it).
func NamespaceAttrs(t *Template) map[*AttrTarget]bool {
	isMade := func(s Stmt) (string, bool) {
		a, ok := s.(*Assign)
		if !ok {
			return "", false
		}
		target, ok := a.Target.(*VarTarget)
		call, isCall := a.Value.(*Call)
		if !ok || !isCall {
			return "", false
		}
		g, ok := call.Fn.(*Global)
		return target.Var.Name, ok && g.Name == "namespace"
	}
	// names bound by anything else
	bound := map[string]bool{}
	bind := func(v *Var) {
		if v != nil {
			bound[v.Name] = true
		}
	}
	made := map[*VarTarget]bool{}
	Inspect(t.Body.Stmts, func(n any) bool {
		switch n := n.(type) {
		case *Assign:
			if _, ok := isMade(n); ok {
				made[n.Target.(*VarTarget)] = true
			}
		case *VarTarget:
			if !made[n] {
				bind(n.Var)
			}
		case *Macro:
			for _, p := range n.Params {
				bind(p)
			}
			bind(n.Caller)
			bind(n.Varargs)
			bind(n.Kwargs)
		case *MacroDef:
			bind(n.Var)
		case *For:
			bind(n.Loop)
		}
		return true
	})
	// the names a macro finds made in its caller's scope: made by a top-level statement
	// before which nothing sets their attributes or runs a macro
	beforeMacros := map[string]bool{}
	for i, s := range t.Body.Stmts {
		name, ok := isMade(s)
		if _, seen := beforeMacros[name]; !ok || seen {
			continue
		}
		clean := true
		Inspect(t.Body.Stmts[:i+1], func(n any) bool { // namespace()'s arguments too
			switch n := n.(type) {
			case *MacroDef:
				return false // its body runs when it is called
			case *AttrTarget:
				clean = clean && n.NS.Name != name
			case *CallBlock:
				clean = false
			case *Call:
				_, global := n.Fn.(*Global)
				clean = clean && global
			}
			return clean
		})
		beforeMacros[name] = clean
	}
	attrs := map[*AttrTarget]bool{}
	// walk follows the statements ss of a macro's body (inMacro) or of the top level,
	// where the names in outer are made
	var walk func(ss []Stmt, outer map[string]bool, inMacro bool)
	walk = func(ss []Stmt, outer map[string]bool, inMacro bool) {
		have := maps.Clone(outer) // the names made before, here or around
		var set func(tg Target)
		set = func(tg Target) {
			switch tg := tg.(type) {
			case *AttrTarget:
				name := tg.NS.Name
				attrs[tg] = !bound[name] && (have[name] || inMacro && beforeMacros[name])
			case *TupleTarget:
				for _, it := range tg.Items {
					set(it)
				}
			}
		}
		in := func(bodies ...*Block) {
			for _, b := range bodies {
				if b != nil {
					walk(b.Stmts, have, inMacro)
				}
			}
		}
		for _, s := range ss {
			switch s := s.(type) {
			case *Assign:
				set(s.Target)
			case *Capture:
				in(s.Body)
				set(s.Target)
			case *If:
				walk(s.Then, have, inMacro)
				walk(s.Else, have, inMacro)
			case *For:
				in(s.Body, s.Else)
			case *With:
				in(s.Body)
			case *FilterBlock:
				in(s.Body)
			case *MacroDef:
				walk(s.Macro.Body.Stmts, map[string]bool{}, true)
			case *CallBlock:
				walk(s.Caller.Body.Stmts, map[string]bool{}, true)
			}
			if name, ok := isMade(s); ok {
				have[name] = true
			}
		}
	}
	walk(t.Body.Stmts, map[string]bool{}, false)
	return attrs
}

// NeededVars returns the variables generated code must declare: those read by code
// that is generated (a macro that is never called is not), and those whose value
// initializes a needed variable (unless no code sees that initial value: dead). It
// leaves in macros.Called only the macros with a resolved call in generated code (a
// call in the body of a macro that is never called makes no Go call). With llama, the
// code is the llama.cpp render function's: a resolved call reads its arguments as
// llama.cpp binds them and the values it gives the macro's free names (LlamaEnv), as
// does a call through a value, and a macro value those of its definition
// (LlamaDefault).
func NeededVars(t *Template, macros *MacroCalls, dead map[*Var]bool, llama bool) map[*Var]bool {
	needed := map[*Var]bool{}
	called := map[*Var]bool{}
	for changed := true; changed; {
		changed = false
		// in the llama.cpp function, the variables around a macro that stand for its
		// free names are not read in its body (see LlamaShadowed)
		var shadowed map[*Var]bool
		mark := func(v *Var) {
			if shadowed[v] {
				return
			}
			if !needed[v] {
				needed[v] = true
				changed = true
			}
		}
		// markInits marks the variables a scope's needed variables start from
		markInits := func(s *Scope) {
			for _, v := range s.Vars {
				if l, ok := v.Init.(*Load); ok && needed[v] && !dead[v] {
					mark(l.Var)
				}
			}
		}
		var visit func(n any) bool
		visit = func(n any) bool {
			switch n := n.(type) {
			case *MacroDef:
				if llama && needed[n.Var] {
					for _, x := range macros.LlamaDefault[n] {
						InspectExpr(x, visit)
					}
				}
				if !needed[n.Var] && !called[n.Var] {
					return false
				}
				if sh := macros.LlamaShadowed(n); llama && len(sh) > 0 {
					outer := shadowed
					shadowed = maps.Clone(outer)
					if shadowed == nil {
						shadowed = map[*Var]bool{}
					}
					maps.Copy(shadowed, sh)
					Inspect([]Stmt{n}, func(m any) bool { return m == n || visit(m) })
					shadowed = outer
					return false
				}
				return true
			case *Call:
				if c, ok := macros.Direct[n]; ok {
					if !called[c.Macro.Var] {
						called[c.Macro.Var] = true
						changed = true
					}
					// a resolved call reads its arguments, not the macro's variable
					args := c.Args
					if llama {
						args = slices.Concat(c.LlamaArgs, c.LlamaLost, c.LlamaEnv)
					}
					for _, a := range args {
						if a != nil {
							InspectExpr(a, visit)
						}
					}
					return false
				}
				if k, ok := macros.ValueCalls[n]; ok && llama {
					// the values the llama.cpp function gives the free names of the macro
					// it calls
					for _, x := range k.LlamaEnv {
						InspectExpr(x, visit)
					}
				}
			case *For:
				if n.FilterScope != nil {
					markInits(n.FilterScope)
				}
			case *Block:
				markInits(n.Scope)
				return true
			case *Assign:
				vt, isVar := n.Target.(*VarTarget)
				if !isVar {
					break
				}
				// {% set x = x %} compiles to nothing, and {% set x = x if c else y %}
				// to if not c: x = y (also nested in the branches of an inline if): they
				// read x no more than the Go assignments do
				var assigned func(x Expr)
				assigned = func(x Expr) {
					switch x := x.(type) {
					case *Load:
						if x.Var == vt.Var {
							return
						}
					case *Cond:
						if x.Else != nil {
							InspectExpr(x.Test, visit)
							assigned(x.Then)
							assigned(x.Else)
							return
						}
					}
					InspectExpr(x, visit)
				}
				assigned(n.Value)
				return false
			case *Load:
				mark(n.Var)
			case *AttrTarget:
				mark(n.NS)
			}
			return true
		}
		Inspect(t.Body.Stmts, visit)
		markInits(t.Body.Scope)
	}
	macros.Called = called
	return needed
}

// FormatFacts prints the facts of t the code generator starts from: the variables whose
// initial value no code sees (DeadInits), those no generated code reads, the macros
// called directly (ResolveMacroCalls) and those that need a macro value, and whether the
// template can make Markup.
func FormatFacts(t *Template) string {
	dead := DeadInits(t)
	calls := ResolveMacroCalls(t)
	needed := NeededVars(t, calls, dead, false)
	macros := map[*Var]bool{}
	var defs []*MacroDef
	Inspect(t.Body.Stmts, func(n any) bool {
		if d, ok := n.(*MacroDef); ok {
			macros[d.Var] = true
			defs = append(defs, d)
		}
		return true
	})
	var deadVars, unneeded, direct, valued, fromCaller []string
	for _, v := range t.Vars {
		if dead[v] {
			deadVars = append(deadVars, varName(v))
		}
		if !needed[v] {
			unneeded = append(unneeded, varName(v))
		}
		if calls.Called[v] {
			name := varName(v)
			if calls.Recursive[v] {
				name += " (recursive)"
			}
			direct = append(direct, name)
		}
		if calls.Valued[v] && macros[v] {
			valued = append(valued, varName(v))
		}
	}
	for _, d := range defs {
		if names := calls.LlamaFree[d]; len(names) > 0 {
			name := varName(d.Var)
			if d.Var.Stores > 1 {
				name += fmt.Sprintf(" at %d:%d", d.P.Line, d.P.Col) // one of its definitions
			}
			fromCaller = append(fromCaller, name+"("+strings.Join(names, ", ")+")")
		}
	}
	list := func(names []string) string {
		if len(names) == 0 {
			return "none"
		}
		return strings.Join(names, ", ")
	}
	markup := "no"
	if MakesMarkup(t) {
		markup = "yes"
	}
	return fmt.Sprintf("facts\n  initial values no code sees: %s\n  variables no generated code reads: %s\n  macros called directly: %s\n  macros used as values: %s\n  makes Markup: %s\n  names macros take from their caller with llama.cpp: %s\n",
		list(deadVars), list(unneeded), list(direct), list(valued), markup, list(fromCaller))
}
