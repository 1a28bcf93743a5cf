package codegen

import (
	"math/big"

	"github.com/dave/jennifer/jen"

	"github.com/tmplgen/tmplgen/internal/ir"
)

// Template arithmetic on counts (messages|length - 1 - loop.index0, loop.index0 + 1 ==
// messages|length) compiles to Go arithmetic on ints: every operand is certainly an int
// (a length, a loop position, an int literal), and every such sum is far from where
// Python's unbounded ints, llama.cpp's doubles and the runtime's unboxed ints part ways.

// intLeaves bounds the operands of one compiled sum: with lengths below 2^40 (of what
// fits in memory) and literals below 2^31, a sum of intLeaves of them stays below
// 2^44, which Go's int, a double (llama.cpp adds ints as doubles) and jinja2.SmallInt
// (56 bits) all hold exactly.
const intLeaves = 16

// maxIntLiteral bounds the int literals of a compiled sum.
const maxIntLiteral = 1 << 31

// intValue compiles x as a Go int when it is a sum or difference of counts and
// literals (see intLeaves), and reports whether it did.
func (g *gen) intValue(x ir.Expr) (*jen.Statement, bool) {
	leaves := 0
	// compile also reports whether the code is one operand of Go's (a name, a call, a
	// literal), which a - needs on its right, as it is
	var compile func(x ir.Expr) (code *jen.Statement, operand, ok bool)
	compile = func(x ir.Expr) (*jen.Statement, bool, bool) {
		if leaves++; leaves > intLeaves {
			return nil, false, false
		}
		switch x := x.(type) {
		case *ir.Const:
			if v, ok := x.Value.(*big.Int); ok && v.IsInt64() && -maxIntLiteral < v.Int64() && v.Int64() < maxIntLiteral {
				return jen.Lit(int(v.Int64())), v.Sign() >= 0, true
			}
		case *ir.Attr:
			if l, ok := x.X.(*ir.Load); ok && !g.substituted(l.Var) {
				if p, ok := g.positions[l.Var]; ok {
					return p.intAttr(x.Name)
				}
			}
		case *ir.Filter:
			if (x.Name == "length" || x.Name == "count") && x.Positional(0) {
				return g.direct("Len").Call(g.value(x.X)), true, true
			}
		case *ir.Binary:
			if x.Op != "+" && x.Op != "-" {
				return nil, false, false
			}
			l, _, ok := compile(x.L)
			if !ok {
				return nil, false, false
			}
			r, operand, ok := compile(x.R)
			if !ok {
				return nil, false, false
			}
			if !operand {
				r = jen.Parens(r) // a - (b - c)
			}
			return l.Op(x.Op).Add(r), false, true
		}
		return nil, false, false
	}
	code, _, ok := compile(x)
	return code, ok
}

// intCompare compiles a comparison of two counts (see intValue) as Go's, without
// parentheses, and reports whether it did.
func (g *gen) intCompare(x *ir.Compare) (*jen.Statement, bool) {
	if len(x.Ops) != 1 {
		return nil, false
	}
	switch op := x.Ops[0]; op {
	case "==", "!=", "<", "<=", ">", ">=":
		l, ok := g.intValue(x.X)
		if !ok {
			return nil, false
		}
		r, ok := g.intValue(x.Ys[0])
		if !ok {
			return nil, false
		}
		return l.Op(op).Add(r), true
	}
	return nil, false
}

// intAttr compiles loop.<name> as a Go int, for the positions that are ints, and
// reports whether the code is one operand (see intValue).
func (p position) intAttr(name string) (code *jen.Statement, operand, ok bool) {
	i, n := jen.Id(p.index), jen.Len(jen.Id(p.items))
	switch name {
	case "index0":
		return i, true, true
	case "index":
		return i.Op("+").Lit(1), false, true
	case "length":
		return n, true, true
	case "revindex":
		return n.Op("-").Add(i), false, true
	case "revindex0":
		return n.Op("-").Add(i).Op("-").Lit(1), false, true
	}
	return nil, false, false
}
