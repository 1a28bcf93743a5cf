package codegen

import "github.com/tmplgen/tmplgen/ir"

// deadInits returns the variables whose initial value no code can see: every path
// through their scope's statements assigns them before anything reads them. Such a
// variable is declared without its initial value, and the input variable or enclosing
// variable it would start from is not read for it: a loop body that begins with
// {% set content = message.content %} does not look up the input's content.
func deadInits(t *ir.Template) map[*ir.Var]bool {
	dead := map[*ir.Var]bool{}
	check := func(s *ir.Scope, stmts []ir.Stmt) {
		for _, v := range s.Vars {
			if v.Init != nil {
				if reads, _ := firstUse(stmts, v); !reads {
					dead[v] = true
				}
			}
		}
	}
	check(t.Body.Scope, t.Body.Stmts)
	ir.Inspect(t.Body.Stmts, func(n any) bool {
		if b, ok := n.(*ir.Block); ok && b.Scope != nil {
			check(b.Scope, b.Stmts)
		}
		return true
	})
	return dead
}

// firstUse follows stmts in order: reads says that v may be read before it is assigned
// (any use the analysis does not follow counts as a read), assigned that every path
// through stmts assigns it.
func firstUse(stmts []ir.Stmt, v *ir.Var) (reads, assigned bool) {
	for _, s := range stmts {
		switch s := s.(type) {
		case *ir.Assign:
			if t, ok := s.Target.(*ir.VarTarget); ok && t.Var == v {
				return mentionsExpr(s.Value, v), true
			}
		case *ir.If:
			if mentionsExpr(s.Cond, v) {
				return true, false
			}
			thenReads, thenAssigns := firstUse(s.Then, v)
			elseReads, elseAssigns := firstUse(s.Else, v)
			if thenReads || elseReads {
				return true, false
			}
			if thenAssigns && elseAssigns {
				return false, true
			}
			continue
		}
		if mentions(s, v) {
			return true, false
		}
	}
	return false, false
}

// mentions reports whether a statement uses v in any way: reads it, assigns it or one
// of its attributes, or starts a nested scope's variable from it.
func mentions(s ir.Stmt, v *ir.Var) bool {
	found, visit := mentionFinder(v)
	ir.Inspect([]ir.Stmt{s}, visit)
	return *found
}

// mentionsExpr is mentions for an expression.
func mentionsExpr(x ir.Expr, v *ir.Var) bool {
	found, visit := mentionFinder(v)
	ir.InspectExpr(x, visit)
	return *found
}

// mentionFinder returns a visitor for ir.Inspect that sets *found at the first use of v.
func mentionFinder(v *ir.Var) (found *bool, visit func(n any) bool) {
	found = new(bool)
	visit = func(n any) bool {
		switch n := n.(type) {
		case *ir.Load:
			*found = *found || n.Var == v
		case *ir.VarTarget:
			*found = *found || n.Var == v
		case *ir.AttrTarget:
			*found = *found || n.NS == v
		case *ir.Block:
			*found = *found || startsFrom(n.Scope, v)
		case *ir.For:
			*found = *found || startsFrom(n.FilterScope, v)
		}
		return !*found
	}
	return found, visit
}

// startsFrom reports whether a variable of scope s starts as the value of v.
func startsFrom(s *ir.Scope, v *ir.Var) bool {
	if s == nil {
		return false
	}
	for _, sv := range s.Vars {
		if l, ok := sv.Init.(*ir.Load); ok && l.Var == v {
			return true
		}
	}
	return false
}
