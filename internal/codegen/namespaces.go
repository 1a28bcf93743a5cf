package codegen

import (
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/tmplgen/tmplgen/internal/ir"
	"github.com/tmplgen/tmplgen/internal/llamacpp"
)

// Namespaces held in Go variables.
//
// Templates use namespace() to carry state out of loops: {% set ns =
// namespace(found=false) %} before a loop, {% set ns.found = true %} in it, {% if
// ns.found %} after it. When the generated code can see every use of such a namespace,
// it holds each attribute in a Go variable of its own instead of building a namespace
// (one allocation less per render, and code that reads as the template does). It does so
// for a variable that
//   - is assigned once, by {% set ns = namespace(name=value, ...) %} with keyword
//     arguments only, outside any macro;
//   - is used only after that {% set %}, within the statements that follow it in its
//     block (so every use sees the namespace it made, and never an undefined ns or the
//     namespace of an earlier loop iteration);
//   - is used only through its attributes (ns.name read, or {% set ns.name = ... %}), never
//     passed, printed, tested or called;
//   - is used in a macro body only when it is made at the top level of the template (a
//     macro's function takes the variables of the one namespace there is), and only
//     read there (a macro's function takes them as parameters; see lift.go);
//   - reads and sets only the attributes it was created with, none starting with "_"
//     (which the sandbox refuses).
// An attribute that is only ever assigned true or false literals is a Go bool.

// localNamespace is a namespace variable held as one Go variable per attribute.
type localNamespace struct {
	call  *ir.Call // namespace(...) of its {% set %}
	attrs map[string]*localAttr
}

// localAttr is an attribute of a localNamespace.
type localAttr struct {
	goName string // its Go variable, once allocated
	read   bool   // an expression reads it (else it is only evaluated for errors)
	isBool bool   // every value assigned to it is a bool literal
}

// findLocalNamespaces returns the namespace variables that the generated code holds as
// Go variables, as the comment above describes; for the llama.cpp function, not one with
// an attribute named as a dict's builtin, which llama.cpp's engine reads in its place.
// generated tells the macro definitions whose body is generated: uses in the others do
// not count.
func findLocalNamespaces(t *ir.Template, llama bool, generated func(*ir.MacroDef) bool) map[*ir.Var]*localNamespace {
	type candidate struct {
		ns       *localNamespace
		after    []ir.Stmt // the statements after its {% set %}, in the same block
		topLevel bool      // that block is the template's
	}
	candidates := map[*ir.Var]candidate{}
	var walk func(ss []ir.Stmt, topLevel bool)
	walk = func(ss []ir.Stmt, topLevel bool) {
		for i, s := range ss {
			switch s := s.(type) {
			case *ir.Assign:
				if v, call := namespaceDef(s); v != nil && !(llama && slices.ContainsFunc(call.Kwargs, dictBuiltinAttr)) {
					candidates[v] = candidate{newLocalNamespace(call), ss[i+1:], topLevel}
				}
			case *ir.If:
				walk(s.Then, false)
				walk(s.Else, false)
			case *ir.For:
				walk(s.Body.Stmts, false)
				if s.Else != nil {
					walk(s.Else.Stmts, false)
				}
			case *ir.Capture:
				walk(s.Body.Stmts, false)
			case *ir.FilterBlock:
				walk(s.Body.Stmts, false)
			case *ir.With:
				walk(s.Body.Stmts, false)
			}
		}
	}
	walk(t.Body.Stmts, true)
	if len(candidates) == 0 {
		return nil
	}
	found := map[*ir.Var]*localNamespace{}
	for v, c := range candidates {
		found[v] = c.ns
	}

	all := countNamespaceUses(t.Body.Stmts, found, generated)
	markInitLoads(t.Body.Scope, all)
	for v, c := range candidates {
		u := all[v]
		dominated := countNamespaceUses(c.after, found, generated)[v].uses() == u.uses()
		if u.bad || u.stores != 1 || u.loads != u.attrReads || !dominated || u.inMacro && !c.topLevel || u.setInMacro {
			delete(found, v)
			continue
		}
		for name, a := range c.ns.attrs {
			a.read = u.read[name]
			a.isBool = a.isBool && !u.notBool[name]
		}
	}
	return found
}

