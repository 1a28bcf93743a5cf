package ir

// DeadInits returns the variables whose initial value no code can see: every path
// through their scope's statements assigns them before anything reads them. Code
// generation declares such a variable without its initial value, so that the input
// variable or enclosing variable it would start from is not read for it (a loop body
// that begins with {% set content = message.content %} does not look up the input's
// content), and Reads does not count that value as read.
func DeadInits(t *Template) map[*Var]bool {
	dead := map[*Var]bool{}
	// the variables of a macro's scope its defaults read: they are evaluated before
	// its body, and may read the initial value of any
	byDefault := map[*Var]bool{}
	check := func(s *Scope, stmts []Stmt) {
		for _, v := range s.Vars {
			if v.Init != nil && !byDefault[v] {
				if reads, _ := firstUse(stmts, v); !reads {
					dead[v] = true
				}
			}
		}
	}
	check(t.Body.Scope, t.Body.Stmts)
	Inspect(t.Body.Stmts, func(n any) bool {
		switch n := n.(type) {
		case *Macro: // visited before its body
			for _, v := range n.Body.Scope.Vars {
				for _, d := range n.Defaults {
					if d != nil && mentionsExpr(d, v) {
						byDefault[v] = true
					}
				}
			}
		case *Block:
			if n.Scope != nil {
				check(n.Scope, n.Stmts)
			}
		}
		return true
	})
	return dead
}

// firstUse follows stmts in order: reads says that v may be read before it is assigned
// (any use the analysis does not follow counts as a read), assigned that every path
// through stmts assigns it.
func firstUse(stmts []Stmt, v *Var) (reads, assigned bool) {
	for _, s := range stmts {
		switch s := s.(type) {
		case *Assign:
			if t, ok := s.Target.(*VarTarget); ok && t.Var == v {
				return mentionsExpr(s.Value, v), true
			}
		case *If:
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
func mentions(s Stmt, v *Var) bool {
	found, visit := mentionFinder(v)
	Inspect([]Stmt{s}, visit)
	return *found
}

// mentionsExpr is mentions for an expression.
func mentionsExpr(x Expr, v *Var) bool {
	found, visit := mentionFinder(v)
	InspectExpr(x, visit)
	return *found
}

// mentionFinder returns a visitor for Inspect that sets *found at the first use of v.
func mentionFinder(v *Var) (found *bool, visit func(n any) bool) {
	found = new(bool)
	visit = func(n any) bool {
		switch n := n.(type) {
		case *Load:
			*found = *found || n.Var == v
		case *VarTarget:
			*found = *found || n.Var == v
		case *AttrTarget:
			*found = *found || n.NS == v
		case *Block:
			*found = *found || startsFrom(n.Scope, v)
		case *For:
			*found = *found || startsFrom(n.FilterScope, v)
		}
		return !*found
	}
	return found, visit
}

// startsFrom reports whether a variable of scope s starts as the value of v.
func startsFrom(s *Scope, v *Var) bool {
	if s == nil {
		return false
	}
	for _, sv := range s.Vars {
		if l, ok := sv.Init.(*Load); ok && l.Var == v {
			return true
		}
	}
	return false
}
