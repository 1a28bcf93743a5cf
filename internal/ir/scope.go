package ir

import (
	"github.com/tmplgen/tmplgen/internal/syntax"
)

// This file resolves names the way Jinja2's compiler does (jinja2/idtracking.py): each
// frame (the template, a loop body, a macro...) has symbols; a name stored in a frame is
// a variable of that frame, initialized on entry from the enclosing frame's variable of
// the same name (an alias), from the render's context (resolve), or as undefined; a name
// only read refers to the nearest enclosing frame's variable, or is resolved from the
// context.

// loadKind says how a frame variable is initialized.
type loadKind int

const (
	loadParam loadKind = iota
	loadResolve
	loadAlias
	loadUndefined
)

type load struct {
	kind  loadKind
	outer *Var // for loadAlias
}

// frame is one scope under analysis.
type frame struct {
	parent *frame
	vars   map[string]*Var // the frame's variable of each name (stable across branches)
	sym    *symbols
	scope  *Scope
	lower  *lowerer
}

// symbols are the names a frame defines, how they load and which it stores; branches of
// an if analyze copies and merge back, as Jinja2's Symbols do.
type symbols struct {
	refs   map[string]bool
	loads  map[string]load
	stores map[string]bool
	order  []string // names in order of definition, for a stable output
}

func newSymbols() *symbols {
	return &symbols{refs: map[string]bool{}, loads: map[string]load{}, stores: map[string]bool{}}
}

func (s *symbols) copy() *symbols {
	c := newSymbols()
	for k, v := range s.refs {
		c.refs[k] = v
	}
	for k, v := range s.loads {
		c.loads[k] = v
	}
	for k, v := range s.stores {
		c.stores[k] = v
	}
	c.order = append([]string(nil), s.order...)
	return c
}

func (l *lowerer) newFrame(parent *frame) *frame {
	f := &frame{parent: parent, vars: map[string]*Var{}, sym: newSymbols(), lower: l}
	f.scope = &Scope{}
	if parent != nil {
		f.scope.Parent = parent.scope
	}
	return f
}

// variable returns the frame's variable of a name, creating it on first use.
func (f *frame) variable(name string) *Var {
	v, ok := f.vars[name]
	if !ok {
		v = f.lower.newVar(name)
		f.vars[name] = v
	}
	return v
}

func (f *frame) define(name string, ld load) {
	if !f.sym.refs[name] {
		f.sym.order = append(f.sym.order, name)
	}
	f.sym.refs[name] = true
	f.sym.loads[name] = ld
}

// findRef returns the variable a name refers to in this frame or an enclosing one.
func (f *frame) findRef(name string) *Var {
	v, _ := f.findRefFrame(name)
	return v
}

// findRefFrame is findRef that also returns the frame the variable belongs to.
func (f *frame) findRefFrame(name string) (*Var, *frame) {
	for fr := f; fr != nil; fr = fr.parent {
		if fr.sym.refs[name] {
			return fr.variable(name), fr
		}
	}
	return nil, nil
}

func (f *frame) store(name string) {
	f.sym.stores[name] = true
	if f.sym.refs[name] {
		return
	}
	if f.parent != nil {
		if outer := f.parent.findRef(name); outer != nil {
			f.define(name, load{kind: loadAlias, outer: outer})
			return
		}
	}
	if f.lower.llama {
		// llama.cpp: a scope is a copy of the one around it, down to the render's
		// variables: a name read before the scope assigns it is theirs
		f.lower.llamaDiffers = true
		f.define(name, load{kind: loadResolve})
		return
	}
	f.define(name, load{kind: loadUndefined})
}

func (f *frame) declareParam(name string) {
	f.sym.stores[name] = true
	f.define(name, load{kind: loadParam})
}

func (f *frame) load(name string) {
	if f.findRef(name) == nil {
		f.define(name, load{kind: loadResolve})
	}
}

// branchUpdate merges the symbols of the branches of an if back into the frame.
func (f *frame) branchUpdate(branches []*symbols) {
	stores := map[string]bool{}
	var storeOrder []string
	for _, b := range branches {
		for _, name := range b.order {
			if b.stores[name] && !stores[name] && !f.sym.stores[name] {
				stores[name] = true
				storeOrder = append(storeOrder, name)
			}
		}
	}
	for _, b := range branches {
		for _, name := range b.order {
			if !f.sym.refs[name] {
				f.sym.order = append(f.sym.order, name)
			}
			f.sym.refs[name] = true
		}
		for k, v := range b.loads {
			f.sym.loads[k] = v
		}
		for k := range b.stores {
			f.sym.stores[k] = true
		}
	}
	for _, name := range storeOrder {
		if f.parent != nil {
			if outer := f.parent.findRef(name); outer != nil {
				f.sym.loads[name] = load{kind: loadAlias, outer: outer}
				continue
			}
		}
		f.sym.loads[name] = load{kind: loadResolve}
	}
}

