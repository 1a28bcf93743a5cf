package ir

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
)

// Where a template writes request data, as a render with segments marks it (see
// tmplgen.Template.RenderSegments): a value is template text when it is a literal or
// built from literals by operations that keep template text (concatenation, join,
// slicing, strip and trim, and replace, format, %, upper, lower and split of template
// text alone), or the model's special tokens (bos_token...); everything else a
// template writes (the request's values, numbers, what filters compute) is data.

// DataWrite is a statement that writes request data: {{ }} of a value that is not
// template text alone.
type DataWrite struct {
	Pos  Pos
	Expr Expr
}

// MarkupLoss is template text with a special token that a render can only mark as
// data: an operation that does not keep template text mixes it with data, or a token
// is built from template text and request data.
type MarkupLoss struct {
	Pos Pos
	Why string
}

// tokenOpen and tokenClose find text that opens or closes a special token that request
// data completes: '<|' + role + '|>'.
var (
	tokenOpen  = regexp.MustCompile(`(<\||<｜)[^|｜<>\s]{0,40}$`)
	tokenClose = regexp.MustCompile(`^[^|｜<>\s]{0,40}(\|>|｜>)`)
)

// Origins returns the statements of t that write request data and the places where
// template text with a special token can only be data, in source order.
func Origins(t *Template) ([]DataWrite, []MarkupLoss) {
	a := &origins{template: map[*Var]bool{}, macros: map[*Var]bool{}, chained: map[*Binary]bool{}}
	Inspect(t.Body.Stmts, func(n any) bool {
		if d, ok := n.(*MacroDef); ok {
			a.macros[d.Var] = true
		}
		return true
	})
	// a variable is template text when every value assigned to it is: assume so of
	// every variable, and take it back until nothing changes
	for _, v := range t.Vars {
		a.template[v] = true
	}
	for changed := true; changed; {
		changed = false
		unset := func(v *Var) {
			if a.template[v] {
				a.template[v], changed = false, true
			}
		}
		for _, v := range t.Vars {
			if v.Init == nil || !a.isTemplate(v.Init) {
				unset(v) // parameters (loop targets, macro parameters) and inputs
			}
		}
		Inspect(t.Body.Stmts, func(n any) bool {
			switch n := n.(type) {
			case *Assign:
				a.assign(n.Target, a.isTemplate(n.Value), unset)
			case *For:
				a.assign(n.Target, a.isTemplate(n.Iter), unset)
			case *Capture:
				a.assign(n.Target, false, unset) // its text may mix both, exactly
			case *With:
				for i, tg := range n.Targets {
					a.assign(tg, a.isTemplate(n.Values[i]), unset)
				}
			}
			return true
		})
	}
	var writes []DataWrite
	a.written(t.Body.Stmts)
	Inspect(t.Body.Stmts, func(n any) bool {
		switch n := n.(type) {
		case *Block:
			a.written(n.Stmts)
		case *If:
			a.written(n.Then)
			a.written(n.Else)
		case *Print:
			if !a.isTemplate(n.X) && !a.isMacroCall(n.X) {
				writes = append(writes, DataWrite{n.P, n.X})
			}
		}
		if x, ok := n.(Expr); ok {
			a.losses(x)
		}
		return true
	})
	slices.SortStableFunc(a.lost, func(x, y MarkupLoss) int {
		return cmp.Or(cmp.Compare(x.Pos.Line, y.Pos.Line), cmp.Compare(x.Pos.Col, y.Pos.Col))
	})
	return writes, a.lost
}

// written records the special tokens a run of statements completes with request data:
// text that opens one, {{ data }}, text that closes it (<|{{ message.role }}|>).
func (a *origins) written(stmts []Stmt) {
	for i := 0; i+2 < len(stmts); i++ {
		open, ok1 := stmts[i].(*Text)
		p, ok2 := stmts[i+1].(*Print)
		closing, ok3 := stmts[i+2].(*Text)
		if !ok1 || !ok2 || !ok3 || a.isTemplate(p.X) {
			continue
		}
		a.completes(p.P, open.Text, closing.Text)
	}
}

// completes records a loss at pos when the template text open opens a special token
// and closing closes it, with request data between them.
func (a *origins) completes(pos Pos, open, closing string) {
	if m, n := tokenOpen.FindString(open), tokenClose.FindString(closing); m != "" && n != "" {
		a.lost = append(a.lost, MarkupLoss{pos, m + "…" + n + ": a special token completed by request data"})
	}
}

type origins struct {
	template map[*Var]bool // the variables whose every value is template text
	macros   map[*Var]bool // the variables that hold macros
	lost     []MarkupLoss
	chained  map[*Binary]bool // the sums of a chain already looked at
}

// assign takes back that the variables of tg hold template text, unless the value is.
func (a *origins) assign(tg Target, template bool, unset func(*Var)) {
	if template {
		return
	}
	switch tg := tg.(type) {
	case *VarTarget:
		unset(tg.Var)
	case *TupleTarget:
		for _, it := range tg.Items {
			a.assign(it, false, unset)
		}
	case *AttrTarget:
		unset(tg.NS) // a namespace with data in it
	}
}

