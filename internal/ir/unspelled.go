package ir

import (
	"fmt"
	"math"
	"math/big"

	"github.com/tmplgen/tmplgen/internal/jinja2"
	"github.com/tmplgen/tmplgen/internal/syntax"
)

// Jinja2's optimizer folds every expression whose operands are constants into a
// constant (optimizer.py: as_const, bottom-up), and its code generator writes a float
// constant with str() (visit_Const): a nan or infinity becomes the bare name nan or
// inf in the generated Python, which raises NameError where it runs. Printed directly
// ({{ 'nan'|float }}), the constant goes into the template text instead and nothing
// fails. The lowerer's unspelled analysis finds the expressions that fold into such a constant and stay
// one, because what holds them does not fold (a call, a name, a statement).
//
// The analysis is conservative: an expression it cannot evaluate as Jinja2's
// as_const would (a filter it does not run, a comparison) is taken as perhaps folded,
// and what it holds is left alone; so a template is never refused where Jinja2
// renders it.

// foldState is what the analysis knows of whether Jinja2 folds an expression.
type foldState uint8

const (
	notFolded foldState = iota // never folded: a name, a call, or an operation that fails
	folded                     // folded into a constant
	mayFold                    // perhaps folded
)

// folding is what the analysis knows of an expression: whether it folds, into what
// value when known, and the name its constant's repr spells for a nan or infinity.
type folding struct {
	expr  syntax.Expr
	state foldState
	value jinja2.Value
	known bool   // value is the constant
	name  string // "nan" or "inf" when the constant holds one, else ""
}

// unspelled is the analysis of a template's expressions: the names of those that raise
// NameError, every expression analysed, and the powers whose base Python reads with
// their sign (negBases).
type unspelled struct {
	names map[syntax.Expr]string
	seen  map[syntax.Expr]bool
	// negBases are the x ** y whose x folds into a negative number and y does not
	// fold: the generated Python spells the constant with its sign, (-7 ** y), which
	// Python reads as -(7 ** y).
	negBases map[syntax.Expr]bool
}

func newUnspelled() *unspelled {
	return &unspelled{names: map[syntax.Expr]string{}, seen: map[syntax.Expr]bool{}, negBases: map[syntax.Expr]bool{}}
}

// root analyses an expression a statement holds; print says it is a {{ }}'s, whose
// constant Jinja2 writes into the template text.
func (u *unspelled) root(x syntax.Expr, print bool) {
	if x == nil {
		return
	}
	if f := u.expr(x); f.state == folded && f.name != "" && !print {
		u.names[x] = f.name
	}
}

// expr analyses x and what it holds, and returns what is known of x.
func (u *unspelled) expr(x syntax.Expr) folding {
	u.seen[x] = true
	f := u.fold(x)
	f.expr = x
	return f
}

