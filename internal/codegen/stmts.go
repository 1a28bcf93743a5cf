package codegen

import (
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/tmplgen/tmplgen/internal/ir"
	"github.com/tmplgen/tmplgen/internal/llamacpp"
)

// Statements: text, prints, if, for, set, macros and blocks, each as Go statements.

// stmts generates a list of statements, with the read chains the list shares held in
// Go variables (reads.go) and its runs of writes holding the output (writes.go): the
// statements of one Go block.
func (g *gen) stmts(ss []ir.Stmt) []jen.Code { return g.joinWrites(g.stmtList(ss)) }

// stmtList is stmts without the runs of writes, for a caller that joins the lists of
// several into one Go block.
func (g *gen) stmtList(ss []ir.Stmt) []jen.Code {
	held, outerCounts := g.reads.copy(), g.counts
	g.counts = map[string]int{}
	g.countChains(ss, g.counts, 1)
	var code []jen.Code
	for _, s := range ss {
		if s == ir.Stmt(g.generationPrompt) {
			code = append(code, generationPromptMark("nothing before depends on add_generation_prompt")...)
		}
		code = append(code, g.stmt(s)...)
		g.countChains([]ir.Stmt{s}, g.counts, -1)
		g.reads.forget(assignedVars(s))
	}
	g.reads, g.counts = held, outerCounts
	for _, s := range ss {
		g.reads.forget(assignedVars(s))
	}
	return code
}

func (g *gen) stmt(s ir.Stmt) []jen.Code {
	switch s := s.(type) {
	case *ir.Text:
		text := s.Text
		if g.llama && s.P.Line == 1 && s.P.Col == 1 {
			if lost := llamaLostText(g.t.Source); lost != "" && strings.HasPrefix(text, lost) {
				text = text[len(lost):]
				g.variants++
			}
		}
		if text == "" {
			return nil
		}
		return []jen.Code{g.textWrite(text)}
	case *ir.Print:
		// Jinja2's traceback names the line of the printed expression's node (of its
		// last + or |, say), which is not the {{'s when it spans lines
		st := site{pos: s.P, construct: ir.Construct(s)}
		if x := s.X.Position(); x.Line > 0 && x.Line != s.P.Line {
			st.report = x
		}
		code := append(g.atSite(st, ""), g.hoist(s.X)...)
		return append(code, g.print(s.X)...)
	case *ir.If:
		code := append(g.at(s.P, ir.Construct(s)), g.hoist(s.Cond)...)
		return append(code, g.ifStmt(s))
	case *ir.For:
		code := append(g.at(s.P, ir.Construct(s)), g.hoist(s.Iter)...)
		return append(code, g.forStmt(s)...)
	case *ir.Assign:
		if l, ok := s.Value.(*ir.Load); ok {
			if vt, isVar := s.Target.(*ir.VarTarget); isVar && l.Var == vt.Var {
				return []jen.Code{jen.Comment(g.cite(s.P) + " (assigns a variable to itself)")}
			}
		}
		var code []jen.Code
		if t, ok := s.Target.(*ir.AttrTarget); ok && g.namespaces[t.NS] == nil {
			// Jinja2 checks that the target is a namespace before its value runs, and
			// before it marks the statement's line: its traceback names the statement
			// before
			code = g.atSite(site{pos: s.P, construct: ir.Construct(s), report: g.lastSite}, " (the namespace check)")
			code = append(code, g.op("CheckNamespace").Call(g.load(t.NS)))
		}
		code = append(append(code, g.at(s.P, ir.Construct(s))...), g.hoist(s.Value)...)
		return append(code, g.assign(s.Target, s.Value)...)
	case *ir.Capture:
		if g.llama && len(s.Filters) > 0 {
			code, v := g.capture(s, s.Body, nil)
			return append(append(code, jen.Comment("llama.cpp: the filter of a set block is read as part of its target, which it cannot assign")),
				rt("Fail").Call(llama("EngineError"), jen.Lit(llamacpp.SetBlockFilterError), v))
		}
		code, v := g.capture(s, s.Body, s.Filters)
		return append(code, g.store(s.Target, v)...)
	case *ir.MacroDef:
		if g.macros.Called[s.Var] {
			return append(g.at(s.P, ir.Construct(s)), g.macroFunc(s)...)
		}
		if !g.needed[s.Var] {
			return []jen.Code{jen.Comment(g.cite(s.P) + " (never called)")}
		}
		return append(g.at(s.P, ir.Construct(s)), jen.Id(g.varName(s.Var)).Op("=").Add(g.macro(s, s.Macro)))
	case *ir.CallBlock:
		call := *s.Call
		call.Kwargs = append(append([]ir.Kwarg(nil), call.Kwargs...), ir.Kwarg{Name: "caller", Value: &macroExpr{s.Caller}})
		if c, ok := g.macros.ValueCalls[s.Call]; ok {
			g.macros.ValueCalls[&call] = c // the call with its caller is the same call
		}
		return append(g.at(s.P, ir.Construct(s)), jen.Id("w").Dot("Write").Call(g.value(&call)))
	case *ir.FilterBlock:
		code, v := g.capture(s, s.Body, s.Filters)
		return append(code, g.direct("WriteFilterBlock").Call(jen.Id("w"), v))
	case *ir.With:
		// Jinja2 marks no template line for a with's values: an error in them is
		// reported at the statement before the with, as Jinja2's traceback reports it
		cite := g.atSite(site{pos: s.P, construct: ir.Construct(s), report: g.lastSite}, "")
		var code []jen.Code
		for i, t := range s.Targets {
			code = append(code, g.storeNew(t, g.value(s.Values[i]))...)
		}
		code = append(code, g.block(s.Body)...)
		return append(cite, jen.Block(code...))
	case *ir.Break:
		return append(g.dropCaptures(), jen.Break())
	case *ir.Continue:
		return append(g.dropCaptures(), jen.Continue())
	case *ir.Fail:
		return append(g.at(s.P, ir.Construct(s)), rt("Fail").Call(failKind(s.Kind), jen.Lit(s.Msg)))
	}
	panic(fmt.Sprintf("codegen: unknown statement %T", s))
}

