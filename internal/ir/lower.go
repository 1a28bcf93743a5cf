package ir

import (
	"fmt"
	"maps"
	"math/big"

	"github.com/tmplgen/tmplgen/internal/jinja2"
	"github.com/tmplgen/tmplgen/internal/syntax"
)

// Error is an error found while lowering: a construct Jinja2 accepts in the parser but
// rejects when it compiles the template.
type Error struct {
	Pos Pos
	Msg string
}

func (e *Error) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Pos.Line, e.Pos.Col, e.Msg)
}

// Compile parses template text and lowers it. file names the template in the IR.
func Compile(file, src string) (*Template, error) {
	t, err := syntax.Parse(src)
	if err != nil {
		return nil, err
	}
	return Lower(t, file, src)
}

// Lower turns a syntax tree into IR, resolving every name by Jinja2's scoping rules.
func Lower(t *syntax.Template, file, src string) (tmpl *Template, err error) {
	return newLowerer(false).lower(t, file, src)
}

// Llama returns t as llama.cpp's engine reads it, where that differs from Jinja2's:
//   - its lexer strips ASCII whitespace only around tags (syntax.ParseLlama);
//   - the body of a {% filter %} or {% set %} block runs in the scope around it
//     (runtime.cpp's filter_statement and set_statement execute it in their own
//     context), so a name it assigns is that scope's, also after the block, where
//     Jinja2 gives the body a scope of its own;
//   - a scope is a copy of the one around it (the template's, of the render's
//     variables), so a name it assigns is the render's variable until it does, where
//     Jinja2 makes it undefined when a scope nested in it reads it first;
//   - it folds no constant: a slice of a number, a bool or none in a {{ }} fails,
//     where Jinja2's compiler makes it undefined.
//
// It returns t itself when none makes a difference.
func Llama(t *Template) (*Template, error) {
	tree, differs, err := syntax.ParseLlama(t.Source)
	if err != nil {
		return nil, err
	}
	l := newLowerer(true)
	lt, err := l.lower(tree, t.File, t.Source)
	if err != nil || !differs && !l.llamaDiffers {
		return t, err
	}
	return lt, nil
}

// newLowerer returns a lowerer of Jinja2's semantics, or llama.cpp's (Llama).
func newLowerer(llama bool) *lowerer {
	l := &lowerer{llama: llama, blocks: map[string]*syntax.Block{}, blockDefs: map[string]*syntax.Block{}, selfBlocks: map[string]*Var{}}
	if !llama {
		l.consts = newUnspelled() // llama.cpp folds no constant
	}
	return l
}

// lower turns a syntax tree into IR.
func (l *lowerer) lower(t *syntax.Template, file, src string) (tmpl *Template, err error) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*Error)
			if !ok {
				panic(r)
			}
			tmpl, err = nil, e
		}
	}()
	root := l.newFrame(nil)
	symbolVisitor{root}.stmts(t.Body)
	root.finish(Pos{Line: 1, Col: 1})
	l.root = root
	l.macroReadsLoop = l.llama && macroReadsLoop(t.Body)
	collectBlocks(t.Body, l.blockDefs)
	body := l.stmts(root, t.Body)
	// the blocks self.NAME() renders exist from the start, as Jinja2's do
	body = append(l.selfDefs, body...)
	return &Template{File: file, Source: src, Body: &Block{Scope: root.scope, Stmts: body}, Vars: l.vars}, nil
}