// fold analyses x and what it holds.
func (u *unspelled) fold(x syntax.Expr) folding {
	switch x := x.(type) {
	case *syntax.Const:
		v := ConstValue(x.Value)
		return folding{state: folded, value: v, known: true, name: nonFiniteName(v)}
	case *syntax.Tuple:
		return u.container(x.Items)
	case *syntax.List:
		return u.container(x.Items)
	case *syntax.Dict:
		items := make([]syntax.Expr, 0, 2*len(x.Items))
		for _, p := range x.Items {
			items = append(items, p.Key, p.Value)
		}
		return u.container(items)
	case *syntax.Unary:
		f := u.expr(x.X)
		switch {
		case f.state != folded:
			return u.holder(f.state, f)
		case x.Op == syntax.OpNot:
			return folding{state: folded}
		case !f.known:
			return folding{state: mayFold}
		case x.Op == syntax.OpNeg:
			return u.evaluated(func() jinja2.Value { return jinja2.Neg(f.value) }, f)
		}
		return u.evaluated(func() jinja2.Value { return jinja2.Pos(f.value) }, f)
	case *syntax.Binary:
		l, r := u.expr(x.L), u.expr(x.R)
		if x.Op == syntax.OpPow && l.state == folded && l.known && negative(l.value) && r.state == notFolded {
			u.negBases[x] = true
		}
		if x.Op == syntax.OpAnd || x.Op == syntax.OpOr {
			return u.boolean(x.Op == syntax.OpOr, l, r)
		}
		op := arithmetic[x.Op]
		switch {
		case l.state == notFolded || r.state == notFolded:
			return u.holder(notFolded, l, r)
		case l.state == mayFold || r.state == mayFold || !l.known || !r.known || op == nil:
			return folding{state: mayFold}
		}
		return u.evaluated(func() jinja2.Value { return op(l.value, r.value) }, l, r)
	case *syntax.Filter:
		if x.X == nil || contextFilters[x.Name] || x.DynArgs != nil || x.DynKwargs != nil {
			return u.holder(notFolded, u.all(x.X, x.Args)...)
		}
		in := u.all(x.X, x.Args)
		state := combined(in)
		if state != folded || !allKnown(in) {
			return u.holder(state, in...)
		}
		args := make([]jinja2.Value, len(x.Args.Args))
		for i := range args {
			args[i] = in[1+i].value
		}
		kwargs := make([]jinja2.Kwarg, len(x.Kwargs))
		for i, k := range x.Kwargs {
			kwargs[i] = jinja2.Kwarg{Name: k.Name, Value: in[1+len(args)+i].value}
		}
		if _, ok := jinja2.Filters[x.Name]; !ok {
			return u.holder(notFolded, in...)
		}
		return u.evaluated(func() jinja2.Value { return jinja2.CallFilter(x.Name, in[0].value, args, kwargs) }, in...)
	case *syntax.Call:
		return u.holder(notFolded, u.all(x.Fn, x.Args)...)
	case *syntax.Name:
		return folding{state: notFolded}
	case *syntax.Concat:
		return u.operation(u.exprs(x.Items)...)
	case *syntax.Compare:
		in := []folding{u.expr(x.X)}
		for _, op := range x.Ops {
			in = append(in, u.expr(op.X))
		}
		return u.operation(in...)
	case *syntax.Test:
		return u.operation(u.all(x.X, x.Args)...)
	case *syntax.Getattr:
		return u.operation(u.expr(x.X))
	case *syntax.Getitem:
		return u.operation(u.expr(x.X), u.expr(x.Arg))
	case *syntax.Slice:
		return u.operation(u.exprs([]syntax.Expr{x.Start, x.Stop, x.Step})...)
	case *syntax.CondExpr:
		test := u.expr(x.Test)
		branches := u.exprs([]syntax.Expr{x.Then, x.Else})
		switch {
		case test.state == notFolded:
			return u.holder(notFolded, branches...)
		case test.state == mayFold || !test.known:
			return folding{state: mayFold}
		case test.value.Truthy():
			return branches[0]
		case x.Else == nil:
			return u.holder(notFolded) // Impossible: the undefined value of a missing else
		}
		return branches[1]
	}
	return folding{state: notFolded}
}

// boolean is a and b (or, a or b), which Jinja2 folds as Python evaluates it: b is
// not needed when a decides.
func (u *unspelled) boolean(or bool, a, b folding) folding {
	switch {
	case a.state == notFolded:
		return u.holder(notFolded, b)
	case a.state == mayFold || !a.known:
		return folding{state: mayFold}
	case a.value.Truthy() == or:
		return a
	case b.state == notFolded:
		return u.holder(notFolded, a) // a stays a constant
	}
	return b
}

// all analyses x (when there is one) and the arguments of a call, filter or test.
func (u *unspelled) all(x syntax.Expr, a syntax.Args) []folding {
	xs := []syntax.Expr{x}
	xs = append(xs, a.Args...)
	for _, k := range a.Kwargs {
		xs = append(xs, k.Value)
	}
	return u.exprs(append(xs, a.DynArgs, a.DynKwargs))
}

// exprs analyses xs; a nil one (an omitted part) is a folded none.
func (u *unspelled) exprs(xs []syntax.Expr) []folding {
	out := make([]folding, len(xs))
	for i, x := range xs {
		if x == nil {
			out[i] = folding{state: folded, value: jinja2.None(), known: true}
			continue
		}
		out[i] = u.expr(x)
	}
	return out
}