// capture renders a block (of a set block or filter block) into the output and cuts it
// back out: it returns the code and the text with the filters applied.
func (g *gen) capture(s ir.Stmt, body *ir.Block, filters []*ir.Filter) ([]jen.Code, *jen.Statement) {
	mark := g.allocLocal("mark", "")
	code := g.at(s.Position(), ir.Construct(s))
	code = append(code, jen.Id(mark).Op(":=").Id("w").Dot("Mark").Call())
	sites := len(g.sites)
	g.captures = append(g.captures, mark)
	code = append(code, g.block(body)...)
	g.captures = g.captures[:len(g.captures)-1]
	if len(g.sites) > sites {
		// the body's statements cited their own lines: what follows is the block's again
		code = append(code, g.at(s.Position(), ir.Construct(s))...)
	}
	v := jen.Id("w").Dot("Cut").Call(jen.Id(mark))
	for _, f := range filters {
		v = g.filterCall(f, v)
	}
	return code, v
}

// dropCaptures returns what a break or continue does first inside set or filter blocks
// of the loop: drop their text, as Jinja2 does.
func (g *gen) dropCaptures() []jen.Code {
	if len(g.captures) == g.loopCaptures {
		return nil
	}
	return []jen.Code{jen.Id("w").Dot("Drop").Call(jen.Id(g.captures[g.loopCaptures]))}
}

// loopBlock returns a loop body: its block, in which a break or continue drops what the
// set and filter blocks around it in the loop wrote (dropCaptures). With llama.cpp's
// semantics it also drops what the loop body's statement it is in wrote: llama.cpp keeps
// a statement's output only once the statement has run to its end; and the body's
// variables are not declared in it (see forLoop).
func (g *gen) loopBlock(b *ir.Block) []jen.Code {
	outerCaptures := g.loopCaptures
	g.loopCaptures = len(g.captures)
	defer func() { g.loopCaptures = outerCaptures }()
	if !g.llama {
		return g.block(b)
	}
	var code []jen.Code
	for _, s := range b.Stmts {
		if !hasLoopControl(s) {
			code = append(code, g.stmtList([]ir.Stmt{s})...)
			continue
		}
		g.variants++
		mark := g.allocLocal("mark", "")
		code = append(code, jen.Id(mark).Op(":=").Id("w").Dot("Mark").Call())
		g.captures = append(g.captures, mark)
		code = append(code, g.stmtList([]ir.Stmt{s})...)
		g.captures = g.captures[:len(g.captures)-1]
	}
	return g.joinWrites(code)
}

// hasLoopControl reports whether a break or continue of the loop around s is in s.
func hasLoopControl(s ir.Stmt) bool {
	found := false
	ir.Inspect([]ir.Stmt{s}, func(n any) bool {
		switch n.(type) {
		case *ir.Break, *ir.Continue:
			found = true
		case *ir.For, *ir.MacroDef:
			return false // its loop controls are its own
		}
		return !found
	})
	return found
}

// block returns a scope's declarations followed by its statements.
func (g *gen) block(b *ir.Block) []jen.Code {
	return append(g.scopeDecls(b.Scope), g.stmts(b.Stmts)...)
}

