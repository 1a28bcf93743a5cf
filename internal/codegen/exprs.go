package codegen

import (
	"fmt"
	"math"
	"math/big"

	"github.com/dave/jennifer/jen"

	"github.com/tmplgen/tmplgen/internal/ir"
	"github.com/tmplgen/tmplgen/internal/jinja2"
	"github.com/tmplgen/tmplgen/internal/llamacpp"
)

// Expressions: values, conditions, calls of filters, tests, methods and globals.

// load reads a variable as a value.
func (g *gen) load(v *ir.Var) jen.Code {
	if p, ok := g.subst[v]; ok {
		return g.readFree(p)
	}
	if g.loops[v] {
		return jen.Id(g.varName(v)).Dot("Value").Call()
	}
	return jen.Id(g.varName(v))
}

// value compiles an expression to Go code of type jinja2.Value.
func (g *gen) value(x ir.Expr) *jen.Statement {
	if key, _, ok := g.chainKey(x); ok {
		if r, held := g.reads[key]; held {
			return jen.Id(r.name)
		}
	}
	switch x := x.(type) {
	case *ir.Const:
		return constValue(x.Value)
	case *ir.Load:
		return jen.Add(g.load(x.Var))
	case *ir.Input:
		if p := g.free[x.Name]; p != "" {
			return g.readFree(p)
		}
		return jen.Id("w").Dot("Lookup").Call(jen.Lit(x.Name))
	case *ir.Global:
		if g.llama && llamacpp.LacksGlobal(x.Name) {
			return jen.Id("w").Dot("Lookup").Call(jen.Lit(x.Name)) // llama.cpp has no such global
		}
		g.keepsWriter = true
		return rt("Globals").Call(jen.Id("w"), jen.Lit(x.Name))
	case *ir.CallerVar:
		return g.readFree(g.free[x.Name])
	case *ir.Undef:
		return rt("Undefined").Call(jen.Lit(x.Name))
	case *ir.Attr:
		if a := g.localAttrOf(x); a != nil {
			if a.isBool {
				return rt("Bool").Call(jen.Id(a.goName))
			}
			return jen.Id(a.goName)
		}
		if l, ok := x.X.(*ir.Load); ok && !g.substituted(l.Var) {
			p, isPosition := g.positions[l.Var]
			if g.llama && (isPosition || g.loops[l.Var]) && (x.Name == "depth" || x.Name == "depth0") {
				return rt("Undefined").Call(jen.Lit(x.Name)) // llama.cpp's loop has no depth
			}
			if isPosition {
				return p.attr(x.Name)
			}
		}
		if l, ok := x.X.(*ir.Load); ok && g.loops[l.Var] && !g.substituted(l.Var) {
			if m, ok := loopMethods[x.Name]; ok {
				return jen.Id(g.varName(l.Var)).Dot(m).Call()
			}
		}
		if !jinja2.MayBeDictAttribute(x.Name) {
			if k, ok := jinja2.KeyOf(x.Name); ok {
				return g.op("ItemAttrKey").Call(g.value(x.X), rt(keyConsts[k]))
			}
			return g.op("ItemAttr").Call(g.value(x.X), jen.Lit(x.Name))
		}
		return g.op("Attr").Call(g.value(x.X), jen.Lit(x.Name))
	case *ir.Item:
		if k, ok := x.Key.(*ir.Const); ok {
			switch kv := k.Value.(type) {
			case string:
				if k, ok := jinja2.KeyOf(kv); ok {
					return g.op("ItemStrKey").Call(g.value(x.X), rt(keyConsts[k]))
				}
				return g.op("ItemStr").Call(g.value(x.X), jen.Lit(kv))
			case *big.Int:
				if recv, sep, ok := g.splitCall(x.X); ok && kv.IsInt64() && (kv.Int64() == 0 || kv.Int64() == -1) {
					// s.split(sep)[0], s.split(sep)[-1]: the piece without the list
					return g.direct("SplitItem").Call(g.value(recv), g.value(sep), jen.Lit(int(kv.Int64())))
				}
				if kv.IsInt64() {
					return g.op("ItemInt").Call(g.value(x.X), jen.Lit(int(kv.Int64())))
				}
			}
		}
		return g.op("Item").Call(g.value(x.X), g.value(x.Key))
	case *ir.Slice:
		// a part left out is Missing: None to Jinja2, and to llama.cpp, whose defaults
		// depend on which parts are given, not given
		part := func(e ir.Expr) jen.Code {
			if e == nil {
				return rt("Missing").Call()
			}
			return g.value(e)
		}
		obj := g.value(x.X)
		start, stop, step := part(x.Start), part(x.Stop), part(x.Step)
		return g.direct("SliceIn").Call(jen.Id("w"), obj, start, stop, step)
	case *ir.List:
		return rt("NewList").Call(g.heldValues(x.Items)...)
	case *ir.Tuple:
		return rt("NewTuple").Call(g.heldValues(x.Items)...)
	case *ir.Dict:
		var kv []jen.Code
		for i := range x.Keys {
			kv = append(kv, g.value(x.Keys[i]), g.held(x.Values[i]))
		}
		return rt("DictOf").Call(kv...)
	case *ir.Unary:
		switch x.Op {
		case "neg":
			return rt("Neg").Call(g.value(x.X))
		case "pos":
			return rt("Pos").Call(g.value(x.X))
		}
		return rt("Bool").Call(g.cond(x))
	case *ir.Binary:
		if c, ok := ir.LlamaConcat(x); ok && g.llama {
			return g.value(c)
		}
		if fn, ok := logicFuncs[x.Op]; ok {
			return g.op(fn).Call(g.value(x.L), lazy(g.value(x.R)))
		}
		if n, ok := g.intValue(x); ok {
			return rt("SmallInt").Call(jen.Int64().Call(n))
		}
		if x.Op == "+" {
			return g.sum(addOperands(x))
		}
		return g.op(binaryFuncs[x.Op]).Call(g.value(x.L), g.value(x.R))
	case *ir.Concat:
		return g.op("Concat").Call(g.values(x.Items)...)
	case *ir.Compare:
		if c, ok := g.intCompare(x); ok {
			return rt("Bool").Call(c)
		}
		return rt("Bool").Call(g.cond(x))
	case *ir.Test:
		return rt("Bool").Call(g.cond(x))
	case *ir.Invalid:
		return rt("Fail").Call(llama("EngineError"), jen.Lit(x.Msg), g.value(x.X))
	case *ir.Unspelled:
		if g.llama {
			return g.value(x.X) // llama.cpp folds no constant
		}
		// X goes to Fail as its operand, which uses the names llama.cpp's X reads
		return rt("Fail").Call(rt("NameError"), jen.Lit(x.Msg()), g.value(x.X))
	case *ir.Cond:
		els := rt("NoElse").Call(jen.Lit(x.P.Line))
		if x.Else != nil {
			els = g.value(x.Else)
		}
		return rt("IfElse").Call(g.cond(x.Test), lazy(g.value(x.Then)), lazy(els))
	case *ir.Call:
		if c, ok := g.macros.Direct[x]; ok {
			return g.macroCall(x, c)
		}
		return g.call(x)
	case *ir.Filter:
		return g.filterCall(&ir.Filter{At: x.At, Name: x.Name, Args: x.Args}, g.value(x.X))
	case *macroExpr:
		return jen.Add(g.macro(nil, x.m))
	}
	panic(fmt.Sprintf("codegen: unknown expression %T", x))
}

