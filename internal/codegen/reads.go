package codegen

import (
	"math/big"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/tmplgen/tmplgen/internal/ir"
)

// Reading the same attribute twice.
//
// Templates read message.role, messages[0].content and the like over and over: in each
// condition of an if/elif chain, then again in the output. Such a read chain (a
// variable followed by attributes and constant subscripts) gives the same value every
// time while its variable is not assigned, because nothing a template can do changes a
// dict or a list (the sandbox refuses the methods that would). The exceptions are
// attributes a template sets ({% set ns.attr = ... %}: the generator leaves every
// attribute of that name alone) and the current item of a cycler.
//
// So when a statement is about to evaluate a read chain that the rest of its block
// evaluates again, the generator declares a Go variable holding it, just before the
// statement, and later uses of the chain read that variable. Only a chain the statement
// evaluates first thing is declared early (before it, the statement has evaluated only
// other reads, constants and comparisons for equality), so that no read happens where
// the template would not make it, and errors come in the template's order.

// readCache is what the generated code holds in variables at the point being
// generated: the read chains by key, with their Go variable and their root variable.
type readCache map[string]cachedRead

type cachedRead struct {
	name string
	root *ir.Var
}

// copy returns a copy of c, for restoring when a Go block ends.
func (c readCache) copy() readCache {
	out := make(readCache, len(c))
	for k, v := range c {
		out[k] = v
	}
	return out
}

// forget drops the chains rooted at the variables in vars.
func (c readCache) forget(vars map[*ir.Var]bool) {
	for k, r := range c {
		if vars[r.root] {
			delete(c, k)
		}
	}
}

// chainKey returns the key of a read chain (a variable read followed by one or more
// attributes or constant subscripts) and its root variable; ok is false for any other
// expression and for chains that may change while their root is not assigned.
func (g *gen) chainKey(x ir.Expr) (key string, root *ir.Var, ok bool) {
	var steps []string
	for {
		switch e := x.(type) {
		case *ir.Attr:
			if g.settable[e.Name] {
				return "", nil, false
			}
			steps = append(steps, "."+e.Name)
			x = e.X
			continue
		case *ir.Item:
			c, isConst := e.Key.(*ir.Const)
			if !isConst {
				return "", nil, false
			}
			switch k := c.Value.(type) {
			case string:
				if g.settable[k] {
					return "", nil, false
				}
				steps = append(steps, "["+strconv.Quote(k)+"]")
			case *big.Int:
				if !k.IsInt64() {
					return "", nil, false
				}
				steps = append(steps, "["+k.String()+"]")
			default:
				return "", nil, false
			}
			x = e.X
			continue
		case *ir.Load:
			if _, positional := g.positions[e.Var]; len(steps) == 0 || g.loops[e.Var] || positional || g.namespaces[e.Var] != nil {
				return "", nil, false
			}
			var b strings.Builder
			b.WriteString(strconv.Itoa(e.Var.ID))
			for i := len(steps) - 1; i >= 0; i-- {
				b.WriteString(steps[i])
			}
			return b.String(), e.Var, true
		}
		return "", nil, false
	}
}

// chainName is a readable Go name for a read chain: message.role is messageRole.
func (g *gen) chainName(x ir.Expr) string {
	switch e := x.(type) {
	case *ir.Attr:
		return joinWords(g.chainName(e.X), Identifier(e.Name, true))
	case *ir.Item:
		switch k := e.Key.(*ir.Const).Value.(type) {
		case string:
			return joinWords(g.chainName(e.X), Identifier(k, true))
		case *big.Int:
			if k.Sign() < 0 {
				return g.chainName(e.X) + "Minus" + new(big.Int).Neg(k).String()
			}
			return joinWords(g.chainName(e.X), k.String())
		}
	case *ir.Load:
		return g.varName(e.Var)
	}
	return "read"
}