// finish fixes the frame's variables and their initializers once analysis is done.
func (f *frame) finish(p Pos) {
	for _, name := range f.sym.order {
		v := f.variable(name)
		ld := f.sym.loads[name]
		switch ld.kind {
		case loadParam:
			v.Init = nil
		case loadResolve:
			v.Init = resolveName(p, name)
		case loadAlias:
			v.Init = &Load{At{p}, ld.outer}
		case loadUndefined:
			v.Init = &Undef{At{p}, name}
		}
		f.scope.Vars = append(f.scope.Vars, v)
	}
}

// globalNames are the functions Jinja2 and transformers put in every template's context,
// and self, the template's own reference.
var globalNames = map[string]bool{
	"range": true, "dict": true, "lipsum": true, "cycler": true, "joiner": true,
	"namespace": true, "raise_exception": true, "strftime_now": true, "self": true,
}

// resolveName is a name looked up in the render's context: a global function, or a
// variable of the input.
func resolveName(p Pos, name string) Expr {
	if globalNames[name] {
		return &Global{At{p}, name}
	}
	return &Input{At{p}, name}
}

// symbolVisitor records the names a frame's own statements load and store, not
// descending into nested frames (Jinja2's FrameSymbolVisitor).
type symbolVisitor struct {
	f *frame
}

func (v symbolVisitor) stmts(nodes []syntax.Node) {
	for _, n := range nodes {
		v.stmt(n)
	}
}

func (v symbolVisitor) stmt(n syntax.Node) {
	switch n := n.(type) {
	case *syntax.Data, *syntax.Break, *syntax.Continue, *syntax.Unsupported, *syntax.Block:
	case *syntax.Print:
		v.expr(n.X)
	case *syntax.If:
		v.ifStmt(n)
	case *syntax.For:
		v.expr(n.Iter)
	case *syntax.Set:
		v.expr(n.Value)
		v.target(n.Target, false)
	case *syntax.SetBlock:
		if v.f.lower.llama {
			v.blockBody(n.Body)
			v.filterArgs(n.Filter)
		}
		v.target(n.Target, false)
	case *syntax.Macro:
		if v.f.lower.llama {
			// llama.cpp evaluates a default in the scope of the call (lowerer.macro)
			for _, p := range n.Params {
				v.expr(p.Default)
			}
		}
		v.f.store(n.Name)
	case *syntax.CallBlock:
		v.expr(n.Call)
	case *syntax.FilterBlock:
		if v.f.lower.llama {
			v.blockBody(n.Body)
		}
		v.filterArgs(n.Filter)
	case *syntax.With:
		for _, x := range n.Values {
			v.expr(x)
		}
	case *syntax.Generation:
	}
}

func (v symbolVisitor) ifStmt(n *syntax.If) {
	v.expr(n.Test)
	original := v.f.sym
	branch := func(visit func()) *symbols {
		v.f.sym = original.copy()
		visit()
		b := v.f.sym
		v.f.sym = original
		return b
	}
	body := branch(func() { v.stmts(n.Body) })
	elifs := branch(func() {
		for _, e := range n.Elifs {
			v.ifStmt(e)
		}
	})
	els := branch(func() { v.stmts(n.Else) })
	v.f.branchUpdate([]*symbols{body, elifs, els})
}

// target records an assignment target: names are stored (or declared as parameters).
func (v symbolVisitor) target(t syntax.Expr, param bool) {
	switch t := t.(type) {
	case *syntax.Name:
		if param {
			v.f.declareParam(t.Name)
		} else {
			v.f.store(t.Name)
		}
	case *syntax.NSRef:
		v.f.load(t.Name)
	case *syntax.Tuple:
		for _, it := range t.Items {
			v.target(it, param)
		}
	}
}

// blockBody records the names the body of a filter or set block loads and stores, in
// the frame around it: llama.cpp's scope of such a body (Llama).
func (v symbolVisitor) blockBody(body []syntax.Node) {
	v.stmts(body)
	if assignsName(body) {
		v.f.lower.llamaDiffers = true
	}
}