// sum compiles a + b + c...: jinja2.Sum adds a run of operands at once (joining strs
// in one allocation) where evaluating them early changes nothing (constants and
// variables), jinja2.Add the others, left to right.
func (g *gen) sum(operands []ir.Expr) *jen.Statement {
	acc := g.value(operands[0])
	var run []jen.Code
	flush := func() {
		switch len(run) {
		case 0:
		case 1:
			acc = g.op("Add").Call(acc, run[0])
		default:
			acc = g.op("Sum").Call(append([]jen.Code{acc}, run...)...)
		}
		run = nil
	}
	for _, op := range operands[1:] {
		switch op.(type) {
		case *ir.Const, *ir.Load:
			run = append(run, g.value(op))
			continue
		}
		flush()
		acc = g.op("Add").Call(acc, g.value(op))
	}
	flush()
	return acc
}

// lazy wraps a value in a function literal, for operands evaluated only when needed.
func lazy(v jen.Code) jen.Code {
	return jen.Func().Params().Add(valueType()).Block(jen.Return(v))
}

func (g *gen) values(xs []ir.Expr) []jen.Code { return g.valuesOf(xs, g.value) }

// held is the value of x where it is kept (an item of a list, tuple or dict, an
// argument): in the llama.cpp render function, an undefined value read from a variable
// is named after it, as llama.cpp names it at every read of a name
// (identifier::execute_impl), which shows where a list or dict holding it is written
// (Undefined (hint: 'z')). Elsewhere its name shows nowhere, and it is not renamed.
func (g *gen) held(x ir.Expr) *jen.Statement {
	if !g.llama {
		return g.value(x)
	}
	switch x := x.(type) {
	case *ir.Load:
		g.variants++
		return llama("Named").Call(g.value(x), jen.Lit(x.Var.Name))
	case *ir.Attr:
		if g.localAttrOf(x) != nil {
			// an attribute of a namespace held as Go variables, which llama.cpp names
			// after the attribute (as llamacpp.ItemAttr does a namespace's)
			g.variants++
			return llama("Named").Call(g.value(x), jen.Lit(x.Name))
		}
	case *ir.Binary:
		if fn, ok := logicFuncs[x.Op]; ok {
			return g.op(fn).Call(g.held(x.L), lazy(g.held(x.R)))
		}
	case *ir.Cond:
		if x.Else != nil {
			return rt("IfElse").Call(g.cond(x.Test), lazy(g.held(x.Then)), lazy(g.held(x.Else)))
		}
	}
	return g.value(x)
}