type lowerer struct {
	vars      []*Var
	loopDepth int // loops enclosing the statement being lowered, within its function
	// constPrint is set while the expression of a {{ }} that is constant throughout is
	// lowered: Jinja2 evaluates such an expression when it compiles the template
	// (see foldsUndefined)
	constPrint bool
	// consts finds the expressions Jinja2 folds into a nan or inf (unspelled.go); nil
	// for llama
	consts *unspelled
	// blocks are the blocks lowered so far by name (Jinja2 refuses a name twice; a block
	// self.NAME() renders, and the blocks in it, are lowered again)
	blocks map[string]*syntax.Block
	// blockDefs are the template's blocks by name; selfBlocks the variables of the
	// macros self.NAME() calls, which selfDefs define at the start of the template
	blockDefs  map[string]*syntax.Block
	selfBlocks map[string]*Var
	selfDefs   []Stmt
	root       *frame // the template's frame
	// soft is set inside an if statement or an inline if of the function being lowered,
	// where Jinja2 leaves an unknown filter or test to fail when it runs; elsewhere it
	// is an error when the template is compiled
	soft bool
	// llama lowers the template as llama.cpp's engine reads it (Llama): the body of
	// a filter or set block in the frame around it, a name a scope assigns read from
	// the render's variables until it does (scope.go: store), and no constant folded;
	// llamaDiffers records that one of them applies
	llama, llamaDiffers bool
	// macroReadsLoop: with llama, a macro of the template reads loop from outside, which
	// llama.cpp resolves in the scope it is called from (see forStmt)
	macroReadsLoop bool
}

// hard lowers the statements of a frame of their own (a loop's or macro's body, a
// block), where an unknown filter or test is a compile-time error even inside an if
// around them.
func (l *lowerer) hard(f *frame, nodes []syntax.Node) (out []Stmt) {
	l.softly(false, func() { out = l.stmts(f, nodes) })
	return out
}

// softly runs fn with soft set to on, then restores it.
func (l *lowerer) softly(on bool, fn func()) {
	saved := l.soft
	l.soft = on
	fn()
	l.soft = saved
}

// checkKnown fails, unless soft is set, for a filter or test (kind) Jinja2 does not
// have.
func (l *lowerer) checkKnown(p Pos, kind, name string, known bool) {
	if !known && !l.soft && !l.llama { // llama.cpp fails it only when it runs it
		l.fail(p, "No %s named '%s'.", kind, name)
	}
}

func (l *lowerer) newVar(name string) *Var {
	v := &Var{Name: name, ID: len(l.vars) + 1}
	l.vars = append(l.vars, v)
	return v
}

func (l *lowerer) fail(p Pos, format string, args ...any) {
	panic(&Error{Pos: p, Msg: fmt.Sprintf(format, args...)})
}

func (l *lowerer) stmts(f *frame, nodes []syntax.Node) []Stmt {
	var out []Stmt
	for _, n := range nodes {
		s := l.stmt(f, n)
		if s == nil {
			continue
		}
		// merge adjacent text
		if t, ok := s.(*Text); ok && len(out) > 0 {
			if prev, ok := out[len(out)-1].(*Text); ok {
				prev.Text += t.Text
				continue
			}
		}
		out = append(out, s)
	}
	return out
}