// assignsName reports whether statements assign a name in the scope they run in: a set,
// a set block or a macro, also inside an if or a filter or set block (not in a loop or a
// macro, which have scopes of their own).
func assignsName(nodes []syntax.Node) bool {
	for _, n := range nodes {
		switch n := n.(type) {
		case *syntax.Set:
			if _, attr := n.Target.(*syntax.NSRef); !attr {
				return true
			}
		case *syntax.SetBlock, *syntax.Macro:
			return true
		case *syntax.If:
			if assignsName(n.Body) || assignsName(n.Else) {
				return true
			}
			for _, e := range n.Elifs {
				if assignsName(e.Body) || assignsName(e.Else) {
					return true
				}
			}
		case *syntax.FilterBlock:
			if assignsName(n.Body) {
				return true
			}
		}
	}
	return false
}

func (v symbolVisitor) filterArgs(f *syntax.Filter) {
	for f != nil {
		v.args(f.Args)
		next, _ := f.X.(*syntax.Filter)
		if next == nil && f.X != nil {
			v.expr(f.X)
		}
		f = next
	}
}

func (v symbolVisitor) args(a syntax.Args) {
	for _, x := range a.Args {
		v.expr(x)
	}
	for _, kw := range a.Kwargs {
		v.expr(kw.Value)
	}
	if a.DynArgs != nil {
		v.expr(a.DynArgs)
	}
	if a.DynKwargs != nil {
		v.expr(a.DynKwargs)
	}
}

func (v symbolVisitor) expr(x syntax.Expr) {
	if x == nil {
		return
	}
	switch x := x.(type) {
	case *syntax.Name:
		v.f.load(x.Name)
	case *syntax.Const:
	case *syntax.Tuple:
		for _, it := range x.Items {
			v.expr(it)
		}
	case *syntax.List:
		for _, it := range x.Items {
			v.expr(it)
		}
	case *syntax.Dict:
		for _, p := range x.Items {
			v.expr(p.Key)
			v.expr(p.Value)
		}
	case *syntax.Getattr:
		v.expr(x.X)
	case *syntax.Getitem:
		v.expr(x.X)
		v.expr(x.Arg)
	case *syntax.Slice:
		v.expr(x.Start)
		v.expr(x.Stop)
		v.expr(x.Step)
	case *syntax.Call:
		v.expr(x.Fn)
		v.args(x.Args)
	case *syntax.Filter:
		v.expr(x.X)
		v.args(x.Args)
	case *syntax.Test:
		v.expr(x.X)
		v.args(x.Args)
	case *syntax.Unary:
		v.expr(x.X)
	case *syntax.Binary:
		v.expr(x.L)
		v.expr(x.R)
	case *syntax.Concat:
		for _, it := range x.Items {
			v.expr(it)
		}
	case *syntax.Compare:
		v.expr(x.X)
		for _, op := range x.Ops {
			v.expr(op.X)
		}
	case *syntax.CondExpr:
		v.expr(x.Test)
		v.expr(x.Then)
		v.expr(x.Else)
	}
}

// undeclared reports which of names the nodes read before (or without) assigning them,
// descending into nested statements (Jinja2's find_undeclared).
func undeclared(nodes []syntax.Node, names ...string) map[string]bool {
	u := &undeclaredVisitor{want: map[string]bool{}, found: map[string]bool{}}
	for _, n := range names {
		u.want[n] = true
	}
	for _, n := range nodes {
		u.node(n)
	}
	return u.found
}

type undeclaredVisitor struct {
	want, found map[string]bool
}

func (u *undeclaredVisitor) name(name string, loadCtx bool) {
	if loadCtx && u.want[name] {
		u.found[name] = true
	} else {
		delete(u.want, name)
	}
}

func (u *undeclaredVisitor) node(n any) {
	switch n := n.(type) {
	case nil:
	case *syntax.Name:
		u.name(n.Name, true)
	case *syntax.Block:
		// Jinja2 does not look into blocks.
	default:
		walkChildren(n, u.node, u.name)
	}
}

// macroReadsLoop reports whether a macro defined in nodes, at any depth, reads loop
// outside the loops of its own body.
func macroReadsLoop(nodes []syntax.Node) bool {
	found := false
	var visit func(any)
	visit = func(n any) {
		if m, ok := n.(*syntax.Macro); ok && readsOuterLoop(m.Body) {
			found = true
		}
		if !found {
			walkChildren(n, visit, func(string, bool) {})
		}
	}
	for _, n := range nodes {
		visit(n)
	}
	return found
}

// readsOuterLoop reports whether nodes read loop outside the for loops among them,
// whose bodies read their own (a macro among them is another body: macroReadsLoop
// looks at it).
func readsOuterLoop(nodes []syntax.Node) bool {
	found := false
	var visit func(any)
	visit = func(n any) {
		switch n := n.(type) {
		case *syntax.Name:
			found = found || n.Name == "loop"
		case *syntax.For:
			visit(n.Iter)
			for _, x := range n.Else {
				visit(x)
			}
		case *syntax.Macro:
		default:
			walkChildren(n, visit, func(string, bool) {})
		}
	}
	for _, n := range nodes {
		visit(n)
	}
	return found
}