// heldValues are held's of xs.
func (g *gen) heldValues(xs []ir.Expr) []jen.Code { return g.valuesOf(xs, g.held) }

// valuesOf are xs each compiled by value.
func (g *gen) valuesOf(xs []ir.Expr, value func(ir.Expr) *jen.Statement) []jen.Code {
	out := make([]jen.Code, len(xs))
	for i, x := range xs {
		out[i] = value(x)
	}
	return out
}

// op is the runtime function of an operation: in the llama.cpp render function, its
// llama.cpp variant when it has one (see llamaVariants).
func (g *gen) op(name string) *jen.Statement {
	if g.llama && llamaVariants[name] {
		g.variants++
		return llama(name)
	}
	return rt(name)
}

// llamaVariants are the runtime functions and Value methods that have a variant with
// llama.cpp's semantics, llamacpp.NAME (see package llamacpp).
var llamaVariants = map[string]bool{
	"Attr": true, "ItemAttr": true, "ItemAttrKey": true, "Item": true, "ItemStr": true, "ItemStrKey": true, "ItemInt": true,
	"Add": true, "Sum": true, "Concat": true, "WriteConcat": true, "And": true, "Or": true,
	"In": true, "NotIn": true, "InStrs": true, "InKey": true,
	"Iterable": true, "CallMethod": true, "CheckNamespace": true, "SetAttr": true,
	"Sub": true, "Mul": true, "Div": true, "FloorDiv": true, "Mod": true, "Pow": true,
	"Lt": true, "Le": true, "Gt": true, "Ge": true, "Eq": true, "Ne": true,
	"StrftimeNow": true, "Unpack": true, "NewNamespace": true, "Range": true, "Call": true,
}

// keyConsts are the names of the jinja2.Key constants, by Key: a lookup of one of
// their names as a constant compiles to a call that passes the Key (ItemAttrKey,
// ItemStrKey), which a dict finds without comparing its keys.
var keyConsts = [...]string{
	"KeyRole", "KeyContent", "KeyType", "KeyText", "KeyName", "KeyID", "KeyFunction",
	"KeyArguments", "KeyToolCalls", "KeyToolCallID", "KeyReasoningContent", "KeyDescription",
	"KeyParameters", "KeyProperties", "KeyRequired", "KeyEnum",
}