func (l *lowerer) stmt(f *frame, n syntax.Node) Stmt {
	p := n.Position()
	switch n := n.(type) {
	case *syntax.Data:
		return &Text{At{p}, n.Text}
	case *syntax.Print:
		if l.consts != nil {
			l.consts.root(n.X, true)
		}
		l.constPrint = isConstant(n.X)
		x := l.expr(f, n.X)
		l.constPrint = false
		if text, ok := constText(x); ok {
			return &Text{At{p}, text}
		}
		return &Print{At{p}, x}
	case *syntax.If:
		return l.ifStmt(f, n)
	case *syntax.For:
		return l.forStmt(f, n)
	case *syntax.Set:
		value := l.expr(f, n.Value)
		return &Assign{At{p}, l.target(f, n.Target), value}
	case *syntax.SetBlock:
		if l.llama { // llama.cpp: the body runs in the scope around it
			body := &Block{Scope: &Scope{Parent: f.scope}, Stmts: l.hard(f, n.Body)}
			return &Capture{At{p}, l.target(f, n.Target), body, l.filterChain(f, n.Filter)}
		}
		bf := l.newFrame(f)
		sv := symbolVisitor{bf}
		sv.stmts(n.Body)
		if n.Filter != nil {
			sv.filterArgs(n.Filter)
		}
		bf.finish(p)
		body := &Block{Scope: bf.scope, Stmts: l.hard(bf, n.Body)}
		return &Capture{At{p}, l.target(f, n.Target), body, l.filterChain(bf, n.Filter)}
	case *syntax.Macro:
		m := l.macro(f, p, n.Name, n.Params, n.Body)
		v := f.findRef(n.Name)
		v.Stores++
		return &MacroDef{At{p}, v, m}
	case *syntax.CallBlock:
		call := l.expr(f, n.Call).(*Call)
		return &CallBlock{At{p}, call, l.macro(f, p, "", n.Params, n.Body)}
	case *syntax.FilterBlock:
		if l.llama { // llama.cpp: the body runs in the scope around it
			body := &Block{Scope: &Scope{Parent: f.scope}, Stmts: l.hard(f, n.Body)}
			return &FilterBlock{At{p}, body, l.filterChain(f, n.Filter)}
		}
		ff := l.newFrame(f)
		sv := symbolVisitor{ff}
		sv.filterArgs(n.Filter)
		sv.stmts(n.Body)
		ff.finish(p)
		body := &Block{Scope: ff.scope, Stmts: l.hard(ff, n.Body)}
		return &FilterBlock{At{p}, body, l.filterChain(ff, n.Filter)}
	case *syntax.With:
		values := make([]Expr, len(n.Values))
		for i, x := range n.Values {
			values[i] = l.expr(f, x)
		}
		wf := l.newFrame(f)
		sv := symbolVisitor{wf}
		for _, t := range n.Targets {
			sv.target(t, true)
		}
		sv.stmts(n.Body)
		wf.finish(p)
		targets := make([]Target, len(n.Targets))
		for i, t := range n.Targets {
			targets[i] = l.target(wf, t)
		}
		return &With{At{p}, targets, values, &Block{Scope: wf.scope, Stmts: l.hard(wf, n.Body)}}
	case *syntax.Generation:
		return l.scoped(f, p, n.Body)
	case *syntax.Block:
		if b, ok := l.blocks[n.Name]; ok && b != n {
			l.fail(p, "block '%s' defined twice", n.Name)
		}
		l.blocks[n.Name] = n
		if n.Required {
			return &Fail{At{p}, "block", "RuntimeError", fmt.Sprintf("Required block '%s' not found", n.Name)}
		}
		if n.Scoped {
			// a scoped block sees the variables around it
			return l.scoped(f, p, n.Body)
		}
		return &With{At: At{p}, Body: l.block(f, p, n.Body)}
	case *syntax.Break:
		if l.loopDepth == 0 {
			l.fail(p, "'break' outside loop")
		}
		return &Break{At{p}}
	case *syntax.Continue:
		if l.loopDepth == 0 {
			l.fail(p, "'continue' not properly in loop")
		}
		return &Continue{At{p}}
	case *syntax.Unsupported:
		return &Fail{At{p}, n.Tag, "TypeError", fmt.Sprintf("no loader for this environment specified ({%% %s %%} needs a template loader)", n.Tag)}
	}
	l.fail(p, "unsupported statement %T", n)
	return nil
}

// constText returns what printing a literal writes, for the literals whose str() is
// plain (Jinja2 folds them into the template text too) and that llama.cpp writes the
// same: not none, which it writes as "".
func constText(x Expr) (string, bool) {
	c, ok := x.(*Const)
	if !ok {
		return "", false
	}
	switch v := c.Value.(type) {
	case string:
		return v, true
	case *big.Int:
		return v.String(), true
	case bool:
		if v {
			return "True", true
		}
		return "False", true
	}
	return "", false
}

// block lowers the body of a block that is not scoped, which Jinja2 compiles into a
// function of its own that looks its names up in the render's context: the variables of
// the loops and blocks around it are not its, and a name the template assigns at its top
// level is the value last assigned there (context.vars), or the context's own until then.
// Its frame is a template of its own, in the scope of f's for the Go it becomes.
func (l *lowerer) block(f *frame, p Pos, nodes []syntax.Node) *Block {
	root := f
	for root.parent != nil {
		root = root.parent
	}
	bf := l.newFrame(nil)
	bf.scope.Parent = f.scope
	symbolVisitor{bf}.stmts(nodes)
	bf.finish(p)
	var entry []Stmt
	for _, v := range bf.scope.Vars {
		if ctx, resolved := v.Init.(*Input); resolved && root.sym.stores[v.Name] {
			// the template's variable where a top-level assignment has set it (it is
			// undefined until then), else the context's: x|default(<the context's x>)
			v.Init = &Load{At{p}, root.variable(v.Name)}
			v.Loads++
			v.Stores++
			entry = append(entry, &Assign{At{p}, &VarTarget{At{p}, v},
				&Filter{At: At{p}, Name: "default", X: &Load{At{p}, v}, Args: Args{Args: []Expr{ctx}}}})
		}
	}
	depth := l.loopDepth
	l.loopDepth = 0
	defer func() { l.loopDepth = depth }()
	return &Block{Scope: bf.scope, Stmts: append(entry, l.hard(bf, nodes)...)}
}