// isMacroCall reports whether x calls a macro, whose own statements write its text
// (trimmed or not).
func (a *origins) isMacroCall(x Expr) bool {
	switch x := x.(type) {
	case *Filter:
		return x.X != nil && keepsExactly(x.Name) && a.isMacroCall(x.X)
	case *Call:
		l, ok := x.Fn.(*Load)
		return ok && a.macros[l.Var]
	}
	return false
}

// keepsTemplate are the filters and methods whose result is template text when their
// operand and arguments are.
var keepsTemplate = map[string]bool{
	"trim": true, "strip": true, "lstrip": true, "rstrip": true, "replace": true, "upper": true, "lower": true,
	"format": true, "split": true, "join": true, "string": true, "capitalize": true, "title": true,
}

// isTemplate reports whether x's value is template text alone.
func (a *origins) isTemplate(x Expr) bool {
	switch x := x.(type) {
	case *Const:
		_, ok := x.Value.(string)
		return ok
	case *Input:
		return strings.HasSuffix(x.Name, "_token") // the model's special tokens
	case *Load:
		return a.template[x.Var]
	case *Undef:
		return true // prints as nothing
	case *Binary:
		return (x.Op == "+" || x.Op == "%") && a.isTemplate(x.L) && a.isTemplate(x.R)
	case *Concat:
		return a.all(x.Items)
	case *Cond:
		return a.isTemplate(x.Then) && (x.Else == nil || a.isTemplate(x.Else))
	case *List:
		return a.all(x.Items)
	case *Tuple:
		return a.all(x.Items)
	case *Slice:
		return a.isTemplate(x.X)
	case *Item:
		return a.isTemplate(x.X) // an item of a list of template text
	case *Attr:
		return a.isTemplate(x.X)
	case *Filter:
		return keepsTemplate[x.Name] && a.isTemplate(x.X) && a.allArgs(x.Args)
	case *Call:
		if m, ok := x.Fn.(*Attr); ok {
			return keepsTemplate[m.Name] && a.isTemplate(m.X) && a.allArgs(x.Args)
		}
	}
	return false
}

func (a *origins) all(xs []Expr) bool {
	for _, x := range xs {
		if !a.isTemplate(x) {
			return false
		}
	}
	return true
}

func (a *origins) allArgs(args Args) bool {
	for _, kw := range args.Kwargs {
		if !a.isTemplate(kw.Value) {
			return false
		}
	}
	return args.DynArgs == nil && args.DynKwargs == nil && a.all(args.Args)
}

// losses records where x loses template text with a special token: a filter or method
// that does not keep it applied to it mixed with data, or a token completed by data.
func (a *origins) losses(x Expr) {
	switch x := x.(type) {
	case *Filter:
		if x.X != nil && !a.isTemplate(x) && !keepsExactly(x.Name) {
			a.lostIn(x.P, x.X, "the filter "+x.Name+" mixes it with data")
		}
	case *Call:
		if m, ok := x.Fn.(*Attr); ok && !a.isTemplate(x) && !keepsExactly(m.Name) {
			a.lostIn(x.P, m.X, "the method "+m.Name+" mixes it with data")
		}
	case *Binary:
		if x.Op == "+" && !a.chained[x] {
			a.completed(x.P, a.sum(x))
		}
		if x.Op == "%" && !a.isTemplate(x) {
			a.lostIn(x.P, x.L, "% formats data into it")
		}
	case *Concat:
		a.completed(x.P, x.Items)
	}
}

// sum returns the operands of the chain of + that x ends, left to right.
func (a *origins) sum(x Expr) []Expr {
	b, ok := x.(*Binary)
	if !ok || b.Op != "+" {
		return []Expr{x}
	}
	a.chained[b] = true
	return append(a.sum(b.L), b.R)
}

// keepsExactly reports whether a filter or method keeps the origins of its operand's
// bytes, data or not: it takes a substring, or concatenates.
func keepsExactly(name string) bool {
	switch name {
	case "trim", "strip", "lstrip", "rstrip", "join":
		return true
	}
	return false
}

// lostIn records a loss at pos when x, which an operation mixes with data, holds
// template text with a special token.
func (a *origins) lostIn(pos Pos, x Expr, why string) {
	InspectExpr(x, func(n any) bool {
		if c, ok := n.(*Const); ok {
			if s, ok := c.Value.(string); ok {
				if tok := specialToken.FindString(s); tok != "" {
					a.lost = append(a.lost, MarkupLoss{pos, tok + ": " + why})
					return false
				}
			}
		}
		return true
	})
}

// completed records a special token that a concatenation builds from template text and
// data: a literal that opens one, data, and a literal that closes it.
func (a *origins) completed(pos Pos, items []Expr) {
	for i := 0; i+2 < len(items); i++ {
		open, ok1 := items[i].(*Const)
		closing, ok2 := items[i+2].(*Const)
		if !ok1 || !ok2 || a.isTemplate(items[i+1]) {
			continue
		}
		o, _ := open.Value.(string)
		c, _ := closing.Value.(string)
		a.completes(pos, o, c)
	}
}