// hasScopedBlock reports whether a scoped block is in n, at any depth (Jinja2's
// node.find_all(nodes.Block)).
func hasScopedBlock(n any) bool {
	found := false
	var visit func(any)
	visit = func(n any) {
		if b, ok := n.(*syntax.Block); ok && b.Scoped {
			found = true
		}
		if !found {
			walkChildren(n, visit, func(string, bool) {})
		}
	}
	walkChildren(n, visit, func(string, bool) {})
	return found
}

// walkChildren calls visit on each child of a syntax node in source order; assignment
// targets are reported to store instead (with loadCtx false).
func walkChildren(n any, visit func(any), store func(name string, loadCtx bool)) {
	target := func(t syntax.Expr) {
		var rec func(syntax.Expr)
		rec = func(t syntax.Expr) {
			switch t := t.(type) {
			case *syntax.Name:
				store(t.Name, false)
			case *syntax.NSRef:
				store(t.Name, true)
			case *syntax.Tuple:
				for _, it := range t.Items {
					rec(it)
				}
			}
		}
		rec(t)
	}
	nodes := func(ns []syntax.Node) {
		for _, x := range ns {
			visit(x)
		}
	}
	args := func(a syntax.Args) {
		for _, x := range a.Args {
			visit(x)
		}
		for _, kw := range a.Kwargs {
			visit(kw.Value)
		}
		if a.DynArgs != nil {
			visit(a.DynArgs)
		}
		if a.DynKwargs != nil {
			visit(a.DynKwargs)
		}
	}
	params := func(ps []syntax.Param) {
		for _, p := range ps {
			store(p.Name, false)
		}
		for _, p := range ps {
			if p.Default != nil {
				visit(p.Default)
			}
		}
	}
	switch n := n.(type) {
	case *syntax.Print:
		visit(n.X)
	case *syntax.If:
		visit(n.Test)
		nodes(n.Body)
		for _, e := range n.Elifs {
			visit(e)
		}
		nodes(n.Else)
	case *syntax.For:
		target(n.Target)
		visit(n.Iter)
		nodes(n.Body)
		nodes(n.Else)
		if n.Test != nil {
			visit(n.Test)
		}
	case *syntax.Set:
		target(n.Target)
		visit(n.Value)
	case *syntax.SetBlock:
		target(n.Target)
		if n.Filter != nil {
			visit(n.Filter)
		}
		nodes(n.Body)
	case *syntax.Macro:
		store(n.Name, false)
		params(n.Params)
		nodes(n.Body)
	case *syntax.CallBlock:
		visit(n.Call)
		params(n.Params)
		nodes(n.Body)
	case *syntax.FilterBlock:
		nodes(n.Body)
		visit(n.Filter)
	case *syntax.With:
		for _, t := range n.Targets {
			target(t)
		}
		for _, x := range n.Values {
			visit(x)
		}
		nodes(n.Body)
	case *syntax.Generation:
		nodes(n.Body)
	case *syntax.Tuple:
		for _, it := range n.Items {
			visit(it)
		}
	case *syntax.List:
		for _, it := range n.Items {
			visit(it)
		}
	case *syntax.Dict:
		for _, p := range n.Items {
			visit(p.Key)
			visit(p.Value)
		}
	case *syntax.Getattr:
		visit(n.X)
	case *syntax.Getitem:
		visit(n.X)
		visit(n.Arg)
	case *syntax.Slice:
		for _, x := range []syntax.Expr{n.Start, n.Stop, n.Step} {
			if x != nil {
				visit(x)
			}
		}
	case *syntax.Call:
		visit(n.Fn)
		args(n.Args)
	case *syntax.Filter:
		if n.X != nil {
			visit(n.X)
		}
		args(n.Args)
	case *syntax.Test:
		visit(n.X)
		args(n.Args)
	case *syntax.Unary:
		visit(n.X)
	case *syntax.Binary:
		visit(n.L)
		visit(n.R)
	case *syntax.Concat:
		for _, it := range n.Items {
			visit(it)
		}
	case *syntax.Compare:
		visit(n.X)
		for _, op := range n.Ops {
			visit(op.X)
		}
	case *syntax.CondExpr:
		visit(n.Test)
		visit(n.Then)
		if n.Else != nil {
			visit(n.Else)
		}
	}
}