// print writes an expression; an inline if becomes an if statement.
func (g *gen) print(x ir.Expr) []jen.Code {
	if c, ok := x.(*ir.Cond); ok {
		then := g.print(c.Then)
		var els []jen.Code
		if c.Else != nil {
			els = g.print(c.Else)
		}
		if len(els) == 0 {
			return []jen.Code{jen.If(g.cond(c.Test)).Block(then...)}
		}
		return []jen.Code{jen.If(g.cond(c.Test)).Block(then...).Else().Block(els...)}
	}
	var shape []jen.Code // the comment saying why the llama.cpp function writes x otherwise
	if b, ok := x.(*ir.Binary); ok && g.llama {
		if c, ok := ir.LlamaConcat(b); ok {
			x = c
			shape = append(shape, jen.Comment("llama.cpp: ~ has the precedence of +, so a + b ~ c is (a + b) ~ c"))
		}
	}
	switch x := x.(type) {
	case *ir.Binary:
		if _, ok := g.intValue(x); ok || x.Op != "+" {
			break // a count is written as the value's str()
		}
		// a + b + c written operand by operand, not summed first
		operands := addOperands(x)
		if _, first := strConst(operands[0]); !first || g.markup {
			return []jen.Code{g.direct("WriteAdd").Call(append([]jen.Code{jen.Id("w")}, g.values(operands)...)...)}
		}
		// 'text' + v + ...: a sum of strs (Python's + requires it; llama.cpp's joins
		// what follows a str in its string form) with no Markup in this template to
		// escape them, so each operand can be written as it comes
		return g.writeOperands(nil, operands, "WriteStr")
	case *ir.Concat:
		// a ~ b ~ c written operand by operand: the str() of each
		write := "Write"
		if g.llama {
			if _, first := strConst(x.Items[0]); !first {
				shape = append(shape, jen.Comment("llama.cpp: ~ checks the types of its first operands, so the chain is checked before it is written"))
				return append(shape, g.op("WriteConcat").Call(append([]jen.Code{jen.Id("w")}, g.values(x.Items)...)...))
			}
			write = "WriteStr" // llama.cpp's ~ joins what follows a str as its + does
		}
		return g.writeOperands(shape, x.Items, write)
	case *ir.Call:
		if c, ok := g.macros.Direct[x]; ok && !g.macros.Recursive[c.Macro.Var] {
			// the macro writes into the output itself
			return []jen.Code{g.callMacroFunc(x, c)}
		}
	}
	return append(shape, g.writeOperand(x, "Write"))
}

// writeOperands appends to code the writes of an output's operands in turn, adjacent str
// literals as one (nothing runs between them).
func (g *gen) writeOperands(code []jen.Code, operands []ir.Expr, write string) []jen.Code {
	for i := 0; i < len(operands); i++ {
		s, ok := strConst(operands[i])
		if !ok {
			code = append(code, g.writeOperand(operands[i], write))
			continue
		}
		for i+1 < len(operands) {
			next, ok := strConst(operands[i+1])
			if !ok {
				break
			}
			s += next
			i++
		}
		if s != "" {
			code = append(code, g.textWrite(s))
		}
	}
	return code
}

// writeOperand writes one operand of an output: a str literal as it is, x | tojson
// encoded straight into the output (it is a str), anything else with write
// (WriteStr for an operand of a sum of strs, Write for the str() of a value).
func (g *gen) writeOperand(x ir.Expr, write string) jen.Code {
	if s, ok := strConst(x); ok {
		return g.textWrite(s)
	}
	if f, ok := x.(*ir.Filter); ok && f.Name == "tojson" {
		args, kwargs := g.args(f.Args)
		return g.direct("WriteJSON").Call(jen.Id("w"), g.value(f.X), args, kwargs)
	}
	return g.valueWrite(write, x)
}

// isReversal reports whether x is y[::-1].
func isReversal(x ir.Expr) bool {
	sl, ok := x.(*ir.Slice)
	if !ok || sl.Start != nil || sl.Stop != nil {
		return false
	}
	c, ok := sl.Step.(*ir.Const)
	if !ok {
		return false
	}
	n, ok := c.Value.(*big.Int)
	return ok && n.IsInt64() && n.Int64() == -1
}

// addOperands flattens a left-associated chain of + into its operands.
func addOperands(x ir.Expr) []ir.Expr {
	if b, ok := x.(*ir.Binary); ok && b.Op == "+" {
		if l, ok := b.L.(*ir.Binary); ok && l.ConcatR {
			return []ir.Expr{b.L, b.R} // llama.cpp reads a + b ~ c + d as ((a + b) ~ c) + d
		}
		return append(addOperands(b.L), b.R)
	}
	return []ir.Expr{x}
}

// ifStmt compiles an if statement. Each elif becomes an else if whose block starts with
// the comment citing it, which makes the whole else if (its condition included) the
// elif's span; an else block starts with the comment citing its tag.
func (g *gen) ifStmt(s *ir.If) jen.Code {
	st := jen.If(g.cond(s.Cond)).Block(g.stmts(s.Then)...)
	for len(s.Else) == 1 && s.ElseAt == (ir.Pos{}) {
		elif, ok := s.Else[0].(*ir.If)
		if !ok {
			break
		}
		body := append(g.atSite(site{pos: elif.P, construct: ir.Construct(elif), elif: true}, ""), g.stmts(elif.Then)...)
		st.Else().If(g.cond(elif.Cond)).Block(body...)
		s = elif
	}
	if len(s.Else) > 0 {
		var body []jen.Code
		if s.ElseAt != (ir.Pos{}) {
			body = append(body, jen.Comment(g.cite(s.ElseAt)))
		}
		st.Else().Block(append(body, g.stmts(s.Else)...)...)
	}
	return st
}

func (g *gen) forStmt(s *ir.For) []jen.Code {
	if s.Recursive && s.Loop != nil && g.needed[s.Loop] {
		return g.recursiveFor(s)
	}
	if code := g.itemsFor(s); code != nil {
		return code
	}
	return g.forLoop(s, g.value(s.Iter), nil)
}