// selfBlock returns the variable of the macro that renders the block x names, for
// self.NAME where self is Jinja2's reference to the template and NAME one of its
// blocks; nil for any other attribute. The first reference lowers the macro: a block
// that self.NAME() renders is a function Jinja2 calls with the render's context, in any
// scope (a scoped block too: the scope is where it is rendered in place).
func (l *lowerer) selfBlock(f *frame, x *syntax.Getattr) *Var {
	if name, ok := x.X.(*syntax.Name); !ok || name.Name != "self" {
		return nil
	}
	if v, vf := f.findRefFrame("self"); v != nil {
		if _, global := v.Init.(*Global); !global || vf.sym.stores["self"] {
			return nil // a variable of the template's own named self
		}
	}
	b := l.blockDefs[x.Attr]
	if b == nil {
		return nil
	}
	if v := l.selfBlocks[b.Name]; v != nil {
		return v
	}
	v := l.newVar("self." + b.Name)
	v.Init = &Undef{At{b.P}, v.Name}
	v.Stores++
	l.root.scope.Vars = append(l.root.scope.Vars, v)
	l.selfBlocks[b.Name] = v
	m := &Macro{At: At{b.P}, Name: b.Name}
	constPrint := l.constPrint
	l.constPrint = false
	m.Body = l.block(l.root, b.P, b.Body)
	l.constPrint = constPrint
	l.selfDefs = append(l.selfDefs, &MacroDef{At{b.P}, v, m})
	return v
}

// collectBlocks adds the blocks of nodes and of the statements in them to into, by name
// (the first of a name: Jinja2 refuses a second one).
func collectBlocks(nodes []syntax.Node, into map[string]*syntax.Block) {
	for _, n := range nodes {
		var body []syntax.Node // the statements n holds
		switch n := n.(type) {
		case *syntax.Block:
			if into[n.Name] == nil {
				into[n.Name] = n
			}
			body = n.Body
		case *syntax.If:
			for _, e := range n.Elifs {
				collectBlocks([]syntax.Node{e}, into)
			}
			collectBlocks(n.Else, into)
			body = n.Body
		case *syntax.For:
			collectBlocks(n.Else, into)
			body = n.Body
		case *syntax.SetBlock:
			body = n.Body
		case *syntax.Macro:
			body = n.Body
		case *syntax.CallBlock:
			body = n.Body
		case *syntax.FilterBlock:
			body = n.Body
		case *syntax.With:
			body = n.Body
		case *syntax.Generation:
			body = n.Body
		}
		collectBlocks(body, into)
	}
}

// scoped lowers a body that runs in a scope of its own.
func (l *lowerer) scoped(f *frame, p Pos, nodes []syntax.Node) Stmt {
	sf := l.newFrame(f)
	symbolVisitor{sf}.stmts(nodes)
	sf.finish(p)
	// Jinja2 compiles the body into a function of its own: a break or continue in it
	// is not in the loop around it
	depth := l.loopDepth
	l.loopDepth = 0
	defer func() { l.loopDepth = depth }()
	return &With{At: At{p}, Body: &Block{Scope: sf.scope, Stmts: l.hard(sf, nodes)}}
}

func (l *lowerer) ifStmt(f *frame, n *syntax.If) (out Stmt) {
	l.softly(true, func() { out = l.ifChain(f, n) })
	return out
}

func (l *lowerer) ifChain(f *frame, n *syntax.If) Stmt {
	s := &If{At: At{n.P}, Cond: l.expr(f, n.Test), Then: l.stmts(f, n.Body)}
	last := s
	for _, e := range n.Elifs {
		elif := &If{At: At{e.P}, Cond: l.expr(f, e.Test), Then: l.stmts(f, e.Body)}
		last.Else = []Stmt{elif}
		last = elif
	}
	last.Else, last.ElseAt = l.stmts(f, n.Else), n.ElsePos
	return s
}