// settableNames returns the attribute names a template assigns ({% set x.name = ... %})
// and "current", the attribute of a cycler that its next() changes.
func settableNames(t *ir.Template) map[string]bool {
	names := map[string]bool{"current": true}
	ir.Inspect(t.Body.Stmts, func(n any) bool {
		if a, ok := n.(*ir.AttrTarget); ok {
			names[a.Attr] = true
		}
		return true
	})
	return names
}

// countChains adds to counts how many times the statements evaluate each read chain,
// its prefixes included (macro bodies, whose code cannot see the variables, are left
// out); sign is 1 to add, -1 to subtract.
func (g *gen) countChains(ss []ir.Stmt, counts map[string]int, sign int) {
	ir.Inspect(ss, func(n any) bool {
		if _, isMacro := n.(*ir.Macro); isMacro {
			return false
		}
		x, isExpr := n.(ir.Expr)
		if !isExpr {
			return true
		}
		if _, _, ok := g.chainKey(x); !ok {
			return true
		}
		for _, p := range chainPrefixes(x) {
			if key, _, ok := g.chainKey(p); ok {
				counts[key] += sign
			}
		}
		// the subscripts of a chain are constants: nothing more to count below it
		return false
	})
}

// chainPrefixes returns the read chains a chain starts with, shortest first, ending with
// the chain itself.
func chainPrefixes(x ir.Expr) []ir.Expr {
	var out []ir.Expr
	for {
		switch e := x.(type) {
		case *ir.Attr:
			out = append(out, e)
			x = e.X
			continue
		case *ir.Item:
			out = append(out, e)
			x = e.X
			continue
		}
		break
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// hoist declares a Go variable for each read chain that head evaluates first thing and
// that the rest of the block evaluates again, and returns the declarations.
func (g *gen) hoist(head ir.Expr) []jen.Code {
	var code []jen.Code
	g.leadingReads(head, func(chain ir.Expr) {
		for _, p := range chainPrefixes(chain) {
			key, root, ok := g.chainKey(p)
			if _, held := g.reads[key]; !ok || held || g.counts[key] < 2 {
				continue
			}
			name := g.alloc(g.chainName(p))
			code = append(code, jen.Id(name).Op(":=").Add(g.value(p)))
			g.reads[key] = cachedRead{name: name, root: root}
		}
	})
	return code
}

// leadingReads calls visit for each read chain x evaluates, in the order it evaluates
// them, as long as everything evaluated before is a read, a constant, or a comparison
// for equality (which never fails); it returns false at the first operation that could
// fail or that evaluates its operands only on a condition.
func (g *gen) leadingReads(x ir.Expr, visit func(ir.Expr)) bool {
	if _, _, ok := g.chainKey(x); ok {
		visit(x)
		return true
	}
	switch x := x.(type) {
	case *ir.Const, *ir.Load:
		return true
	case *ir.Compare:
		if !g.leadingReads(x.X, visit) || !g.leadingReads(x.Ys[0], visit) {
			return false
		}
		return len(x.Ops) == 1 && (x.Ops[0] == "==" || x.Ops[0] == "!=")
	case *ir.Unary:
		return x.Op == "not" && g.leadingReads(x.X, visit)
	case *ir.Binary:
		if x.Op == "and" || x.Op == "or" {
			// the right operand is evaluated only on a condition
			g.leadingReads(x.L, visit)
			return false
		}
		// both operands are evaluated before the operator, which can fail
		if g.leadingReads(x.L, visit) {
			g.leadingReads(x.R, visit)
		}
		return false
	case *ir.Attr:
		g.leadingReads(x.X, visit) // a method or an attribute of a computed value
		return false
	case *ir.Item:
		g.leadingReads(x.X, visit)
		return false
	case *ir.Filter:
		g.leadingReads(x.X, visit)
		return false
	case *ir.Test:
		g.leadingReads(x.X, visit)
		return false
	case *ir.Call:
		if fn, ok := x.Fn.(*ir.Attr); ok {
			// a method call evaluates its receiver first
			g.leadingReads(fn.X, visit)
		}
		return false
	case *ir.Cond:
		g.leadingReads(x.Test, visit)
		return false
	}
	return false
}