// logicFuncs are the runtime functions of and and or, which give one of their operands.
var logicFuncs = map[string]string{"and": "And", "or": "Or"}

var binaryFuncs = map[string]string{
	"+": "Add", "-": "Sub", "*": "Mul", "/": "Div", "//": "FloorDiv", "%": "Mod", "**": "Pow",
}

var compareFuncs = map[string]string{
	"==": "Eq", "!=": "Ne", "<": "Lt", "<=": "Le", ">": "Gt", ">=": "Ge", "in": "In", "notin": "NotIn",
}

// loopMethods are the loop variable's attributes with a method of their own.
var loopMethods = map[string]string{
	"index": "Index", "index0": "Index0", "first": "First", "last": "Last", "length": "Length",
}

// cond compiles an expression to Go code of type bool: its truth value.
func (g *gen) cond(x ir.Expr) *jen.Statement {
	switch x := x.(type) {
	case *ir.Unary:
		if x.Op == "not" {
			if c, ok := x.X.(*ir.Compare); ok {
				if c, ok := g.intCompare(c); ok {
					return jen.Op("!").Parens(c)
				}
			}
			return not(true, g.cond(x.X))
		}
	case *ir.Binary:
		switch x.Op {
		case "and":
			return jen.Parens(g.cond(x.L).Op("&&").Add(g.cond(x.R)))
		case "or":
			return jen.Parens(g.cond(x.L).Op("||").Add(g.cond(x.R)))
		}
	case *ir.Compare:
		if c, ok := g.intCompare(x); ok {
			return c
		}
		if len(x.Ops) == 1 {
			if op := x.Ops[0]; op == "==" || op == "!=" {
				// comparing with a str literal
				if s, ok := strConst(x.Ys[0]); ok {
					return not(op == "!=", rt("EqStr").Call(g.value(x.X), jen.Lit(s)))
				}
				if s, ok := strConst(x.X); ok {
					return not(op == "!=", rt("EqStr").Call(g.value(x.Ys[0]), jen.Lit(s)))
				}
			}
			if op := x.Ops[0]; op == "in" || op == "notin" {
				// in a list of str literals
				if strs, ok := strConsts(x.Ys[0]); ok {
					return not(op == "notin", g.op("InStrs").Call(append([]jen.Code{g.value(x.X)}, strs...)...))
				}
				// a Key in a dict: 'tool_calls' in message
				if s, ok := strConst(x.X); ok {
					if k, ok := jinja2.KeyOf(s); ok {
						return not(op == "notin", g.op("InKey").Call(rt(keyConsts[k]), g.value(x.Ys[0])))
					}
				}
			}
			return g.op(compareFuncs[x.Ops[0]]).Call(g.value(x.X), g.value(x.Ys[0]))
		}
		if g.llama {
			// llama.cpp's parser makes a chain binary operations, each on the bool before it
			test := g.op(compareFuncs[x.Ops[0]]).Call(g.value(x.X), g.value(x.Ys[0]))
			for i, op := range x.Ops[1:] {
				test = g.op(compareFuncs[op]).Call(rt("Bool").Call(test), g.value(x.Ys[i+1]))
			}
			return jen.Func().Params().Bool().Block(
				jen.Comment("llama.cpp: a chain of comparisons is (a < b) < c, each comparing the bool before it"),
				jen.Return(test)).Call()
		}
		// a chain: each operand evaluated once, stopping at the first false comparison
		var body []jen.Code
		prev := g.alloc("left")
		body = append(body, jen.Id(prev).Op(":=").Add(g.value(x.X)))
		for i, op := range x.Ops {
			next := g.alloc("right")
			body = append(body, jen.Id(next).Op(":=").Add(g.value(x.Ys[i])))
			test := g.op(compareFuncs[op]).Call(jen.Id(prev), jen.Id(next))
			if i == len(x.Ops)-1 {
				body = append(body, jen.Return(test))
			} else {
				body = append(body, jen.If(jen.Op("!").Add(test)).Block(jen.Return(jen.False())))
			}
			prev = next
		}
		return jen.Func().Params().Bool().Block(body...).Call()
	case *ir.Test:
		d, ok := directTests[x.Name]
		args, kwargs := g.args(x.Args)
		switch {
		case g.llama && !(ok && takes(d, x.Args) && llamaDirect(x.Name, d.fn)):
			// a test by another of its names: llama.cpp may lack that name
			g.variants++
			return llama("CallTest").Call(jen.Lit(x.Name), g.value(x.X), args, kwargs)
		case !ok:
			// the operands are passed (and ignored) so that the variables they read are used
			return rt("Truthy").Call(rt("Fail").Call(rt("RuntimeError"), jen.Lit(fmt.Sprintf("No test named '%s' found.", x.Name)), g.value(x.X), args, kwargs))
		case takes(d, x.Args):
			return g.direct(d.fn).Call(append([]jen.Code{g.value(x.X)}, g.values(x.Args.Args)...)...)
		}
		return rt("CallTest").Call(jen.Lit(x.Name), g.value(x.X), args, kwargs)
	case *ir.Const:
		if b, ok := x.Value.(bool); ok {
			return jen.Lit(b)
		}
	case *ir.Attr:
		if a := g.localAttrOf(x); a != nil && a.isBool {
			return jen.Id(a.goName)
		}
		if l, ok := x.X.(*ir.Load); ok && (x.Name == "first" || x.Name == "last") && !g.substituted(l.Var) {
			if p, ok := g.positions[l.Var]; ok {
				return p.cond(x.Name)
			}
		}
	}
	if g.llama {
		g.variants++
		return llama("Truthy").Call(g.value(x))
	}
	return g.value(x).Dot("Truthy").Call()
}