func (l *lowerer) forStmt(f *frame, n *syntax.For) Stmt {
	p := n.P
	if targetNames(n.Target)["loop"] && !l.llama {
		l.fail(p, "Can't assign to special loop variable in for-loop target")
	}
	lf := l.newFrame(f)
	// Jinja2 gives a loop its loop variable when it is recursive, when its body reads
	// loop, or when a scoped block is in it (which sees the variables around it)
	extended := n.Recursive || undeclared(n.Body, "loop")["loop"] || hasScopedBlock(n)
	if !extended && l.macroReadsLoop {
		// llama.cpp: a macro called in the body reads this loop as its own loop
		extended = true
		l.llamaDiffers = true
	}
	if l.llama && targetNames(n.Target)["loop"] {
		// llama.cpp sets loop, then the target: the body's loop is the item
		extended = false
	}
	if extended {
		lf.declareParam("loop")
	}
	sv := symbolVisitor{lf}
	sv.target(n.Target, true)
	sv.stmts(n.Body)
	lf.finish(p)

	s := &For{At: At{p}, Iter: l.expr(f, n.Iter), Recursive: n.Recursive}
	if n.Test != nil {
		tf := l.newFrame(f)
		tv := symbolVisitor{tf}
		tv.target(n.Target, true)
		tv.expr(n.Test)
		tf.finish(p)
		s.FilterScope = tf.scope
		s.FilterTarget = l.target(tf, n.Target)
		l.softly(false, func() { s.Filter = l.expr(tf, n.Test) })
	}
	s.Target = l.target(lf, n.Target)
	if extended {
		s.Loop = lf.variable("loop")
	}
	l.loopDepth++
	s.Body = &Block{Scope: lf.scope, Stmts: l.hard(lf, n.Body)}
	l.loopDepth--
	if n.Else != nil {
		ef := l.newFrame(f)
		symbolVisitor{ef}.stmts(n.Else)
		ef.finish(p)
		s.Else = &Block{Scope: ef.scope, Stmts: l.hard(ef, n.Else)}
	}
	return s
}

func targetNames(t syntax.Expr) map[string]bool {
	names := map[string]bool{}
	var rec func(syntax.Expr)
	rec = func(t syntax.Expr) {
		switch t := t.(type) {
		case *syntax.Name:
			names[t.Name] = true
		case *syntax.Tuple:
			for _, it := range t.Items {
				rec(it)
			}
		}
	}
	rec(t)
	return names
}

