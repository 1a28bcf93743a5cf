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
	m := &mentionIndex{}
	check := func(s *Scope, stmts []Stmt) {
		for _, v := range s.Vars {
			if v.Init != nil && !byDefault[v] {
				if reads, _ := m.firstUse(stmts, v); !reads {
					dead[v] = true
				}
			}
		}
	}
	check(t.Body.Scope, t.Body.Stmts)
	Inspect(t.Body.Stmts, func(n any) bool {
		switch n := n.(type) {
		case *Macro: // visited before its body
			read := map[*Var]bool{}
			for _, d := range n.Defaults {
				if d != nil {
					InspectExpr(d, mentionCollector(read))
				}
			}
			for _, v := range n.Body.Scope.Vars {
				byDefault[v] = byDefault[v] || read[v]
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
func (m *mentionIndex) firstUse(stmts []Stmt, v *Var) (reads, assigned bool) {
	for _, i := range m.occurrences(stmts)[v] { // the others neither read nor assign it
		switch s := stmts[i].(type) {
		case *Assign:
			if t, ok := s.Target.(*VarTarget); ok && t.Var == v {
				return m.expr(s.Value)[v], true
			}
		case *If:
			if m.expr(s.Cond)[v] {
				return true, false
			}
			thenReads, thenAssigns := m.firstUse(s.Then, v)
			elseReads, elseAssigns := m.firstUse(s.Else, v)
			if thenReads || elseReads {
				return true, false
			}
			if thenAssigns && elseAssigns {
				return false, true
			}
			continue
		}
		return true, false
	}
	return false, false
}

// mentionIndex holds, for statement lists, where each variable is mentioned, found
// once for all the variables of a scope (a walk per variable would be quadratic in a
// template of many variables): a use of any kind, a read, an assignment of it or of one
// of its attributes, a nested scope's variable starting from it.
type mentionIndex struct {
	lists map[stmtList]map[*Var][]int // the statements of each list that mention each variable
	exprs map[Expr]map[*Var]bool
}

// stmtList identifies a list of statements: its first and its length.
type stmtList struct {
	first *Stmt
	n     int
}

// occurrences returns, for each variable stmts mention, the indices of the statements
// that mention it, in order.
func (m *mentionIndex) occurrences(stmts []Stmt) map[*Var][]int {
	if len(stmts) == 0 {
		return nil
	}
	key := stmtList{&stmts[0], len(stmts)}
	if occ, ok := m.lists[key]; ok {
		return occ
	}
	occ := map[*Var][]int{}
	for i, s := range stmts {
		vars := map[*Var]bool{}
		Inspect([]Stmt{s}, mentionCollector(vars))
		for v := range vars {
			occ[v] = append(occ[v], i)
		}
	}
	if m.lists == nil {
		m.lists = map[stmtList]map[*Var][]int{}
	}
	m.lists[key] = occ
	return occ
}

// expr returns the variables x mentions.
func (m *mentionIndex) expr(x Expr) map[*Var]bool {
	if vars, ok := m.exprs[x]; ok {
		return vars
	}
	vars := map[*Var]bool{}
	InspectExpr(x, mentionCollector(vars))
	if m.exprs == nil {
		m.exprs = map[Expr]map[*Var]bool{}
	}
	m.exprs[x] = vars
	return vars
}

// mentionCollector returns a visitor for Inspect that adds to vars each variable it
// finds mentioned.
func mentionCollector(vars map[*Var]bool) func(n any) bool {
	starts := func(s *Scope) {
		if s == nil {
			return
		}
		for _, sv := range s.Vars {
			if l, ok := sv.Init.(*Load); ok {
				vars[l.Var] = true
			}
		}
	}
	return func(n any) bool {
		switch n := n.(type) {
		case *Load:
			vars[n.Var] = true
		case *VarTarget:
			vars[n.Var] = true
		case *AttrTarget:
			vars[n.NS] = true
		case *Block:
			starts(n.Scope)
		case *For:
			starts(n.FilterScope)
		}
		return true
	}
}
