package codegen

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// Macros as top-level functions. The generator compiles a macro with resolved calls to
// a Go closure inside the render function (macroFunc in stmts.go), where it sees the
// variables around it as the template's macro does. liftMacros then moves each such
// closure out to a function of its own after the render function, named after both
// (renderX_show, and renderX_showLlama out of renderXLlama): the variables the closure read from around it become parameters, and
// each call passes them, so that the function reads the values the closure would have
// read at the time of the call. A closure stays where it is when that would not hold:
// when it is used other than called, when code in any closure of the render function
// assigns a variable it reads (a namespace attribute held in a Go variable, which
// another macro sets), or when such a variable is of a type the generator did not
// record (the loop's bookkeeping).

// maxLiftedMacros is the most macro closures liftMacros lifts out of one function.
const maxLiftedMacros = 200

// liftTarget is a render function whose macro closures liftMacros moves out.
type liftTarget struct {
	fn string // the render function
	// the names of the functions lifted out of it are prefix_macroSuffix
	prefix, suffix string
	// macros maps the Go name of each macro closure to the template's name for it
	macros map[string]string
	// types are the Go types of the function's local variables that are not
	// jinja2.Values, by name; "" for one whose type the generator does not write
	types map[string]string
}

// liftMacros returns the Go source src (jennifer's output, unformatted) with the macro
// closures of the targets' render functions moved out to top-level functions, as the
// comment above describes.
//
// Each closure lifted takes a parse and type check of the whole file: beyond
// maxLiftedMacros macros in a function (real templates have a dozen; a hostile one may
// have thousands, which would take minutes), its closures stay.
func liftMacros(src []byte, targets []liftTarget) ([]byte, error) {
	for _, t := range targets {
		if len(t.macros) > maxLiftedMacros {
			continue
		}
		skip := map[string]bool{}
		for {
			next, lifted, err := liftOne(src, t, skip)
			if err != nil {
				return nil, err
			}
			if lifted == "" {
				break
			}
			src = next
		}
	}
	return src, nil
}

// liftOne moves out the first macro closure of t's render function (or of a function
// lifted from it) that can be, returning the new source and the closure's name, or ""
// when none is left. skip holds the closures found to stay; liftOne adds to it.
func liftOne(src []byte, t liftTarget, skip map[string]bool) ([]byte, string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, "", fmt.Errorf("the generated source does not parse: %w", err)
	}
	info := resolveLocals(fset, f)
	s := &liftSource{src: src, fset: fset, file: f, info: info}

	for i, decl := range f.Decls {
		d, ok := decl.(*ast.FuncDecl)
		if !ok || d.Body == nil || d.Name.Name != t.fn && !t.lifted(d.Name.Name) {
			continue
		}
		for _, c := range macroClosures(d, info, t.macros) {
			if skip[c.name] {
				continue
			}
			edits, decl, ok := s.lift(c, d, t)
			if !ok {
				skip[c.name] = true
				continue
			}
			// after the render function and what was lifted from it before
			at := d.End()
			for _, next := range f.Decls[i+1:] {
				if n, ok := next.(*ast.FuncDecl); !ok || !t.lifted(n.Name.Name) {
					break
				}
				at = next.End()
			}
			edits = append(edits, edit{from: s.off(at), to: s.off(at), text: decl})
			return applyEdits(src, edits), c.name, nil
		}
	}
	return src, "", nil
}

// lifted reports whether a function is one lifted out of t's render function.
func (t liftTarget) lifted(name string) bool {
	return strings.HasPrefix(name, t.prefix+"_") && strings.HasSuffix(name, t.suffix)
}

// liftSource is a parsed source liftOne works on.
type liftSource struct {
	src  []byte
	fset *token.FileSet
	file *ast.File
	info *types.Info
}

func (s *liftSource) off(p token.Pos) int           { return s.fset.Position(p).Offset }
func (s *liftSource) text(n ast.Node) string        { return string(s.src[s.off(n.Pos()):s.off(n.End())]) }
func (s *liftSource) line(p token.Pos) int          { return s.fset.Position(p).Line }
func (s *liftSource) between(a, b token.Pos) string { return string(s.src[s.off(a):s.off(b)]) }

// closure is a macro's closure in a render function: name := func(...) {...}, or, for a
// macro that calls itself, var name func(...) and then name = func(...) {...}.
type closure struct {
	name  string
	obj   types.Object
	decl  *ast.DeclStmt // the var declaration, or nil
	stmt  *ast.AssignStmt
	fn    *ast.FuncLit
	macro string // the template's name of the macro
}

// start is where the closure's definition starts.
func (c *closure) start() token.Pos {
	if c.decl != nil {
		return c.decl.Pos()
	}
	return c.stmt.Pos()
}