// macro lowers a macro, or a call block's caller (name ""), into a function of its own
// frame, as Jinja2's macro_body does.
func (l *lowerer) macro(f *frame, p Pos, name string, params []syntax.Param, body []syntax.Node) *Macro {
	mf := l.newFrame(f)
	sv := symbolVisitor{mf}
	explicit := map[string]bool{}
	for _, prm := range params {
		if explicit[prm.Name] && !l.llama {
			// Jinja2 compiles this into a Python function with a duplicate argument,
			// which Python refuses
			l.fail(p, "duplicate argument %q in macro definition", prm.Name)
		}
		if !explicit[prm.Name] {
			mf.declareParam(prm.Name)
		}
		explicit[prm.Name] = true
	}
	// llama.cpp evaluates a macro's default in the scope of the call: symbolVisitor
	// reads it in the frame around the macro (see below)
	callScoped := l.llama && name != ""
	if !callScoped {
		for _, prm := range params {
			sv.expr(prm.Default)
		}
	}
	sv.stmts(body)
	m := &Macro{At: At{p}, Name: name}
	if name == "" {
		m.Name = "caller"
	}
	und := undeclared(body, "caller", "kwargs", "varargs")
	if und["caller"] {
		if explicit["caller"] {
			m.ExplicitCaller = true
			for _, prm := range params {
				if prm.Name == "caller" && prm.Default == nil && !l.llama {
					l.fail(p, "When defining macros or call blocks the special \"caller\" argument must be omitted or be given a default.")
				}
			}
		} else {
			mf.declareParam("caller")
		}
	}
	if und["kwargs"] && !explicit["kwargs"] {
		mf.declareParam("kwargs")
	}
	if und["varargs"] && !explicit["varargs"] {
		mf.declareParam("varargs")
	}
	mf.finish(p)
	last := map[string]int{} // the position of each name's last parameter
	for i, prm := range params {
		last[prm.Name] = i
	}
	for i, prm := range params {
		v := mf.variable(prm.Name)
		if last[prm.Name] != i {
			// a parameter named again (llama.cpp): the last binding wins, so this one
			// binds a variable nothing reads
			v = l.newVar(prm.Name)
		}
		m.Params = append(m.Params, v)
		if prm.Default != nil {
			df := mf
			if callScoped {
				// bind_parameters evaluates it in args.ctx, where the macro's parameters
				// are not
				df = f
				u := &undeclaredVisitor{want: maps.Clone(explicit), found: map[string]bool{}}
				u.node(prm.Default)
				l.llamaDiffers = l.llamaDiffers || len(u.found) > 0
			}
			m.Defaults = append(m.Defaults, l.expr(df, prm.Default))
		} else {
			m.Defaults = append(m.Defaults, nil)
		}
	}
	if und["caller"] && !explicit["caller"] {
		m.Caller = mf.variable("caller")
	}
	if und["kwargs"] && !explicit["kwargs"] {
		m.Kwargs = mf.variable("kwargs")
	}
	if und["varargs"] && !explicit["varargs"] {
		m.Varargs = mf.variable("varargs")
	}
	depth := l.loopDepth
	l.loopDepth = 0
	stmts := l.hard(mf, body)
	for _, prm := range params {
		if prm.Star { // only ParseLlama reads one
			// bind_parameters refuses a *name parameter (a spread_expression) at every
			// call, after the parameters before it
			stmts = []Stmt{&Fail{At{p}, "macro", "EngineError", fmt.Sprintf("Invalid parameter type in '%s'", m.Name)}}
			break
		}
	}
	m.Body = &Block{Scope: mf.scope, Stmts: stmts}
	l.loopDepth = depth
	return m
}

func (l *lowerer) filterChain(f *frame, fl *syntax.Filter) []*Filter {
	var chain []*Filter
	for fl != nil {
		l.softly(false, func() { l.checkKnown(fl.P, "filter", fl.Name, jinja2.Filters[fl.Name] != nil) })
		chain = append([]*Filter{{At: At{fl.P}, Name: fl.Name, Args: l.args(f, fl.Args)}}, chain...)
		fl, _ = fl.X.(*syntax.Filter)
	}
	return chain
}

func (l *lowerer) target(f *frame, t syntax.Expr) Target {
	p := t.Position()
	switch t := t.(type) {
	case *syntax.Name:
		v := f.findRef(t.Name)
		if v == nil {
			l.fail(p, "internal error: no variable %s", t.Name)
		}
		v.Stores++
		return &VarTarget{At{p}, v}
	case *syntax.NSRef:
		v := f.findRef(t.Name)
		if v == nil {
			l.fail(p, "internal error: no variable %s", t.Name)
		}
		v.Loads++
		return &AttrTarget{At{p}, v, t.Attr}
	case *syntax.Tuple:
		tt := &TupleTarget{At: At{p}}
		for _, it := range t.Items {
			tt.Items = append(tt.Items, l.target(f, it))
		}
		return tt
	}
	l.fail(p, "can't assign to %T", t)
	return nil
}

func (l *lowerer) args(f *frame, a syntax.Args) Args {
	var out Args
	for _, x := range a.Args {
		out.Args = append(out.Args, l.expr(f, x))
	}
	for _, kw := range a.Kwargs {
		out.Kwargs = append(out.Kwargs, Kwarg{kw.Name, l.expr(f, kw.Value), kw.PositionalAfter})
	}
	if a.DynArgs != nil {
		out.DynArgs = l.expr(f, a.DynArgs)
	}
	if a.DynKwargs != nil {
		out.DynKwargs = l.expr(f, a.DynKwargs)
	}
	return out
}

