package ir

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

// Format returns a readable listing of the IR: one statement per line with its template
// position, scopes with the variables they declare and how each is initialized.
// Variables print as name#id.
func Format(t *Template) string {
	p := &printer{}
	p.line(Pos{}, "template %s", t.File)
	p.block(t.Body)
	return p.b.String()
}

type printer struct {
	b      strings.Builder
	indent int
}

func (p *printer) line(pos Pos, format string, args ...any) {
	if pos.Line > 0 {
		fmt.Fprintf(&p.b, "%-8s", fmt.Sprintf("%d:%d", pos.Line, pos.Col))
	} else {
		p.b.WriteString("        ")
	}
	p.b.WriteString(strings.Repeat("  ", p.indent))
	fmt.Fprintf(&p.b, format, args...)
	p.b.WriteByte('\n')
}

func (p *printer) block(b *Block) {
	p.indent++
	p.scope(b.Scope)
	p.stmts(b.Stmts)
	p.indent--
}

func (p *printer) scope(s *Scope) {
	if s == nil || len(s.Vars) == 0 {
		return
	}
	var parts []string
	for _, v := range s.Vars {
		init := "param"
		if v.Init != nil {
			init = ExprString(v.Init)
		}
		parts = append(parts, fmt.Sprintf("%s = %s", varName(v), init))
	}
	p.line(Pos{}, "scope %s", strings.Join(parts, ", "))
}

func (p *printer) stmts(ss []Stmt) {
	for _, s := range ss {
		p.stmt(s)
	}
}

func (p *printer) stmt(s Stmt) {
	pos := s.Position()
	switch s := s.(type) {
	case *Text:
		p.line(pos, "text %s", strconv.Quote(s.Text))
	case *Print:
		p.line(pos, "print %s", ExprString(s.X))
	case *If:
		p.line(pos, "if %s", ExprString(s.Cond))
		p.indent++
		p.stmts(s.Then)
		p.indent--
		if len(s.Else) > 0 {
			p.line(Pos{}, "else")
			p.indent++
			p.stmts(s.Else)
			p.indent--
		}
	case *For:
		extra := ""
		if s.Filter != nil {
			extra += " if " + ExprString(s.Filter)
		}
		if s.Loop != nil {
			extra += " with " + varName(s.Loop)
		}
		if s.Recursive {
			extra += " recursive"
		}
		p.line(pos, "for %s in %s%s", targetString(s.Target), ExprString(s.Iter), extra)
		p.block(s.Body)
		if s.Else != nil {
			p.line(Pos{}, "else")
			p.block(s.Else)
		}
	case *Assign:
		p.line(pos, "set %s = %s", targetString(s.Target), ExprString(s.Value))
	case *Capture:
		p.line(pos, "set %s = capture%s", targetString(s.Target), filtersString(s.Filters))
		p.block(s.Body)
	case *MacroDef:
		p.line(pos, "set %s = %s", varName(s.Var), macroString(s.Macro))
		p.block(s.Macro.Body)
	case *CallBlock:
		p.line(pos, "print %s with caller = %s", ExprString(s.Call), macroString(s.Caller))
		p.block(s.Caller.Body)
	case *FilterBlock:
		p.line(pos, "print capture%s", filtersString(s.Filters))
		p.block(s.Body)
	case *With:
		var parts []string
		for i, t := range s.Targets {
			parts = append(parts, targetString(t)+" = "+ExprString(s.Values[i]))
		}
		p.line(pos, "with %s", strings.Join(parts, ", "))
		p.block(s.Body)
	case *Break:
		p.line(pos, "break")
	case *Continue:
		p.line(pos, "continue")
	case *Fail:
		p.line(pos, "fail %s: %s", s.Kind, s.Msg)
	default:
		p.line(pos, "?%T", s)
	}
}

func varName(v *Var) string { return fmt.Sprintf("%s#%d", v.Name, v.ID) }

func macroString(m *Macro) string {
	var params []string
	for i, v := range m.Params {
		s := varName(v)
		if m.Defaults[i] != nil {
			s += "=" + ExprString(m.Defaults[i])
		}
		params = append(params, s)
	}
	for _, v := range []*Var{m.Caller, m.Kwargs, m.Varargs} {
		if v != nil {
			params = append(params, varName(v)+" (implicit)")
		}
	}
	return fmt.Sprintf("macro %s(%s)", m.Name, strings.Join(params, ", "))
}

func filtersString(fs []*Filter) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString(" | " + f.Name + argsString(f.Args, false))
	}
	return b.String()
}

func targetString(t Target) string {
	switch t := t.(type) {
	case *VarTarget:
		return varName(t.Var)
	case *AttrTarget:
		return varName(t.NS) + "." + t.Attr
	case *TupleTarget:
		var parts []string
		for _, it := range t.Items {
			parts = append(parts, targetString(it))
		}
		return "(" + strings.Join(parts, ", ") + ")"
	}
	return "?"
}

func argsString(a Args, always bool) string {
	var w exprWriter
	w.args(a, always)
	return w.String()
}

// ExprString writes an expression in Jinja-like syntax with resolved variables.
func ExprString(x Expr) string {
	var w exprWriter
	w.expr(x)
	return w.String()
}

// exprWriter writes expressions into one buffer: an expression nested n deep (a long
// chain of + is one) costs its length once, not its length at each level.
type exprWriter struct{ strings.Builder }