// recursiveFor compiles a recursive for loop whose body reads the loop variable: the
// loop (with its else block) becomes a Go closure over an iterable and a depth, which
// runs it at depth 1 and which loop(x) calls to render the body over x one level deeper.
func (g *gen) recursiveFor(s *ir.For) []jen.Code {
	fn, iter, depth := g.allocLocal("recurse", ""), g.alloc("iter"), g.alloc("depth")
	rec := &recursion{fn: fn, depth: depth}
	restore := g.freshReads()
	body := g.forLoop(s, jen.Id(iter), rec)
	restore()
	return []jen.Code{
		jen.Var().Id(fn).Func().Params(valueType(), jen.Int()),
		jen.Id(fn).Op("=").Func().Params(jen.Id(iter).Add(valueType()), jen.Id(depth).Int()).Block(body...),
		jen.Id(fn).Call(g.value(s.Iter), jen.Lit(1)),
	}
}

// itemsFor compiles {% for k, v in x.items() %} (or x|items, x|dictsort) to a loop over
// the keys and values, without building a tuple for each pair. It does so for loops
// without else or inline if, whose loop variable, if any, is only asked for its
// position (loop.index, loop.last...); it returns nil for any other loop.
func (g *gen) itemsFor(s *ir.For) []jen.Code {
	tt, isTuple := s.Target.(*ir.TupleTarget)
	if !isTuple || len(tt.Items) != 2 || s.Else != nil || s.Filter != nil || s.Recursive {
		return nil
	}
	key, ok1 := tt.Items[0].(*ir.VarTarget)
	val, ok2 := tt.Items[1].(*ir.VarTarget)
	if !ok1 || !ok2 {
		return nil
	}
	pairs := g.pairs(s.Iter)
	if pairs == nil {
		return nil
	}
	withLoop := s.Loop != nil && g.needed[s.Loop]
	if withLoop && !onlyPositionsOf(s.Loop, s.Body) {
		return nil
	}
	keys, vals := g.allocLocal("keys", ""), g.allocLocal("values", "")
	code := []jen.Code{jen.List(jen.Id(keys), jen.Id(vals)).Op(":=").Add(pairs)}
	i := g.allocLocal("i", "int")
	if withLoop {
		g.positions[s.Loop] = position{index: i, items: keys}
	}
	var body []jen.Code
	body = append(body, g.storeNew(key, jen.Id(keys).Index(jen.Id(i)))...)
	body = append(body, g.storeNew(val, jen.Id(vals).Index(jen.Id(i)))...)
	body = append(body, g.loopBlock(s.Body)...)
	head := jen.For(jen.Id(i).Op(":=").Range().Id("w").Dot("Count").Call(jen.Len(jen.Id(keys))))
	return append(code, head.Block(body...))
}

// pairs returns the runtime call giving the keys and values of x.items(), x|items or
// x|dictsort(...), or nil for another iterable (and in the llama.cpp function).
func (g *gen) pairs(x ir.Expr) *jen.Statement {
	fn, recv, args, ok := pairsOf(x)
	if !ok || g.llama {
		return nil // llama.cpp's items of none or undefined are empty
	}
	if fn == "DictsortPairs" {
		args, kwargs := g.args(*args)
		return rt(fn).Call(g.value(recv), args, kwargs)
	}
	return rt(fn).Call(g.value(recv))
}

// pairsOf matches x.items(), x|items and x|dictsort(...): the function giving their keys
// and values, the value they are of and dictsort's arguments.
func pairsOf(x ir.Expr) (fn string, recv ir.Expr, args *ir.Args, ok bool) {
	switch x := x.(type) {
	case *ir.Call:
		attr, ok := x.Fn.(*ir.Attr)
		if ok && attr.Name == "items" && len(x.Args.Args)+len(x.Args.Kwargs) == 0 && x.DynArgs == nil && x.DynKwargs == nil {
			return "DictItems", attr.X, nil, true
		}
	case *ir.Filter:
		switch x.Name {
		case "items":
			if len(x.Args.Args)+len(x.Args.Kwargs) == 0 && x.DynArgs == nil && x.DynKwargs == nil {
				return "ItemsFilterPairs", x.X, nil, true
			}
		case "dictsort":
			return "DictsortPairs", x.X, &x.Args, true
		}
	}
	return "", nil, nil, false
}

// position is a loop variable that is only asked for its position (loop.index,
// loop.last...): the loop runs over a Go slice, and each attribute is computed from the
// index into it.
type position struct {
	index string // the Go variable of loop.index0
	items string // the Go slice of the loop's items
}

// attr compiles loop.<name> for one of loopPositions, as a value.
func (p position) attr(name string) *jen.Statement {
	i, n := jen.Id(p.index), jen.Len(jen.Id(p.items))
	switch name {
	case "first", "last":
		return rt("Bool").Call(p.test(name))
	case "index0":
		return rt("SmallInt").Call(jen.Int64().Call(i))
	case "index":
		return rt("SmallInt").Call(jen.Int64().Call(i.Op("+").Lit(1)))
	case "length":
		return rt("SmallInt").Call(jen.Int64().Call(n))
	case "revindex":
		return rt("SmallInt").Call(jen.Int64().Call(n.Op("-").Add(i)))
	case "revindex0":
		return rt("SmallInt").Call(jen.Int64().Call(n.Op("-").Add(i).Op("-").Lit(1)))
	case "depth":
		return rt("SmallInt").Call(jen.Lit(1))
	case "depth0":
		return rt("SmallInt").Call(jen.Lit(0))
	}
	panic("codegen: loop." + name + " is not a position")
}