// not negates a Go condition when negate is set (conditions joined with && or || come
// parenthesized already).
func not(negate bool, c *jen.Statement) *jen.Statement {
	if !negate {
		return c
	}
	return jen.Op("!").Add(c)
}

// strConsts returns the items of a list or tuple literal whose items are all str
// literals, as Go literals.
func strConsts(x ir.Expr) ([]jen.Code, bool) {
	var items []ir.Expr
	switch x := x.(type) {
	case *ir.List:
		items = x.Items
	case *ir.Tuple:
		items = x.Items
	default:
		return nil, false
	}
	var strs []jen.Code
	for _, it := range items {
		s, ok := strConst(it)
		if !ok {
			return nil, false
		}
		strs = append(strs, jen.Lit(s))
	}
	return strs, true
}

// strConst returns the value of a str literal.
func strConst(x ir.Expr) (string, bool) {
	if c, ok := x.(*ir.Const); ok {
		s, ok := c.Value.(string)
		return s, ok
	}
	return "", false
}

// args compiles call arguments to a []jinja2.Value and a []jinja2.Kwarg (nil when
// there are none).
func (g *gen) args(a ir.Args) (jen.Code, jen.Code) { return g.argsOf(a, g.value) }

// argsOf is args with each argument compiled by value.
func (g *gen) argsOf(a ir.Args, value func(ir.Expr) *jen.Statement) (jen.Code, jen.Code) {
	var args, kwargs jen.Code = jen.Nil(), jen.Nil()
	if len(a.Args) > 0 {
		// (a keyword argument before positional ones, which only llama.cpp reads, holds a
		// place among them)
		var vs []jen.Code
		for _, p := range a.Places() {
			if p.Kwarg != nil {
				vs = append(vs, llama("KwArgPlace").Call())
			} else {
				vs = append(vs, value(p.Arg))
			}
		}
		args = jen.Index().Add(valueType()).Values(vs...)
	}
	if a.DynArgs != nil {
		args = g.direct("Spread").Call(args, g.value(a.DynArgs))
	}
	if len(a.Kwargs) > 0 {
		var kws []jen.Code
		for _, kw := range a.Kwargs {
			if kw.PositionalAfter > 0 {
				kws = append(kws, llama("Placed").Call(jen.Lit(kw.Name), value(kw.Value)))
				continue
			}
			kws = append(kws, rt("KW").Call(jen.Lit(kw.Name), value(kw.Value)))
		}
		kwargs = jen.Index().Qual(Jinja2Path, "Kwarg").Values(kws...)
	}
	if a.DynKwargs != nil {
		kwargs = rt("SpreadKwargs").Call(kwargs, g.value(a.DynKwargs))
	}
	return args, kwargs
}