func (w *exprWriter) expr(x Expr) {
	switch x := x.(type) {
	case nil:
		w.WriteString("none")
	case *Const:
		w.WriteString(ConstString(x.Value))
	case *Load:
		w.WriteString(varName(x.Var))
	case *Input:
		w.WriteString("input." + x.Name)
	case *Global:
		w.WriteString("global." + x.Name)
	case *Undef:
		w.WriteString("undefined(" + x.Name + ")")
	case *Unspelled:
		w.WriteString("unspelled(" + x.Name + ", ")
		w.expr(x.X)
		w.WriteString(")")
	case *Invalid:
		w.WriteString("invalid(" + strconv.Quote(x.Msg) + ", ")
		w.expr(x.X)
		w.WriteString(")")
	case *Attr:
		w.expr(x.X)
		w.WriteString("." + x.Name)
	case *Item:
		w.expr(x.X)
		w.WriteString("[")
		w.expr(x.Key)
		w.WriteString("]")
	case *Slice:
		w.expr(x.X)
		w.WriteString("[")
		w.optional(x.Start)
		w.WriteString(":")
		w.optional(x.Stop)
		if x.Step != nil {
			w.WriteString(":")
			w.expr(x.Step)
		}
		w.WriteString("]")
	case *List:
		w.WriteString("[")
		w.list(x.Items, ", ", false)
		w.WriteString("]")
	case *Tuple:
		w.WriteString("(")
		w.list(x.Items, ", ", false)
		if len(x.Items) == 1 {
			w.WriteString(",")
		}
		w.WriteString(")")
	case *Dict:
		w.WriteString("{")
		for i := range x.Keys {
			if i > 0 {
				w.WriteString(", ")
			}
			w.expr(x.Keys[i])
			w.WriteString(": ")
			w.expr(x.Values[i])
		}
		w.WriteString("}")
	case *Unary:
		switch x.Op {
		case "neg":
			w.WriteString("-")
		case "pos":
			w.WriteString("+")
		default:
			w.WriteString("not ")
		}
		w.paren(x.X)
	case *Binary:
		w.paren(x.L)
		w.WriteString(" " + x.Op + " ")
		w.paren(x.R)
	case *Concat:
		w.list(x.Items, " ~ ", true)
	case *Compare:
		w.paren(x.X)
		for i, op := range x.Ops {
			if op == "notin" {
				op = "not in"
			}
			w.WriteString(" " + op + " ")
			w.paren(x.Ys[i])
		}
	case *Cond:
		w.paren(x.Then)
		w.WriteString(" if ")
		w.paren(x.Test)
		if x.Else != nil {
			w.WriteString(" else ")
			w.paren(x.Else)
		}
	case *Call:
		w.paren(x.Fn)
		w.args(x.Args, true)
	case *Filter:
		w.paren(x.X)
		w.WriteString(" | " + x.Name)
		w.args(x.Args, false)
	case *Test:
		w.paren(x.X)
		w.WriteString(" is " + x.Name)
		w.args(x.Args, false)
	default:
		fmt.Fprintf(w, "?%T", x)
	}
}

// optional writes x, or nothing for nil (a slice's omitted bound).
func (w *exprWriter) optional(x Expr) {
	if x != nil {
		w.expr(x)
	}
}

// list writes xs separated by sep, each in parentheses if it needs them and parens.
func (w *exprWriter) list(xs []Expr, sep string, parens bool) {
	for i, x := range xs {
		if i > 0 {
			w.WriteString(sep)
		}
		if parens {
			w.paren(x)
		} else {
			w.expr(x)
		}
	}
}

// paren writes x, in parentheses when it is an operation.
func (w *exprWriter) paren(x Expr) {
	switch x.(type) {
	case *Binary, *Compare, *Cond, *Unary, *Concat, *Filter, *Test:
		w.WriteString("(")
		w.expr(x)
		w.WriteString(")")
	default:
		w.expr(x)
	}
}

// args writes a call's arguments in parentheses: none at all for none unless always.
func (w *exprWriter) args(a Args, always bool) {
	places := a.Places()
	n := 0
	sep := func() {
		if n == 0 {
			w.WriteString("(")
		} else {
			w.WriteString(", ")
		}
		n++
	}
	for _, p := range places {
		sep()
		if p.Kwarg != nil {
			w.WriteString(p.Kwarg.Name + "=")
			w.expr(p.Kwarg.Value)
		} else {
			w.expr(p.Arg)
		}
	}
	for _, kw := range a.Kwargs {
		if kw.PositionalAfter == 0 {
			sep()
			w.WriteString(kw.Name + "=")
			w.expr(kw.Value)
		}
	}
	if a.DynArgs != nil {
		sep()
		w.WriteString("*")
		w.expr(a.DynArgs)
	}
	if a.DynKwargs != nil {
		sep()
		w.WriteString("**")
		w.expr(a.DynKwargs)
	}
	switch {
	case n > 0:
		w.WriteString(")")
	case always:
		w.WriteString("()")
	}
}

// ConstString writes a literal as Jinja would.
func ConstString(v any) string {
	switch v := v.(type) {
	case nil:
		return "none"
	case bool:
		if v {
			return "true"
		}
		return "false"
	case *big.Int:
		return v.String()
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case string:
		return strconv.Quote(v)
	}
	return fmt.Sprintf("%v", v)
}