// cond compiles loop.first or loop.last as a Go bool (parenthesized, for negating).
func (p position) cond(name string) *jen.Statement {
	return jen.Parens(p.test(name))
}

// test compiles loop.first or loop.last as a Go comparison.
func (p position) test(name string) *jen.Statement {
	if name == "first" {
		return jen.Id(p.index).Op("==").Lit(0)
	}
	return jen.Id(p.index).Op("==").Len(jen.Id(p.items)).Op("-").Lit(1)
}

// loopPositions are the attributes of the loop variable that depend only on the
// position in the loop.
var loopPositions = map[string]bool{
	"index": true, "index0": true, "first": true, "last": true, "length": true,
	"revindex": true, "revindex0": true, "depth": true, "depth0": true,
}

// onlyPositionsOf reports whether every use of the loop variable in the body asks for
// one of loopPositions.
func onlyPositionsOf(loop *ir.Var, body *ir.Block) bool {
	ok := true
	ir.Inspect(body.Stmts, func(n any) bool {
		if a, isAttr := n.(*ir.Attr); isAttr {
			if l, isLoad := a.X.(*ir.Load); isLoad && l.Var == loop {
				ok = ok && loopPositions[a.Name]
				return false
			}
		}
		if l, isLoad := n.(*ir.Load); isLoad && l.Var == loop {
			ok = false
		}
		return ok
	})
	for _, v := range body.Scope.Vars {
		if l, isLoad := v.Init.(*ir.Load); isLoad && l.Var == loop {
			ok = false
		}
	}
	return ok
}

// recursion names the closure and the depth parameter of a recursive loop.
type recursion struct{ fn, depth string }

// forLoop compiles a for loop over iter; rec is set for the body of a recursive loop.
func (g *gen) forLoop(s *ir.For, iter jen.Code, rec *recursion) []jen.Code {
	var code []jen.Code
	iterated := ""
	if s.Else != nil {
		iterated = g.allocLocal("iterated", "bool")
		code = append(code, jen.Id(iterated).Op(":=").False())
	}
	var body []jen.Code
	var loopHead jen.Code
	reversed := rec == nil && isReversal(s.Iter)
	if reversed {
		// for x in y[::-1] visits y backwards, without building the reversed list
		iter = g.value(s.Iter.(*ir.Slice).X)
	}
	if _, several := s.Target.(*ir.TupleTarget); several && g.llama {
		code = append(code, jen.Comment("llama.cpp: a for loop of several names takes a dict's items as (key, value) pairs"))
		iter = llama("Pairs").Call(iter)
	}
	// llama.cpp's for loop refuses a str: llamacpp.Iterate checks it, and the other
	// loops check it first (checked)
	checked := iter
	if g.llama {
		if _, _, _, ok := pairsOf(s.Iter); ok {
			code = append(code, jen.Comment("llama.cpp: items() of none or undefined is empty, so the loop takes the pairs as they come"))
		}
		checked = g.op("Iterable").Call(iter)
		// llama.cpp runs every iteration in one scope, which starts as a copy of the
		// scope around the loop: what one iteration assigns, the next one sees
		if decls := g.scopeDecls(s.Body.Scope); len(decls) > 0 {
			code = append(code, jen.Comment("llama.cpp: every iteration runs in one scope, a copy of the scope around the loop"))
			code = append(code, decls...)
		}
	}
	withLoop := s.Loop != nil && g.needed[s.Loop]
	useLoop := withLoop || s.Filter != nil || rec != nil || reversed
	if (withLoop || reversed) && s.Filter == nil && rec == nil && (!withLoop || onlyPositionsOf(s.Loop, s.Body) && !g.passed[s.Loop]) {
		// loop.index and the like: the position in a slice of the items
		items, i := g.allocLocal("items", ""), g.allocLocal("i", "int")
		if withLoop {
			g.positions[s.Loop] = position{index: i, items: items}
		}
		iterate, item := "Iterate", jen.Id(items).Index(jen.Id(i))
		if reversed {
			// the i-th item of y[::-1] is the i-th from the end of y
			iterate, item = "IterateReversed", jen.Id(items).Index(jen.Len(jen.Id(items)).Op("-").Lit(1).Op("-").Id(i))
		}
		code = append(code, jen.Id(items).Op(":=").Add(g.direct(iterate).Call(jen.Id("w"), iter)))
		loopHead = jen.For(jen.Id(i).Op(":=").Range().Id(items))
		body = append(body, g.storeNew(s.Target, item)...)
	} else if useLoop {
		name := "loop"
		if s.Loop != nil && g.needed[s.Loop] {
			name = g.varName(s.Loop)
			g.localTypes[name] = ""
			g.loops[s.Loop] = true
		} else {
			name = g.allocLocal("loop", "")
		}
		filter := jen.Nil()
		if s.Filter != nil {
			restore := g.freshReads()
			item := g.alloc("item")
			fbody := g.scopeDecls(s.FilterScope)
			fbody = append(g.storeNew(s.FilterTarget, jen.Id(item)), fbody...)
			fbody = append(fbody, jen.Return(g.cond(s.Filter)))
			restore()
			filter = jen.Func().Params(jen.Id(item).Add(valueType())).Bool().Block(fbody...)
		}
		g.keepsWriter = true // the loop object holds it
		if rec != nil {
			newLoop := rt("NewRecursiveLoop").Call(jen.Id("w"), checked, filter, jen.Id(rec.depth), jen.Id(rec.fn))
			loopHead = jen.For(jen.Id(name).Op(":=").Add(newLoop), jen.Id(name).Dot("Next").Call(), jen.Empty())
		} else {
			// the loop's state is a variable of its own (no allocation unless it escapes)
			start := "Start"
			if reversed {
				start = "StartReversed"
			}
			code = append(code, jen.Var().Id(name).Qual(Jinja2Path, "Loop"))
			loopHead = jen.For(jen.Id(name).Dot(start).Call(jen.Id("w"), checked, filter), jen.Id(name).Dot("Next").Call(), jen.Empty())
		}
		body = append(body, g.storeNew(s.Target, jen.Id(name).Dot("Item").Call())...)
	} else {
		items := g.direct("Iterate").Call(jen.Id("w"), iter)
		if vt, ok := s.Target.(*ir.VarTarget); ok && !g.needed[vt.Var] {
			loopHead = jen.For(jen.Range().Add(items))
		} else if ok {
			loopHead = jen.For(jen.List(jen.Id("_"), jen.Id(g.varName(vt.Var))).Op(":=").Range().Add(items))
		} else {
			item := g.alloc("item")
			loopHead = jen.For(jen.List(jen.Id("_"), jen.Id(item)).Op(":=").Range().Add(items))
			body = append(body, g.storeNew(s.Target, jen.Id(item))...)
		}
	}
	body = append(body, g.loopBlock(s.Body)...)
	if iterated != "" {
		body = append(body, jen.Id(iterated).Op("=").True())
	}
	code = append(code, jen.Add(loopHead).Block(body...))
	if iterated != "" {
		code = append(code, jen.If(jen.Op("!").Id(iterated)).Block(g.block(s.Else)...))
	}
	return code
}