// filterCall applies a filter to an already compiled value.
func (g *gen) filterCall(f *ir.Filter, v jen.Code) *jen.Statement {
	d, ok := directFilters[f.Name]
	value := g.argValue(keeps[f.Name])
	args, kwargs := g.argsOf(f.Args, value)
	switch {
	case g.llama && !(ok && (d.args < 0 || takes(d, f.Args)) && llamaDirect(f.Name, d.fn)):
		// a filter by another of its names: llama.cpp may lack that name
		g.variants++
		return llama("CallFilter").Call(jen.Lit(f.Name), v, args, kwargs)
	case !ok:
		// the operands are passed (and ignored) so that the variables they read are used
		return rt("Fail").Call(rt("RuntimeError"), jen.Lit(fmt.Sprintf("No filter named '%s' found.", f.Name)), v, args, kwargs)
	case d.args < 0:
		return g.direct(d.fn).Call(v, args, kwargs)
	case takes(d, f.Args):
		return g.direct(d.fn).Call(append([]jen.Code{v}, g.valuesOf(f.Args.Args, value)...)...)
	}
	return rt("CallFilter").Call(jen.Lit(f.Name), v, args, kwargs)
}

// keeps are the filters and methods that keep an argument in what they give (default's
// default, the item append adds...), whose arguments are held (see held); the others
// only read theirs.
var keeps = map[string]bool{
	"default": true, "d": true, "append": true, "insert": true, "update": true, "setdefault": true, "get": true,
}

// argValue compiles the arguments of a call: held when the call keeps them.
func (g *gen) argValue(kept bool) func(ir.Expr) *jen.Statement {
	if kept {
		return g.held
	}
	return g.value
}

// keepsArgs reports whether a call of fn keeps its arguments: a method of keeps, or dict().
func keepsArgs(fn ir.Expr) bool {
	switch fn := fn.(type) {
	case *ir.Attr:
		return keeps[fn.Name]
	case *ir.Global:
		return fn.Name == "dict"
	}
	return false
}

// takes reports whether the typed function d takes the arguments a: as many positional
// ones, and nothing else.
func takes(d direct, a ir.Args) bool {
	return d.args >= 0 && a.Positional(d.args)
}