func (l *lowerer) exprs(f *frame, xs []syntax.Expr) []Expr {
	out := make([]Expr, len(xs))
	for i, x := range xs {
		out[i] = l.expr(f, x)
	}
	return out
}

// isConstant reports whether x is built of constants only, as Jinja2's as_const
// evaluates it: literals, displays, subscripts, attributes, operators, tests and
// inline ifs.
func isConstant(x syntax.Expr) bool {
	switch x := x.(type) {
	case nil, *syntax.Const:
		return true
	case *syntax.Tuple:
		return allConstant(x.Items)
	case *syntax.List:
		return allConstant(x.Items)
	case *syntax.Getitem:
		return isConstant(x.X) && isConstant(x.Arg)
	case *syntax.Slice:
		return isConstant(x.Start) && isConstant(x.Stop) && isConstant(x.Step)
	case *syntax.Getattr:
		return isConstant(x.X)
	case *syntax.Unary:
		return isConstant(x.X)
	case *syntax.Binary:
		return isConstant(x.L) && isConstant(x.R)
	case *syntax.Concat:
		return allConstant(x.Items)
	case *syntax.Compare:
		for _, op := range x.Ops {
			if !isConstant(op.X) {
				return false
			}
		}
		return isConstant(x.X)
	case *syntax.Test:
		return isConstant(x.X) && len(x.Kwargs) == 0 && x.DynArgs == nil && x.DynKwargs == nil && allConstant(x.Args.Args)
	case *syntax.CondExpr:
		return isConstant(x.Test) && isConstant(x.Then) && isConstant(x.Else)
	}
	return false
}

// allConstant reports whether every one of xs is constant (isConstant).
func allConstant(xs []syntax.Expr) bool {
	for _, x := range xs {
		if !isConstant(x) {
			return false
		}
	}
	return true
}

// negated is -x at p, folded when x is a number literal.
func negated(p Pos, x Expr) Expr {
	if c, ok := x.(*Const); ok {
		switch v := c.Value.(type) {
		case *big.Int:
			return &Const{At{p}, new(big.Int).Neg(v)}
		case float64:
			return &Const{At{p}, -v}
		}
	}
	return &Unary{At{p}, syntax.OpNeg, x}
}

// isNumber reports whether c is an int or float literal.
func isNumber(c *Const) bool {
	switch c.Value.(type) {
	case *big.Int, float64:
		return true
	}
	return false
}

// foldsUndefined reports whether Jinja2 folds the slice s into an undefined value: a
// slice with constant bounds of a constant that is not a str.
func foldsUndefined(s *Slice) bool {
	c, ok := s.X.(*Const)
	if !ok {
		return false
	}
	if _, isStr := c.Value.(string); isStr {
		return false
	}
	for _, b := range []Expr{s.Start, s.Stop, s.Step} {
		if _, isConst := b.(*Const); b != nil && !isConst {
			return false
		}
	}
	return true
}

func (l *lowerer) expr(f *frame, x syntax.Expr) Expr {
	if x == nil {
		return nil
	}
	if l.consts == nil {
		return l.lowerExpr(f, x)
	}
	if !l.consts.seen[x] {
		l.consts.root(x, false) // an expression of a statement, not of a {{ }}
	}
	e := l.lowerExpr(f, x)
	if name := l.consts.names[x]; name != "" {
		return &Unspelled{At{x.Position()}, e, name}
	}
	return e
}