// namespaceDef returns the variable and the call of {% set v = namespace(name=value,
// ...) %} with distinct keyword arguments only, none starting with "_".
func namespaceDef(s *ir.Assign) (*ir.Var, *ir.Call) {
	vt, ok := s.Target.(*ir.VarTarget)
	call, isCall := s.Value.(*ir.Call)
	if !ok || !isCall || len(call.Args.Args) > 0 || call.DynArgs != nil || call.DynKwargs != nil {
		return nil, nil
	}
	if !isNamespaceGlobal(call.Fn) {
		return nil, nil
	}
	names := map[string]bool{}
	for _, kw := range call.Kwargs {
		if names[kw.Name] || strings.HasPrefix(kw.Name, "_") {
			return nil, nil
		}
		names[kw.Name] = true
	}
	return vt.Var, call
}

// dictBuiltinAttr reports whether a namespace's attribute has the name of a dict's
// builtin (llamacpp.IsDictBuiltin).
func dictBuiltinAttr(kw ir.Kwarg) bool { return llamacpp.IsDictBuiltin(kw.Name) }

// isNamespaceGlobal reports whether x is the global namespace, directly or through a
// variable that holds it (as a template with macros reads globals) and is never
// assigned.
func isNamespaceGlobal(x ir.Expr) bool {
	if l, ok := x.(*ir.Load); ok && l.Var.Stores == 0 {
		x = l.Var.Init
	}
	g, ok := x.(*ir.Global)
	return ok && g.Name == "namespace"
}

func newLocalNamespace(call *ir.Call) *localNamespace {
	ns := &localNamespace{call: call, attrs: map[string]*localAttr{}}
	for _, kw := range call.Kwargs {
		ns.attrs[kw.Name] = &localAttr{isBool: isBoolConst(kw.Value)}
	}
	return ns
}

func isBoolConst(x ir.Expr) bool {
	c, ok := x.(*ir.Const)
	if ok {
		_, ok = c.Value.(bool)
	}
	return ok
}

// namespaceUses counts how statements use a namespace variable.
type namespaceUses struct {
	stores    int // assignments of the variable itself
	loads     int
	attrReads int // loads that read an attribute it was created with: ns.name
	targets   int // {% set ns.name = ... %} of an attribute it was created with
	bad       bool
	inMacro   bool // a macro body uses it
	// the body of a macro (not the caller of a call block) sets one of its attributes
	setInMacro bool
	read       map[string]bool // the attributes read
	notBool    map[string]bool // the attributes assigned something else than a bool literal
}

func (u *namespaceUses) uses() int { return u.loads + u.targets }

// countNamespaceUses counts the uses of the variables of found in the statements,
// outside the bodies of macros that are not generated.
func countNamespaceUses(ss []ir.Stmt, found map[*ir.Var]*localNamespace, generated func(*ir.MacroDef) bool) map[*ir.Var]*namespaceUses {
	all := map[*ir.Var]*namespaceUses{}
	for v := range found {
		all[v] = &namespaceUses{read: map[string]bool{}, notBool: map[string]bool{}}
	}
	boolTargets := map[*ir.AttrTarget]bool{}
	defined := map[*ir.Macro]bool{} // the macros of definitions, not callers of call blocks
	ir.Inspect(ss, func(n any) bool {
		switch n := n.(type) {
		case *ir.MacroDef:
			defined[n.Macro] = true
			return generated(n)
		case *ir.Block:
			markInitLoads(n.Scope, all)
		case *ir.For:
			if n.FilterScope != nil {
				markInitLoads(n.FilterScope, all)
			}
		case *ir.Macro:
			def := defined[n]
			ir.Inspect(n.Body.Stmts, func(n any) bool {
				switch n := n.(type) {
				case *ir.Load:
					if all[n.Var] != nil {
						all[n.Var].inMacro = true
					}
				case *ir.AttrTarget:
					if all[n.NS] != nil {
						all[n.NS].inMacro = true
						all[n.NS].setInMacro = all[n.NS].setInMacro || def
					}
				}
				return true
			})
		case *ir.VarTarget:
			if u := all[n.Var]; u != nil {
				u.stores++
			}
		case *ir.Load:
			if u := all[n.Var]; u != nil {
				u.loads++
			}
		case *ir.Call:
			if a, ok := n.Fn.(*ir.Attr); ok {
				if l, ok := a.X.(*ir.Load); ok && all[l.Var] != nil {
					all[l.Var].bad = true // ns.name(...)
				}
			}
		case *ir.Attr:
			if l, ok := n.X.(*ir.Load); ok && all[l.Var] != nil {
				u := all[l.Var]
				if found[l.Var].attrs[n.Name] == nil {
					u.bad = true
				}
				u.attrReads++
				u.read[n.Name] = true
			}
		case *ir.Assign:
			if at, ok := n.Target.(*ir.AttrTarget); ok && isBoolConst(n.Value) {
				boolTargets[at] = true
			}
		case *ir.AttrTarget:
			if u := all[n.NS]; u != nil {
				if found[n.NS].attrs[n.Attr] == nil {
					u.bad = true
				}
				u.targets++
				if !boolTargets[n] {
					u.notBool[n.Attr] = true
				}
			}
		}
		return true
	})
	return all
}