// globalFuncs are the global functions called directly by their runtime function, with
// how they take their arguments.
func (g *gen) call(x *ir.Call) *jen.Statement {
	value := g.argValue(keepsArgs(x.Fn))
	args, kwargs := g.argsOf(x.Args, value)
	switch fn := x.Fn.(type) {
	case *ir.Global:
		if g.llama && llamacpp.LacksGlobal(fn.Name) {
			g.variants++
			return llama("CallMissingGlobal").Call(jen.Id("w"), jen.Lit(fn.Name), args, kwargs)
		}
		switch fn.Name {
		case "namespace":
			return g.op("NewNamespace").Call(jen.Id("w"), args, kwargs)
		case "dict":
			return rt("NewDictCall").Call(jen.Id("w"), args, kwargs)
		case "strftime_now":
			return g.op("StrftimeNow").Call(jen.Id("w"), args, kwargs)
		case "range":
			if len(x.Kwargs) == 0 && x.DynArgs == nil && x.DynKwargs == nil {
				return g.op("Range").Call(append([]jen.Code{jen.Id("w")}, g.values(x.Args.Args)...)...)
			}
		case "raise_exception", "cycler":
			if len(x.Kwargs) == 0 && x.DynArgs == nil && x.DynKwargs == nil {
				name := map[string]string{"raise_exception": "RaiseException", "cycler": "Cycler"}[fn.Name]
				return rt(name).Call(append([]jen.Code{jen.Id("w")}, g.values(x.Args.Args)...)...)
			}
		case "joiner":
			return rt("Joiner").Call(jen.Id("w"), args, kwargs)
		}
	case *ir.Attr:
		if l, ok := fn.X.(*ir.Load); ok && g.loops[l.Var] && !g.substituted(l.Var) && fn.Name == "cycle" && len(x.Kwargs) == 0 && x.DynArgs == nil && x.DynKwargs == nil {
			if g.llama {
				// llama.cpp's loop has no cycle
				g.variants++
				return llama("LoopCycle").Call(g.values(x.Args.Args)...)
			}
			return jen.Id(g.varName(l.Var)).Dot("Cycle").Call(g.values(x.Args.Args)...)
		}
		if name, ok := directMethods[fn.Name][len(x.Args.Args)]; ok && len(x.Kwargs) == 0 && x.DynArgs == nil && x.DynKwargs == nil {
			return g.direct(name).Call(append([]jen.Code{g.value(fn.X)}, g.valuesOf(x.Args.Args, value)...)...)
		}
		if g.llama && (fn.Name == "append" || fn.Name == "pop") && !g.listMethods[x] {
			g.mutates = true // llama.cpp's list methods change the list
		}
		return g.op("CallMethod").Call(g.value(fn.X), jen.Lit(fn.Name), args, kwargs)
	}
	if c, ok := g.macros.ValueCalls[x]; ok && g.llama && len(c.LlamaEnv) > 0 {
		// llama.cpp runs a macro in a copy of the scope it is called from: it takes the
		// values of the names it reads from outside from here
		g.variants++
		return llama("CallIn").Call(g.value(x.Fn), jen.Index().Add(valueType()).Values(g.values(c.LlamaEnv)...), args, kwargs)
	}
	return g.op("Call").Call(g.value(x.Fn), args, kwargs)
}

// splitCall returns the str and the separator of x when x is recv.split(sep), which
// value compiles to MethodSplitSep (call's method branch).
func (g *gen) splitCall(x ir.Expr) (recv, sep ir.Expr, ok bool) {
	c, ok := x.(*ir.Call)
	if !ok || len(c.Args.Args) != 1 || len(c.Kwargs) != 0 || c.DynArgs != nil || c.DynKwargs != nil {
		return nil, nil, false
	}
	if _, macro := g.macros.Direct[c]; macro {
		return nil, nil, false
	}
	if fn, ok := c.Fn.(*ir.Attr); ok && fn.Name == "split" {
		return fn.X, c.Args.Args[0], true
	}
	return nil, nil, false
}

// constValue compiles a literal.
func constValue(v any) *jen.Statement {
	switch v := v.(type) {
	case nil:
		return rt("None").Call()
	case bool:
		return rt("Bool").Call(jen.Lit(v))
	case *big.Int:
		if v.IsInt64() && jinja2.FitsSmallInt(v.Int64()) {
			return rt("SmallInt").Call(jen.Lit(int(v.Int64())))
		}
		return rt("IntString").Call(jen.Lit(v.String()))
	case float64:
		switch {
		case math.IsInf(v, 1):
			return rt("Float").Call(jen.Qual("math", "Inf").Call(jen.Lit(1)))
		case math.IsInf(v, -1):
			return rt("Float").Call(jen.Qual("math", "Inf").Call(jen.Lit(-1)))
		case math.IsNaN(v):
			return rt("Float").Call(jen.Qual("math", "NaN").Call())
		case v == 0 && math.Signbit(v):
			// a Go constant has no negative zero: -0.0 would compile to 0.0
			return rt("Float").Call(jen.Qual("math", "Copysign").Call(jen.Lit(0.0), jen.Lit(-1.0)))
		}
		return rt("Float").Call(jen.Lit(v))
	case string:
		return rt("Lit").Call(jen.Lit(v))
	}
	panic(fmt.Sprintf("codegen: unknown constant %T", v))
}
