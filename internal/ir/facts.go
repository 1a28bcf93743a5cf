package ir

import (
	"fmt"
	"maps"
	"math/big"
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
// of the render's input. A {% set name = namespace(...) %} runs before the assignment
// (a statement before it in its statement list or an enclosing one, within its macro
// or at the top level), and no statement from there to the assignment binds the name
// to anything else (an assignment, a loop, a with block, a macro; in a loop, anywhere
// in it). For an assignment in a macro, else, the name is the first top-level one's,
// when nothing else binds the name anywhere, and that statement and the top-level ones
// before it set none of its attributes and call nothing but globals (so that no macro
// runs before it).
func NamespaceAttrs(t *Template) map[*AttrTarget]bool {
	sc := newNamespaceScope(t)
	attrs := map[*AttrTarget]bool{}
	var set func(tg Target, made func(string) bool)
	set = func(tg Target, made func(string) bool) {
		switch tg := tg.(type) {
		case *AttrTarget:
			attrs[tg] = made(tg.NS.Name)
		case *TupleTarget:
			for _, it := range tg.Items {
				set(it, made)
			}
		}
	}
	sc.walk(t.Body.Stmts, func(s Stmt, made func(string) bool) {
		switch s := s.(type) {
		case *Assign:
			set(s.Target, made)
		case *Capture:
			set(s.Target, made)
		}
	})
	return attrs
}

// ListMethods returns the calls of a list's append and pop (which llama.cpp's engine
// runs: they change the list) whose list is one the template made, never one of the
// render's input: name.attr of a namespace the template made (as NamespaceAttrs says of
// an assignment there), where the attribute only ever holds a list display ([...]):
// every namespace(...) made under the name gives it one or nothing (and no other
// attribute from a dict or **kwargs), and every {% set name.attr = ... %} assigns one.
func ListMethods(t *Template) map[*Call]bool {
	sc := newNamespaceScope(t)
	// fresh[name.attr] is false once something may give it a value that is not a new list
	fresh := map[string]bool{}
	display := func(key string, x Expr) {
		_, isList := x.(*List)
		if old, seen := fresh[key]; !seen || old {
			fresh[key] = isList
		}
	}
	opaque := map[string]bool{} // names of a namespace(...) whose attributes are not all given by name
	Inspect(t.Body.Stmts, func(n any) bool {
		switch n := n.(type) {
		case *Assign:
			switch tg := n.Target.(type) {
			case *AttrTarget:
				display(tg.NS.Name+"."+tg.Attr, n.Value)
			case *VarTarget:
				if call, ok := n.Value.(*Call); ok {
					if g, ok := call.Fn.(*Global); ok && g.Name == "namespace" {
						if len(call.Args.Args) > 0 || call.DynArgs != nil || call.DynKwargs != nil {
							opaque[tg.Var.Name] = true
						}
						for _, kw := range call.Kwargs {
							display(tg.Var.Name+"."+kw.Name, kw.Value)
						}
					}
				}
			}
		case *Capture:
			if tg, ok := n.Target.(*AttrTarget); ok {
				fresh[tg.NS.Name+"."+tg.Attr] = false
			}
		case *TupleTarget:
			for _, it := range n.Items {
				if tg, ok := it.(*AttrTarget); ok {
					fresh[tg.NS.Name+"."+tg.Attr] = false
				}
			}
		}
		return true
	})
	lists := map[*Call]bool{}
	sc.walkCalls(t.Body.Stmts, func(c *Call, made func(string) bool) {
		m, ok := c.Fn.(*Attr)
		if !ok || m.Name != "append" && m.Name != "pop" {
			return
		}
		if a, ok := m.X.(*Attr); ok {
			if l, ok := a.X.(*Load); ok {
				name := l.Var.Name
				lists[c] = lists[c] || made(name) && !opaque[name] && fresh[name+"."+a.Name]
			}
		}
	})
	return lists
}

// rebinds reports whether the statement s binds name to anything but a namespace(...):
// an assignment, a loop or with block, a macro definition, anywhere in it but in the
// bodies of macros and call blocks (whose names are their own).
func rebinds(s Stmt, name string) bool {
	found := false
	Inspect([]Stmt{s}, func(n any) bool {
		switch n := n.(type) {
		case *Assign:
			if made, ok := isMade(n); ok && made == name {
				return false
			}
		case *VarTarget:
			found = found || n.Var.Name == name
		case *MacroDef:
			found = found || n.Var.Name == name
			return false
		case *CallBlock:
			return false
		}
		return !found
	})
	return found
}

// A namespaceScope says where the names of a template's namespaces hold a namespace it
// made (see NamespaceAttrs).
type namespaceScope struct {
	bound        map[string]bool // names bound by anything but namespace()
	beforeMacros map[string]bool // names a macro finds made in its caller's scope
	// params are, for each macro, its parameters that hold a namespace the template
	// made: those every call gives one (see madeParams)
	params map[*MacroDef]map[string]bool
}

// isMade returns the name a statement {% set name = namespace(...) %} makes a
// namespace under.
func isMade(s Stmt) (string, bool) {
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

func newNamespaceScope(t *Template) *namespaceScope {
	sc := &namespaceScope{bound: map[string]bool{}, beforeMacros: map[string]bool{}}
	bind := func(v *Var) {
		if v != nil {
			sc.bound[v.Name] = true
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
	for i, s := range t.Body.Stmts {
		name, ok := isMade(s)
		if _, seen := sc.beforeMacros[name]; !ok || seen {
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
		sc.beforeMacros[name] = clean
	}
	sc.madeParams(t)
	return sc
}

// madeParams finds the parameters of macros that hold a namespace the template made:
// those of a macro called only by resolved calls (ResolveMacroCalls; never through a
// value) to which every call, as llama.cpp's engine binds its arguments, gives a name
// that holds one where the call runs. A name in a macro's body holds one when it is
// such a parameter, so the parameters are found over rounds, until a round finds no
// more.
func (sc *namespaceScope) madeParams(t *Template) {
	sc.params = map[*MacroDef]map[string]bool{}
	mc := ResolveMacroCalls(t)
	calls := map[*MacroDef][]DirectCall{}
	for _, c := range mc.Direct {
		calls[c.Macro] = append(calls[c.Macro], c)
	}
	for d := range calls {
		if mc.Valued[d.Var] { // a call through its value too (ValueCalls), or passed on
			delete(calls, d)
		}
	}
	for found := true; found; {
		found = false
		// the arguments of resolved calls that are names holding a namespace the
		// template made where the call runs
		made := map[Expr]bool{}
		sc.walkCalls(t.Body.Stmts, func(c *Call, holds func(string) bool) {
			for _, a := range mc.Direct[c].LlamaArgs {
				if l, ok := a.(*Load); ok && holds(l.Var.Name) {
					made[a] = true
				}
			}
		})
		for d, cs := range calls {
			for i, p := range d.Macro.Params {
				if sc.params[d][p.Name] {
					continue
				}
				all := true
				for _, c := range cs {
					all = all && !c.LlamaBindsLate && made[c.LlamaArgs[i]]
				}
				if all {
					if sc.params[d] == nil {
						sc.params[d] = map[string]bool{}
					}
					sc.params[d][p.Name] = true
					found = true
				}
			}
		}
	}
}

// walk calls visit for each statement of ss, the top level, and of the blocks within
// them, with made, which reports whether a name holds a namespace the template made
// when the statement runs.
func (sc *namespaceScope) walk(ss []Stmt, visit func(s Stmt, made func(name string) bool)) {
	sc.walkIn(ss, map[string]bool{}, false, visit)
}

// walkCalls calls visit for each call in the statements of ss, the top level, and of the
// blocks within them, with made as walk gives it for each statement the call is in: a
// statement's calls are seen again in the blocks within it, where more names may be
// made, so a name is made at a call if either says so.
func (sc *namespaceScope) walkCalls(ss []Stmt, visit func(c *Call, made func(name string) bool)) {
	sc.walk(ss, func(s Stmt, made func(string) bool) {
		Inspect([]Stmt{s}, func(n any) bool {
			switch n := n.(type) {
			case *MacroDef, *CallBlock:
				return false // walked with their own scope
			case *Call:
				visit(n, made)
			}
			return true
		})
	})
}

// walkIn is walk of the statements ss of a macro's body (inMacro) or of the top level,
// where the names in outer are made.
func (sc *namespaceScope) walkIn(ss []Stmt, outer map[string]bool, inMacro bool, visit func(s Stmt, made func(name string) bool)) {
	have := maps.Clone(outer) // the names made before, here or around, and not bound since
	made := func(name string) bool {
		return have[name] || inMacro && !sc.bound[name] && sc.beforeMacros[name]
	}
	in := func(bodies ...*Block) {
		for _, b := range bodies {
			if b != nil {
				sc.walkIn(b.Stmts, have, inMacro, visit)
			}
		}
	}
	for _, s := range ss {
		for name := range have {
			if rebinds(s, name) {
				delete(have, name) // from here on (in a loop, throughout it)
			}
		}
		switch s := s.(type) {
		case *Capture:
			in(s.Body)
		case *If:
			sc.walkIn(s.Then, have, inMacro, visit)
			sc.walkIn(s.Else, have, inMacro, visit)
		case *For:
			in(s.Body, s.Else)
		case *With:
			in(s.Body)
		case *FilterBlock:
			in(s.Body)
		case *MacroDef:
			params := sc.params[s]
			if params == nil {
				params = map[string]bool{}
			}
			sc.walkIn(s.Macro.Body.Stmts, params, true, visit)
		case *CallBlock:
			sc.walkIn(s.Caller.Body.Stmts, map[string]bool{}, true, visit)
		}
		visit(s, made)
		if name, ok := isMade(s); ok {
			have[name] = true
		}
	}
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
						if c.LlamaBindsLate {
							args = slices.Concat(n.Args.Args, kwargValues(n.Kwargs), c.LlamaEnv)
						}
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

// GenerationPrompt says where the template's generation prompt starts when the output
// of a render with add_generation_prompt true is the output of a render without it
// followed by more: at its last top-level statement, which it returns, when that is
// {% if add_generation_prompt %}...{% endif %} without an else, its condition the name
// or a chain of ands with the name among its operands, and nothing before depends on
// the name; at the end (nil, true) when nothing reads it at all (the generation prompt
// is empty). ok is false otherwise.
//
// llama-server defines the name only when it is true. Before the last statement the
// template may set it to a constant that is false, or keep it (`add_generation_prompt |
// default(false)`, `add_generation_prompt if add_generation_prompt is defined else
// false`, `add_generation_prompt or false`), and do so when it is not defined
// ({% if add_generation_prompt is not defined %}{% set add_generation_prompt = false
// %}{% endif %}): it is then true or false in a render with it, undefined or false in a
// render without, and the output before the last statement is the same in both.
func GenerationPrompt(t *Template) (start *If, ok bool) {
	for _, v := range t.Vars {
		if v.Name != promptName {
			continue
		}
		switch init := v.Init.(type) {
		case *Input:
		case *Load:
			if init.Var.Name != promptName {
				return nil, false
			}
		default:
			return nil, false // a parameter or loop target of that name, or undefined
		}
	}
	var reads []*Load
	kept := map[*Load]bool{} // the reads that only set the name or decide whether to
	ok = true
	Inspect(t.Body.Stmts, func(n any) bool {
		switch n := n.(type) {
		case *Load:
			if n.Var.Name == promptName {
				reads = append(reads, n)
			}
		case *If:
			if l := promptDefinedTest(n.Cond); l != nil && onlyKeepPrompt(n.Then, kept) && onlyKeepPrompt(n.Else, kept) {
				kept[l] = true
			}
		case *Assign:
			if !bindsPrompt(n.Target) {
				break
			}
			if v, isVar := n.Target.(*VarTarget); !isVar || v.Var.Name != promptName || !keepsPrompt(n.Value, kept) {
				ok = false
			}
		case *Capture:
			ok = ok && !bindsPrompt(n.Target)
		case *With:
			for _, target := range n.Targets {
				ok = ok && !bindsPrompt(target)
			}
		}
		return true
	})
	if !ok {
		return nil, false
	}
	var valued []*Load
	for _, l := range reads {
		if !kept[l] {
			valued = append(valued, l)
		}
	}
	if len(reads) == 0 {
		return nil, true
	}
	ss := t.Body.Stmts
	if len(valued) != 1 || len(ss) == 0 {
		return nil, false
	}
	last, isIf := ss[len(ss)-1].(*If)
	if !isIf || len(last.Else) > 0 || !andOperand(last.Cond, valued[0]) {
		return nil, false
	}
	return last, true
}

// promptName is the variable GenerationPrompt follows.
const promptName = "add_generation_prompt"

// isPromptLoad reports whether x reads add_generation_prompt.
func isPromptLoad(x Expr) bool {
	l, ok := x.(*Load)
	return ok && l.Var.Name == promptName
}

// promptDefinedTest returns the read of add_generation_prompt when x tests whether it
// is defined (`is defined`, `is undefined`, either under not), nil otherwise.
func promptDefinedTest(x Expr) *Load {
	for {
		u, ok := x.(*Unary)
		if !ok || u.Op != "not" {
			break
		}
		x = u.X
	}
	if test, ok := x.(*Test); ok && (test.Name == "defined" || test.Name == "undefined") && test.Positional(0) && isPromptLoad(test.X) {
		return test.X.(*Load)
	}
	return nil
}

// onlyKeepPrompt reports whether ss only set add_generation_prompt as keepsPrompt allows,
// adding the reads of the name they are made of to kept.
func onlyKeepPrompt(ss []Stmt, kept map[*Load]bool) bool {
	for _, s := range ss {
		a, ok := s.(*Assign)
		if !ok {
			return false
		}
		if v, ok := a.Target.(*VarTarget); !ok || v.Var.Name != promptName || !keepsPrompt(a.Value, kept) {
			return false
		}
	}
	return true
}

// bindsPrompt reports whether target binds add_generation_prompt.
func bindsPrompt(target Target) bool {
	switch target := target.(type) {
	case *VarTarget:
		return target.Var.Name == promptName
	case *TupleTarget:
		return slices.ContainsFunc(target.Items, bindsPrompt)
	}
	return false
}

// keepsPrompt reports whether x, set to add_generation_prompt, is false or the name as
// it is, or false when it is not defined: a constant that is false, the name itself,
// `name | default(false)`, `name if name is defined else false`, `name or false` (false
// standing for any constant that is). It adds the reads of the name it is made of to
// kept.
func keepsPrompt(x Expr, kept map[*Load]bool) bool {
	switch x := x.(type) {
	case *Const:
		return falseConst(x)
	case *Load:
		if x.Var.Name == promptName {
			kept[x] = true
			return true
		}
	case *Filter:
		if x.Name == "default" && x.Positional(1) && isPromptLoad(x.X) && falseConst(x.Args.Args[0]) {
			kept[x.X.(*Load)] = true
			return true
		}
	case *Cond:
		if test, ok := x.Test.(*Test); ok && test.Name == "defined" && test.Positional(0) && isPromptLoad(test.X) && isPromptLoad(x.Then) && falseConst(x.Else) {
			kept[test.X.(*Load)], kept[x.Then.(*Load)] = true, true
			return true
		}
	case *Binary:
		if x.Op == "or" && isPromptLoad(x.L) && falseConst(x.R) {
			kept[x.L.(*Load)] = true
			return true
		}
	}
	return false
}

// falseConst reports whether x is a constant that is false.
func falseConst(x Expr) bool {
	c, ok := x.(*Const)
	return ok && !constTruthy(c.Value)
}

// constTruthy is the truth of a constant.
func constTruthy(v any) bool {
	switch v := v.(type) {
	case nil:
		return false
	case bool:
		return v
	case *big.Int:
		return v.Sign() != 0
	case float64:
		return v != 0
	case string:
		return v != ""
	}
	return true
}

// andOperand reports whether x is l or a chain of ands of which l is an operand.
func andOperand(x Expr, l *Load) bool {
	if b, ok := x.(*Binary); ok && b.Op == "and" {
		return andOperand(b.L, l) || andOperand(b.R, l)
	}
	return x == Expr(l)
}