// assign stores a value; an inline if assigned to a variable becomes an if statement,
// and assigning a variable to itself is no code at all.
func (g *gen) assign(t ir.Target, x ir.Expr) []jen.Code {
	vt, isVar := t.(*ir.VarTarget)
	if isVar && g.namespaces[vt.Var] != nil {
		return g.defineLocalNamespace(vt.Var, g.namespaces[vt.Var])
	}
	if at, ok := t.(*ir.AttrTarget); ok && g.namespaces[at.NS] != nil {
		return g.setLocalAttr(g.namespaces[at.NS].attrs[at.Attr], x)
	}
	if l, ok := x.(*ir.Load); ok && isVar && l.Var == vt.Var {
		return nil
	}
	if c, ok := x.(*ir.Cond); ok && c.Else != nil && isVar {
		then, els := g.assign(t, c.Then), g.assign(t, c.Else)
		switch {
		case len(then) == 0 && len(els) == 0:
			return []jen.Code{jen.Id("_").Op("=").Add(g.cond(c.Test))}
		case len(then) == 0:
			return []jen.Code{jen.If(jen.Op("!").Parens(g.cond(c.Test))).Block(els...)}
		case len(els) == 0:
			return []jen.Code{jen.If(g.cond(c.Test)).Block(then...)}
		}
		return []jen.Code{jen.If(g.cond(c.Test)).Block(then...).Else().Block(els...)}
	}
	return g.store(t, g.value(x))
}

// llamaTargetType is the type of llama.cpp's statement for an assignment target that is
// no name, which its errors give.
func llamaTargetType(t ir.Target) string {
	if _, tuple := t.(*ir.TupleTarget); tuple {
		return "TupleLiteral"
	}
	return "MemberExpression"
}

// store assigns v to a target whose variables are already declared.
func (g *gen) store(t ir.Target, v jen.Code) []jen.Code {
	return g.storeWith(t, v, "=")
}

// storeNew assigns v to a target, declaring its variables (loop targets, parameters).
func (g *gen) storeNew(t ir.Target, v jen.Code) []jen.Code {
	return g.storeWith(t, v, ":=")
}

