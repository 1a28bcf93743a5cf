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
	var parts []string
	for _, p := range a.Places() {
		if p.Kwarg != nil {
			parts = append(parts, p.Kwarg.Name+"="+ExprString(p.Kwarg.Value))
		} else {
			parts = append(parts, ExprString(p.Arg))
		}
	}
	for _, kw := range a.Kwargs {
		if kw.PositionalAfter == 0 {
			parts = append(parts, kw.Name+"="+ExprString(kw.Value))
		}
	}
	if a.DynArgs != nil {
		parts = append(parts, "*"+ExprString(a.DynArgs))
	}
	if a.DynKwargs != nil {
		parts = append(parts, "**"+ExprString(a.DynKwargs))
	}
	if len(parts) == 0 && !always {
		return ""
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// ExprString writes an expression in Jinja-like syntax with resolved variables.
func ExprString(x Expr) string {
	switch x := x.(type) {
	case nil:
		return "none"
	case *Const:
		return ConstString(x.Value)
	case *Load:
		return varName(x.Var)
	case *Input:
		return "input." + x.Name
	case *Global:
		return "global." + x.Name
	case *Undef:
		return "undefined(" + x.Name + ")"
	case *Unspelled:
		return "unspelled(" + x.Name + ", " + ExprString(x.X) + ")"
	case *Invalid:
		return "invalid(" + strconv.Quote(x.Msg) + ", " + ExprString(x.X) + ")"
	case *Attr:
		return ExprString(x.X) + "." + x.Name
	case *Item:
		return ExprString(x.X) + "[" + ExprString(x.Key) + "]"
	case *Slice:
		part := func(e Expr) string {
			if e == nil {
				return ""
			}
			return ExprString(e)
		}
		s := ExprString(x.X) + "[" + part(x.Start) + ":" + part(x.Stop)
		if x.Step != nil {
			s += ":" + part(x.Step)
		}
		return s + "]"
	case *List:
		return "[" + exprList(x.Items) + "]"
	case *Tuple:
		if len(x.Items) == 1 {
			return "(" + ExprString(x.Items[0]) + ",)"
		}
		return "(" + exprList(x.Items) + ")"
	case *Dict:
		var parts []string
		for i := range x.Keys {
			parts = append(parts, ExprString(x.Keys[i])+": "+ExprString(x.Values[i]))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case *Unary:
		switch x.Op {
		case "neg":
			return "-" + paren(x.X)
		case "pos":
			return "+" + paren(x.X)
		}
		return "not " + paren(x.X)
	case *Binary:
		return paren(x.L) + " " + x.Op + " " + paren(x.R)
	case *Concat:
		var parts []string
		for _, it := range x.Items {
			parts = append(parts, paren(it))
		}
		return strings.Join(parts, " ~ ")
	case *Compare:
		s := paren(x.X)
		for i, op := range x.Ops {
			if op == "notin" {
				op = "not in"
			}
			s += " " + op + " " + paren(x.Ys[i])
		}
		return s
	case *Cond:
		s := paren(x.Then) + " if " + paren(x.Test)
		if x.Else != nil {
			s += " else " + paren(x.Else)
		}
		return s
	case *Call:
		return paren(x.Fn) + argsString(x.Args, true)
	case *Filter:
		return paren(x.X) + " | " + x.Name + argsString(x.Args, false)
	case *Test:
		return paren(x.X) + " is " + x.Name + argsString(x.Args, false)
	}
	return fmt.Sprintf("?%T", x)
}

func exprList(xs []Expr) string {
	var parts []string
	for _, x := range xs {
		parts = append(parts, ExprString(x))
	}
	return strings.Join(parts, ", ")
}

func paren(x Expr) string {
	switch x.(type) {
	case *Binary, *Compare, *Cond, *Unary, *Concat, *Filter, *Test:
		return "(" + ExprString(x) + ")"
	}
	return ExprString(x)
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