// container is a tuple, list or dict display, which folds when its items do: its
// constant spells the first name its items spell.
func (u *unspelled) container(items []syntax.Expr) folding {
	in := u.exprs(items)
	if state := combined(in); state != folded {
		return u.holder(state, in...)
	}
	for _, f := range in {
		if f.name != "" {
			return folding{state: folded, name: f.name}
		}
	}
	return folding{state: folded}
}

// operation is an expression the analysis does not evaluate: not folded when one of
// its operands is not, else perhaps.
func (u *unspelled) operation(in ...folding) folding {
	state := combined(in)
	if state == folded {
		state = mayFold
	}
	return u.holder(state, in...)
}

// holder returns what is known of an expression holding the operands in, in state,
// whose value the analysis does not know. An expression that is not folded keeps
// its operands' constants as they are, which raise NameError where they spell a name:
// holder marks them.
func (u *unspelled) holder(state foldState, in ...folding) folding {
	if state == notFolded {
		for _, f := range in {
			if f.state == folded && f.name != "" && f.expr != nil {
				u.names[f.expr] = f.name
			}
		}
	}
	return folding{state: state}
}

// combined is the state of an expression of operands in: not folded when one is not,
// perhaps when one perhaps is, else folded.
func combined(in []folding) foldState {
	state := folded
	for _, f := range in {
		state = max(state, f.state) // mayFold above folded
		if f.state == notFolded {
			return notFolded
		}
	}
	return state
}

// allKnown reports whether the value of every one of in is known.
func allKnown(in []folding) bool {
	for _, f := range in {
		if !f.known {
			return false
		}
	}
	return true
}

// evaluated is the expression whose constant op computes from the operands in, as
// Jinja2's as_const computes it: an operation that fails is not folded (and raises
// where it runs).
func (u *unspelled) evaluated(op func() jinja2.Value, in ...folding) folding {
	v, ok := tryConst(op)
	if !ok {
		return u.holder(notFolded, in...)
	}
	return folding{state: folded, value: v, known: true, name: nonFiniteName(v)}
}

// tryConst runs op, and reports whether it returned rather than raised a render error.
func tryConst(op func() jinja2.Value) (v jinja2.Value, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, isErr := r.(*jinja2.Error); !isErr {
				panic(r)
			}
			ok = false
		}
	}()
	return op(), true
}

// negative reports whether v is a number whose repr starts with a minus sign (-0.0
// included, nan excluded).
func negative(v jinja2.Value) bool {
	switch v.Kind() {
	case jinja2.KindInt:
		return v.Sign() < 0
	case jinja2.KindFloat:
		f, _ := v.AsFloat()
		return !math.IsNaN(f) && math.Signbit(f)
	}
	return false
}

// nonFiniteName returns the name str() writes for a float nan or infinity, else "".
func nonFiniteName(v jinja2.Value) string {
	f, ok := v.AsFloat()
	switch {
	case !ok:
		return ""
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 0):
		return "inf"
	}
	return ""
}

// arithmetic are the binary operators whose constants the analysis computes.
var arithmetic = map[string]func(a, b jinja2.Value) jinja2.Value{
	syntax.OpAdd: jinja2.Add, syntax.OpSub: jinja2.Sub, syntax.OpMul: jinja2.Mul,
	syntax.OpDiv: jinja2.Div, syntax.OpFloorDiv: jinja2.FloorDiv, syntax.OpMod: jinja2.Mod,
	syntax.OpPow: jinja2.Pow,
}

// contextFilters are Jinja2's filters that take the render's context, which as_const
// never folds (pass_context): and random, whose value must not be fixed.
var contextFilters = map[string]bool{
	"map": true, "select": true, "reject": true, "selectattr": true, "rejectattr": true, "random": true,
}

// ConstValue returns the value of a literal (the Value of a *Const).
func ConstValue(v any) jinja2.Value {
	switch v := v.(type) {
	case nil:
		return jinja2.None()
	case bool:
		return jinja2.Bool(v)
	case *big.Int:
		return jinja2.BigInt(v)
	case float64:
		return jinja2.Float(v)
	case string:
		return jinja2.Str(v)
	}
	panic(fmt.Sprintf("ir: a constant of type %T", v))
}