func (g *gen) storeWith(t ir.Target, v jen.Code, op string) []jen.Code {
	switch t := t.(type) {
	case *ir.VarTarget:
		if !g.needed[t.Var] {
			return []jen.Code{jen.Id("_").Op("=").Add(v)}
		}
		if g.loops[t.Var] {
			return []jen.Code{jen.Id(g.varName(t.Var)).Op("=").Add(v)}
		}
		return []jen.Code{jen.Id(g.varName(t.Var)).Op(op).Add(v)}
	case *ir.AttrTarget:
		if ns := g.namespaces[t.NS]; ns != nil {
			return g.storeLocalAttr(ns.attrs[t.Attr], v)
		}
		if g.llama && !g.namespaceAttrs[t] {
			g.mutates = true // llama.cpp sets the attribute of a dict too
		}
		return []jen.Code{g.op("SetAttr").Call(g.load(t.NS), jen.Lit(t.Attr), v)}
	case *ir.TupleTarget:
		vals := g.allocLocal("vals", "")
		// a set statement's (op "="), or a for loop's (":=")
		unpack, nonName := g.op("Unpack"), "Cannot unpack non-identifier type: "
		if g.llama && op == "=" {
			unpack, nonName = llama("UnpackSet"), "Cannot unpack to non-identifier in set: "
		}
		code := []jen.Code{jen.Id(vals).Op(":=").Add(unpack).Call(v, jen.Lit(len(t.Items)))}
		failed := false
		for i, it := range t.Items {
			if _, name := it.(*ir.VarTarget); !name && g.llama && !failed {
				code = append(code, jen.Comment("llama.cpp unpacks into names only"),
					rt("Fail").Call(llama("EngineError"), jen.Lit(nonName+llamaTargetType(it))))
				failed = true
			}
			code = append(code, g.storeWith(it, jen.Id(vals).Index(jen.Lit(i)), op)...)
		}
		return code
	}
	panic(fmt.Sprintf("codegen: unknown target %T", t))
}

// macroExpr is a macro as an expression: the caller of a call block.
type macroExpr struct{ m *ir.Macro }

func (m *macroExpr) Position() ir.Pos { return m.m.P }

// macro returns a jinja2.NewMacro expression for the macro m of the definition d, or
// for the caller of a call block when d is nil (Jinja2 leaves it without a name). In the
// llama.cpp function the body takes the names the macro reads from outside from its
// caller (scopeSlots), as the Go function of a macro with resolved calls does
// (macroFunc).
func (g *gen) macro(d *ir.MacroDef, m *ir.Macro) jen.Code {
	defer g.freshReads()()
	implicit := slices.DeleteFunc([]*ir.Var{m.Caller, m.Kwargs, m.Varargs}, func(v *ir.Var) bool { return v == nil })
	// the names taken from the caller (their values where the macro is defined first),
	// which the defaults may read too
	var scope []jen.Code
	free, endFree := []string(nil), func() {}
	if d != nil {
		scope = g.scopeSlots(d, len(m.Params)+len(implicit))
		free, endFree = g.freeParams(d)
	}
	var body []jen.Code
	slot := 0
	bind := func(v *ir.Var, def ir.Expr, required bool) {
		arg := jen.Id("args").Index(jen.Lit(slot))
		slot++
		if v != nil {
			body = append(body, g.bindParam(v, def, required, arg, false)...)
		}
	}
	for i, p := range m.Params {
		bind(p, m.Defaults[i], m.Defaults[i] == nil)
	}
	for _, v := range implicit {
		bind(v, nil, false)
	}
	// the scope's variables first: a default may read one
	decls := g.scopeDecls(m.Body.Scope)
	stmts := g.stmts(m.Body.Stmts)
	endFree()
	// and before them the names taken from the caller that the macro reads
	var taken []jen.Code
	for i, name := range free {
		if g.freeRead[name] {
			taken = append(taken, jen.Id(name).Op(":=").Add(scope[i]))
		}
	}
	if len(taken) > 0 {
		taken = append([]jen.Code{jen.Comment("llama.cpp: what the macro reads from outside is the caller's (llamacpp.CallIn)")}, taken...)
	}
	if slot > 0 && len(body) == 0 && len(taken) == 0 {
		body = append(body, jen.Id("_").Op("=").Id("args"))
	}
	body = slices.Concat(taken, decls, body, stmts)
	args := jen.Id("args").Index().Add(valueType())
	if slot+len(taken) == 0 {
		args = jen.Id("_").Index().Add(valueType())
	}
	g.keepsWriter = true // the macro value holds it
	return rt("NewMacro").Call(jen.Id("w"), g.macroSpec(m, d == nil), jen.Func().Params(args).Block(body...))
}

// scopeSlots returns, in the llama.cpp render function, the values a macro value gives
// the names the macro takes from its caller (see ir/llamascope.go): those a call through
// a value gives after the arguments' slots, from slot on, in the order of
// ir.MacroCalls.LlamaScope (llamacpp.CallIn), else the values where the macro is
// defined. They are evaluated where the macro value is made, before the macro's body
// reads the names as its own.
func (g *gen) scopeSlots(d *ir.MacroDef, slot int) []jen.Code {
	if !g.llama {
		return nil
	}
	var code []jen.Code
	for i, x := range g.macros.LlamaDefault[d] {
		at := slot + slices.Index(g.macros.LlamaScope, g.macros.LlamaFree[d][i])
		code = append(code, llama("ScopeValue").Call(jen.Id("args"), jen.Lit(at), g.value(x)))
	}
	return code
}