// markInitLoads marks as bad the namespaces that a scope's variables start from (a copy
// the generated code would have to make).
func markInitLoads(s *ir.Scope, all map[*ir.Var]*namespaceUses) {
	for _, v := range s.Vars {
		if l, ok := v.Init.(*ir.Load); ok && all[l.Var] != nil {
			all[l.Var].bad = true
		}
	}
}

// localAttrOf returns the attribute that x reads when it is ns.name of a local
// namespace.
func (g *gen) localAttrOf(x ir.Expr) *localAttr {
	a, ok := x.(*ir.Attr)
	if !ok {
		return nil
	}
	if l, ok := a.X.(*ir.Load); ok && g.namespaces[l.Var] != nil {
		return g.namespaces[l.Var].attrs[a.Name]
	}
	return nil
}

// defineLocalNamespace compiles the {% set %} that makes a local namespace: the Go
// variable of each attribute declared with its value, in the order of the arguments.
// An attribute that nothing reads is only evaluated, for the errors it may raise.
func (g *gen) defineLocalNamespace(v *ir.Var, ns *localNamespace) []jen.Code {
	var code []jen.Code
	for _, kw := range ns.call.Kwargs {
		a := ns.attrs[kw.Name]
		if !a.read {
			code = append(code, g.discard(kw.Value)...)
			continue
		}
		a.goName = g.alloc(joinWords(Identifier(v.Name, false), Identifier(kw.Name, true)))
		if a.isBool {
			g.localTypes[a.goName] = "bool"
		}
		val := g.value(kw.Value)
		if a.isBool {
			val = g.cond(kw.Value)
		}
		code = append(code, jen.Id(a.goName).Op(":=").Add(val))
	}
	return code
}

// setLocalAttr compiles {% set ns.name = x %} of a local namespace.
func (g *gen) setLocalAttr(a *localAttr, x ir.Expr) []jen.Code {
	switch {
	case !a.read:
		return g.discard(x)
	case a.isBool:
		return g.storeLocalAttr(a, g.cond(x))
	}
	return g.storeLocalAttr(a, g.value(x))
}

// storeLocalAttr assigns v to an attribute of a local namespace; nothing reads an
// attribute without a Go variable, so v is then only evaluated.
func (g *gen) storeLocalAttr(a *localAttr, v jen.Code) []jen.Code {
	if !a.read {
		return []jen.Code{jen.Id("_").Op("=").Add(v)}
	}
	return []jen.Code{jen.Id(a.goName).Op("=").Add(v)}
}

// discard evaluates x for its errors only; a literal is left out.
func (g *gen) discard(x ir.Expr) []jen.Code {
	if _, ok := x.(*ir.Const); ok {
		return nil
	}
	return []jen.Code{jen.Id("_").Op("=").Add(g.value(x))}
}