// macroClosures returns the closures of macros in the function d, in the order of the
// source.
func macroClosures(d *ast.FuncDecl, info *types.Info, macros map[string]string) []*closure {
	var found []*closure
	ast.Inspect(d.Body, func(n ast.Node) bool {
		block, ok := n.(*ast.BlockStmt)
		if !ok {
			return true
		}
		for i, s := range block.List {
			a, ok := s.(*ast.AssignStmt)
			if !ok || len(a.Lhs) != 1 || len(a.Rhs) != 1 {
				continue
			}
			id, isID := a.Lhs[0].(*ast.Ident)
			fn, isFunc := a.Rhs[0].(*ast.FuncLit)
			if !isID || !isFunc || macros[id.Name] == "" {
				continue
			}
			c := &closure{name: id.Name, stmt: a, fn: fn, macro: macros[id.Name]}
			if a.Tok == token.DEFINE {
				c.obj = info.Defs[id]
			} else if ds, ok := prevStmt(block, i).(*ast.DeclStmt); ok && declares(ds, id.Name) {
				c.obj, c.decl = info.Uses[id], ds
			}
			if c.obj != nil {
				found = append(found, c)
			}
		}
		return true
	})
	return found
}

// prevStmt returns the statement before the i-th of a block, or nil.
func prevStmt(b *ast.BlockStmt, i int) ast.Stmt {
	if i == 0 {
		return nil
	}
	return b.List[i-1]
}

// declares reports whether a declaration is var name T, with no value.
func declares(ds *ast.DeclStmt, name string) bool {
	g, ok := ds.Decl.(*ast.GenDecl)
	if !ok || g.Tok != token.VAR || len(g.Specs) != 1 {
		return false
	}
	vs, ok := g.Specs[0].(*ast.ValueSpec)
	return ok && len(vs.Names) == 1 && vs.Names[0].Name == name && len(vs.Values) == 0
}

// lift works out how to lift the closure c out of the function d: the edits that
// replace its definition and its calls, and the declaration of its function; or it
// reports that the closure stays.
func (s *liftSource) lift(c *closure, d *ast.FuncDecl, t liftTarget) (edits []edit, decl string, ok bool) {
	info := s.info
	inside := func(p token.Pos, n ast.Node) bool { return p >= n.Pos() && p < n.End() }
	fn := t.prefix + "_" + c.name + t.suffix

	// the variables of d the closure reads, in the order of their declarations
	var free []types.Object
	seen := map[types.Object]bool{}
	ast.Inspect(c.fn.Body, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		obj := info.Uses[id]
		if obj == nil || seen[obj] || !inside(obj.Pos(), d) || inside(obj.Pos(), c.fn) || obj == c.obj {
			return true
		}
		seen[obj] = true
		if obj.Name() != "w" {
			free = append(free, obj)
		}
		return true
	})
	sort.Slice(free, func(i, j int) bool { return free[i].Pos() < free[j].Pos() })
	var params []string // name type, grouped
	for i, obj := range free {
		if _, isVar := obj.(*types.Var); !isVar {
			return nil, "", false
		}
		typ, ok := s.varType(d, obj, t.types)
		if !ok {
			return nil, "", false
		}
		if i > 0 && strings.HasSuffix(params[len(params)-1], " "+typ) {
			last := params[len(params)-1]
			params[len(params)-1] = strings.TrimSuffix(last, " "+typ) + ", " + obj.Name() + " " + typ
		} else {
			params = append(params, obj.Name()+" "+typ)
		}
	}
	if assignedInClosures(d, info, seen) {
		return nil, "", false
	}

	// every use of the closure's variable is a call, which passes the free variables
	// as they are where it is
	calls := map[*ast.Ident]*ast.CallExpr{}
	ast.Inspect(d.Body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if id, ok := call.Fun.(*ast.Ident); ok && info.Uses[id] == c.obj {
				calls[id] = call
			}
		}
		return true
	})
	names := make([]string, len(free))
	for i, obj := range free {
		names[i] = obj.Name()
	}
	for id, obj := range info.Uses {
		if obj != c.obj || id == c.stmt.Lhs[0] {
			continue
		}
		call := calls[id]
		if call == nil {
			return nil, "", false
		}
		scope := innermostScope(info, d, call.Pos())
		for _, obj := range free {
			if _, found := scope.LookupParent(obj.Name(), call.Pos()); found != obj {
				return nil, "", false // the call sees another variable of the name
			}
		}
		edits = append(edits, s.callEdits(call, fn, names)...)
	}
	if len(edits) == 0 {
		return nil, "", false
	}

	// the function: the closure's parameters, then the free variables, and the comment
	// citing the definition first in its body, where the statements that bind the
	// parameters report their errors
	var inBody, outside []edit
	for _, e := range edits {
		if e.from >= s.off(c.fn.Pos()) && e.to <= s.off(c.fn.End()) {
			inBody = append(inBody, e)
		} else {
			outside = append(outside, e)
		}
	}
	cite := s.citeBefore(c.start())
	body := applyEdits(s.src[:s.off(c.fn.Body.End())], inBody)[s.off(c.fn.Body.Lbrace)+1:]
	own := s.between(c.fn.Type.Params.Opening+1, c.fn.Type.Params.Closing)
	sig := []string{"w *jinja2.Writer"}
	if strings.TrimSpace(own) != "" {
		sig = append(sig, own)
	}
	sig = append(sig, params...)
	var b strings.Builder
	fmt.Fprintf(&b, "\n\n// %s is the macro %s of %s.", fn, c.macro, t.fn)
	if len(free) > 0 {
		fmt.Fprintf(&b, "\n// Its parameters after the macro's are the variables of %s it reads.", t.fn)
	}
	fmt.Fprintf(&b, "\nfunc %s(%s) {\n%s", fn, strings.Join(sig, ", "), cite)
	if cite != "" && !bytes.HasPrefix(body, []byte("\n")) {
		b.WriteString("\n")
	}
	b.Write(body)

	def := edit{from: s.off(c.start()), to: s.off(c.stmt.End()), text: "// (the function " + fn + ")"}
	return append(outside, def), b.String(), true
}