// macroSpec returns the runtime.MacroSpec of a macro.
func (g *gen) macroSpec(m *ir.Macro, caller bool) jen.Code {
	spec := jen.Dict{jen.Id("Name"): jen.Lit(m.Name)}
	if caller {
		spec[jen.Id("Anonymous")] = jen.True()
	}
	if len(m.Params) > 0 {
		var names []jen.Code
		for _, p := range m.Params {
			names = append(names, jen.Lit(p.Name))
		}
		spec[jen.Id("Params")] = jen.Index().String().Values(names...)
	}
	if m.Caller != nil {
		spec[jen.Id("Caller")] = jen.True()
	}
	if m.Kwargs != nil {
		spec[jen.Id("Kwargs")] = jen.True()
	}
	if m.Varargs != nil {
		spec[jen.Id("Varargs")] = jen.True()
	}
	if g.llama {
		spec[jen.Id("Bind")] = llama("BindMacro")
		g.variants++
	}
	return jen.Op("&").Qual(Jinja2Path, "MacroSpec").Values(spec)
}

// bindParam binds a macro parameter to its argument arg: Missing when the call gave
// none, which becomes the default, or for a required parameter a value saying it was
// not provided; the implicit parameters (caller, kwargs, varargs) are neither and are
// bound as they are. In place, the parameter is a Go parameter of the same name, already
// holding the argument.
func (g *gen) bindParam(v *ir.Var, def ir.Expr, required bool, arg jen.Code, inPlace bool) []jen.Code {
	if !g.needed[v] {
		if _, isConst := def.(*ir.Const); def != nil && !isConst {
			// evaluate the default for its errors, as Jinja2 does
			return []jen.Code{jen.If(jen.Add(arg).Dot("IsMissing").Call()).Block(jen.Id("_").Op("=").Add(g.value(def)))}
		}
		if required && g.llama {
			// llama.cpp: a call without an argument for a required parameter fails
			return []jen.Code{g.direct("Param").Call(arg, jen.Lit(v.Name))}
		}
		return nil
	}
	name := g.varName(v)
	var code []jen.Code
	switch {
	case required && inPlace:
		code = append(code, jen.Id(name).Op("=").Add(g.direct("Param")).Call(jen.Id(name), jen.Lit(v.Name)))
	case required:
		code = append(code, jen.Id(name).Op(":=").Add(g.direct("Param")).Call(arg, jen.Lit(v.Name)))
	case !inPlace:
		code = append(code, jen.Id(name).Op(":=").Add(arg))
	}
	if def != nil {
		code = append(code, jen.If(jen.Id(name).Dot("IsMissing").Call()).Block(jen.Id(name).Op("=").Add(g.value(def))))
	}
	return code
}

// macroFunc compiles a macro with resolved calls to a Go function (see macros.go), and
// to a runtime macro value wrapping it where the template needs one.
func (g *gen) macroFunc(d *ir.MacroDef) []jen.Code {
	restore := g.freshReads()
	m := d.Macro
	fn := g.macroFuncs[d.Var]
	var params, body, slots []jen.Code
	for i, p := range m.Params {
		params = append(params, jen.Id(g.varName(p)))
		slots = append(slots, jen.Id("args").Index(jen.Lit(i)))
	}
	if g.needed[d.Var] {
		slots = append(slots, g.scopeSlots(d, len(m.Params))...)
	}
	free, endFree := g.freeParams(d)
	for _, name := range free {
		params = append(params, jen.Id(name))
	}
	// the scope's variables first: a default may read one, or a free name
	body = append(body, g.scopeDecls(m.Body.Scope)...)
	for i, p := range m.Params {
		body = append(body, g.bindParam(p, m.Defaults[i], m.Defaults[i] == nil, jen.Id(g.varName(p)), true)...)
	}
	body = append(body, g.stmts(m.Body.Stmts)...)
	endFree()
	restore()
	sig := jen.Func()
	if len(params) > 0 {
		sig = sig.Params(jen.List(params...).Add(valueType()))
	} else {
		sig = sig.Params()
	}
	var code []jen.Code
	if g.macros.SelfCalled[d.Var] {
		// its body calls it
		types := make([]jen.Code, len(params))
		for i := range types {
			types[i] = valueType()
		}
		code = append(code, jen.Var().Id(fn).Func().Params(types...), jen.Id(fn).Op("=").Add(sig).Block(body...))
	} else {
		code = append(code, jen.Id(fn).Op(":=").Add(sig).Block(body...))
	}
	if g.needed[d.Var] {
		args := jen.Id("args").Index().Add(valueType())
		if len(slots) == 0 {
			args = jen.Id("_").Index().Add(valueType())
		}
		wrapper := jen.Func().Params(args).Block(jen.Id(fn).Call(slots...))
		g.keepsWriter = true // the macro value holds it
		code = append(code, jen.Id(g.varName(d.Var)).Op("=").Add(rt("NewMacro").Call(jen.Id("w"), g.macroSpec(m, false), wrapper)))
	}
	return code
}

// failKind returns the error kind of an ir.Fail: one of those written here, so that
// package jinja2 or llamacpp declares it (internal/genfacade).
func failKind(kind string) *jen.Statement {
	switch kind {
	case "RuntimeError", "TypeError":
		return rt(kind)
	case "EngineError":
		return llama(kind)
	}
	panic("codegen: an ir.Fail of kind " + kind)
}
