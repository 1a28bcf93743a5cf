package ir

// Inspect walks the statements and everything in them in source order: each statement,
// expression, target, block and macro is passed to fn; when fn returns false, the
// node's children are skipped. The initializers of scope variables are not visited (a
// visitor that needs them reads them from the *Block's Scope).
func Inspect(stmts []Stmt, fn func(node any) bool) {
	w := walker{fn}
	w.stmts(stmts)
}

// InspectExpr walks one expression as Inspect does.
func InspectExpr(x Expr, fn func(node any) bool) {
	w := walker{fn}
	w.expr(x)
}

type walker struct {
	fn func(node any) bool
}

func (w walker) stmts(ss []Stmt) {
	for _, s := range ss {
		w.stmt(s)
	}
}

func (w walker) block(b *Block) {
	if b == nil || !w.fn(b) {
		return
	}
	w.stmts(b.Stmts)
}

func (w walker) macro(m *Macro) {
	if !w.fn(m) {
		return
	}
	for _, d := range m.Defaults {
		if d != nil {
			w.expr(d)
		}
	}
	w.block(m.Body)
}

func (w walker) stmt(s Stmt) {
	if !w.fn(s) {
		return
	}
	switch s := s.(type) {
	case *Print:
		w.expr(s.X)
	case *If:
		w.expr(s.Cond)
		w.stmts(s.Then)
		w.stmts(s.Else)
	case *For:
		w.expr(s.Iter)
		if s.Filter != nil {
			w.target(s.FilterTarget)
			w.expr(s.Filter)
		}
		w.target(s.Target)
		w.block(s.Body)
		w.block(s.Else)
	case *Assign:
		w.expr(s.Value)
		w.target(s.Target)
	case *Capture:
		w.block(s.Body)
		for _, f := range s.Filters {
			w.expr(f)
		}
		w.target(s.Target)
	case *MacroDef:
		w.macro(s.Macro)
	case *CallBlock:
		w.expr(s.Call)
		w.macro(s.Caller)
	case *FilterBlock:
		w.block(s.Body)
		for _, f := range s.Filters {
			w.expr(f)
		}
	case *With:
		for _, x := range s.Values {
			w.expr(x)
		}
		for _, t := range s.Targets {
			w.target(t)
		}
		w.block(s.Body)
	}
}

func (w walker) target(t Target) {
	if t == nil || !w.fn(t) {
		return
	}
	if tt, ok := t.(*TupleTarget); ok {
		for _, it := range tt.Items {
			w.target(it)
		}
	}
}

func (w walker) args(a Args) {
	for _, x := range a.Args {
		w.expr(x)
	}
	for _, kw := range a.Kwargs {
		w.expr(kw.Value)
	}
	if a.DynArgs != nil {
		w.expr(a.DynArgs)
	}
	if a.DynKwargs != nil {
		w.expr(a.DynKwargs)
	}
}

func (w walker) expr(x Expr) {
	if x == nil || !w.fn(x) {
		return
	}
	switch x := x.(type) {
	case *Attr:
		w.expr(x.X)
	case *Item:
		w.expr(x.X)
		w.expr(x.Key)
	case *Slice:
		w.expr(x.X)
		w.expr(x.Start)
		w.expr(x.Stop)
		w.expr(x.Step)
	case *List:
		for _, it := range x.Items {
			w.expr(it)
		}
	case *Tuple:
		for _, it := range x.Items {
			w.expr(it)
		}
	case *Dict:
		for i := range x.Keys {
			w.expr(x.Keys[i])
			w.expr(x.Values[i])
		}
	case *Unary:
		w.expr(x.X)
	case *Binary:
		w.expr(x.L)
		w.expr(x.R)
	case *Concat:
		for _, it := range x.Items {
			w.expr(it)
		}
	case *Compare:
		w.expr(x.X)
		for _, y := range x.Ys {
			w.expr(y)
		}
	case *Unspelled:
		w.expr(x.X)
	case *Invalid:
		w.expr(x.X)
	case *Cond:
		w.expr(x.Test)
		w.expr(x.Then)
		w.expr(x.Else)
	case *Call:
		w.expr(x.Fn)
		w.args(x.Args)
	case *Filter:
		w.expr(x.X)
		w.args(x.Args)
	case *Test:
		w.expr(x.X)
		w.args(x.Args)
	}
}