// callEdits returns the edits that make a call of the closure a call of the function fn
// with the writer first and the free variables last.
func (s *liftSource) callEdits(call *ast.CallExpr, fn string, free []string) []edit {
	id := call.Fun.(*ast.Ident)
	first, last := "w", ""
	if len(call.Args) > 0 {
		first = "w, "
	}
	if len(free) > 0 {
		last = ", " + strings.Join(free, ", ")
		if len(call.Args) > 0 && strings.HasSuffix(strings.TrimSpace(s.between(call.Args[len(call.Args)-1].End(), call.Rparen)), ",") {
			last = " " + strings.Join(free, ", ") + ","
		}
	}
	return []edit{
		{from: s.off(id.Pos()), to: s.off(id.End()), text: fn},
		{from: s.off(call.Lparen) + 1, to: s.off(call.Lparen) + 1, text: first},
		{from: s.off(call.Rparen), to: s.off(call.Rparen), text: last},
	}
}

// citeBefore returns the comment on the line before p, or "".
func (s *liftSource) citeBefore(p token.Pos) string {
	for _, g := range s.file.Comments {
		for _, c := range g.List {
			if s.line(c.End()) == s.line(p)-1 {
				return c.Text
			}
		}
	}
	return ""
}

// varType returns the Go type of a variable of the function d: as declared, or from the
// generator's record of its locals that are not jinja2.Values.
func (s *liftSource) varType(d *ast.FuncDecl, obj types.Object, recorded map[string]string) (string, bool) {
	var typ ast.Expr
	ast.Inspect(d, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			for _, id := range n.Names {
				if id.Pos() == obj.Pos() {
					typ = n.Type
				}
			}
		case *ast.ValueSpec:
			for _, id := range n.Names {
				if id.Pos() == obj.Pos() {
					typ = n.Type
				}
			}
		}
		return typ == nil
	})
	if typ != nil {
		return s.text(typ), true
	}
	if t, ok := recorded[obj.Name()]; ok {
		return t, t != ""
	}
	return "jinja2.Value", true
}

// assignedInClosures reports whether code in a closure of the function d assigns one of
// the variables vars (or takes its address).
func assignedInClosures(d *ast.FuncDecl, info *types.Info, vars map[types.Object]bool) bool {
	assigned := false
	target := func(e ast.Expr) {
		if id, ok := e.(*ast.Ident); ok && vars[info.Uses[id]] {
			assigned = true
		}
	}
	ast.Inspect(d.Body, func(n ast.Node) bool {
		fn, ok := n.(*ast.FuncLit)
		if !ok {
			return true
		}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for _, e := range n.Lhs {
					target(e)
				}
			case *ast.IncDecStmt:
				target(n.X)
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					target(n.X)
				}
			case *ast.RangeStmt:
				if n.Tok == token.ASSIGN {
					target(n.Key)
					if n.Value != nil {
						target(n.Value)
					}
				}
			}
			return true
		})
		return false
	})
	return assigned
}

// innermostScope returns the innermost scope of the function d at p.
func innermostScope(info *types.Info, d *ast.FuncDecl, p token.Pos) *types.Scope {
	s := info.Scopes[d.Type]
	if s == nil {
		return types.Universe
	}
	return s.Innermost(p)
}

// edit replaces the bytes from:to of a source with text.
type edit struct {
	from, to int
	text     string
}

// applyEdits returns src with the edits applied; they do not overlap, and those at one
// offset apply in their order.
func applyEdits(src []byte, edits []edit) []byte {
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].from < edits[j].from })
	var b bytes.Buffer
	at := 0
	for _, e := range edits {
		b.Write(src[at:e.from])
		b.WriteString(e.text)
		at = e.to
	}
	b.Write(src[at:])
	return b.Bytes()
}