// lowerExpr lowers x.
func (l *lowerer) lowerExpr(f *frame, x syntax.Expr) Expr {
	p := x.Position()
	switch x := x.(type) {
	case *syntax.Name:
		v, vf := f.findRefFrame(x.Name)
		if v == nil {
			return resolveName(p, x.Name)
		}
		if g, ok := v.Init.(*Global); ok && !vf.sym.stores[x.Name] {
			// a global function the template never reassigns: refer to it directly
			return &Global{At{p}, g.Name}
		}
		v.Loads++
		return &Load{At{p}, v}
	case *syntax.Const:
		return &Const{At{p}, x.Value}
	case *syntax.Tuple:
		return &Tuple{At{p}, l.exprs(f, x.Items)}
	case *syntax.List:
		return &List{At{p}, l.exprs(f, x.Items)}
	case *syntax.Dict:
		d := &Dict{At: At{p}}
		for _, it := range x.Items {
			d.Keys = append(d.Keys, l.expr(f, it.Key))
			d.Values = append(d.Values, l.expr(f, it.Value))
		}
		return d
	case *syntax.Getattr:
		if v := l.selfBlock(f, x); v != nil {
			v.Loads++
			return &Load{At{p}, v}
		}
		if l.llama && x.Attr[0] >= '0' && x.Attr[0] <= '9' {
			// x.0 (ParseLlama): member_expression::execute_impl evaluates x, then
			// refuses a property that is no name
			return &Invalid{At{p}, l.expr(f, x.X), "Static member property must be an identifier"}
		}
		return &Attr{At{p}, l.expr(f, x.X), x.Attr}
	case *syntax.Getitem:
		obj := l.expr(f, x.X)
		if s, ok := x.Arg.(*syntax.Slice); ok {
			sl := &Slice{At{p}, obj, l.expr(f, s.Start), l.expr(f, s.Stop), l.expr(f, s.Step)}
			if l.constPrint && foldsUndefined(sl) {
				if l.llama {
					l.llamaDiffers = true // llama.cpp folds nothing: the slice fails
					return sl
				}
				// Jinja2 evaluates a constant {{ }} when it compiles it, subscripting
				// through the sandbox's getitem, which makes the TypeError of slicing a
				// number, a bool or None an undefined value (at run time, and outside
				// a {{ }}, slicing one raises it)
				return &Undef{At{p}, "slice of a constant"}
			}
			return sl
		}
		return &Item{At{p}, obj, l.expr(f, x.Arg)}
	case *syntax.Slice:
		// a slice inside a tuple subscript such as x[1:2, 3]: Python builds a tuple of
		// slice objects, which no template value accepts as a key
		return &Call{At: At{p}, Fn: &Undef{At{p}, "slice inside a tuple subscript"}}
	case *syntax.Call:
		return &Call{At{p}, l.expr(f, x.Fn), l.args(f, x.Args)}
	case *syntax.Filter:
		l.checkKnown(p, "filter", x.Name, jinja2.Filters[x.Name] != nil)
		return &Filter{At{p}, x.Name, l.expr(f, x.X), l.args(f, x.Args)}
	case *syntax.Test:
		l.checkKnown(p, "test", x.Name, jinja2.Tests[x.Name] != nil)
		return &Test{At{p}, x.Name, l.expr(f, x.X), l.args(f, x.Args)}
	case *syntax.Unary:
		operand := l.expr(f, x.X)
		if c, ok := operand.(*Const); ok && isNumber(c) && (x.Op == syntax.OpNeg || x.Op == syntax.OpPos) {
			// fold the sign of a number literal, as Jinja2's optimizer does
			if x.Op == syntax.OpNeg {
				return negated(p, operand)
			}
			return &Const{At{p}, c.Value}
		}
		return &Unary{At{p}, x.Op, operand}
	case *syntax.Binary:
		if l.consts != nil && l.consts.negBases[x] {
			// Jinja2's Python reads a folded negative base with its sign: -(7 ** y)
			pow := &Binary{At{p}, x.Op, negated(x.L.Position(), l.expr(f, x.L)), l.expr(f, x.R), x.ConcatR}
			return &Unary{At{p}, syntax.OpNeg, pow}
		}
		return &Binary{At{p}, x.Op, l.expr(f, x.L), l.expr(f, x.R), x.ConcatR}
	case *syntax.Concat:
		return &Concat{At{p}, l.exprs(f, x.Items)}
	case *syntax.Compare:
		c := &Compare{At: At{p}, X: l.expr(f, x.X)}
		for _, op := range x.Ops {
			c.Ops = append(c.Ops, op.Op)
			c.Ys = append(c.Ys, l.expr(f, op.X))
		}
		return c
	case *syntax.CondExpr:
		var c *Cond
		l.softly(true, func() { c = &Cond{At{p}, l.expr(f, x.Test), l.expr(f, x.Then), l.expr(f, x.Else)} })
		return c
	case *syntax.NSRef:
		l.fail(p, "namespace attribute reference outside an assignment")
	}
	l.fail(p, "unsupported expression %T", x)
	return nil
}
