package codegen

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"sort"
	"strconv"
	"strings"
)

// Names are allocated while the code is generated, before it is known which Go block a
// name ends up in, so that two loops over messages in a row declare message and
// message2. renameNumbered gives such names back their natural form where Go's scopes
// allow it: a local variable named base+N takes the first of base, base2... that no
// declaration it would clash with or shadow uses, as go/types resolves the names.

// maxRenamed is the most numbered names renameNumbered renames.
const maxRenamed = 500

// renameNumbered returns the Go source src with its numbered local variables renamed
// (see above): numbered holds the base of each name alloc numbered (message for
// message2), so that a name the template gave (step1) is never touched. src must parse.
// The names stay as they are beyond maxRenamed of them: each candidate is checked
// against every use in the file, which a hostile template with thousands of numbered
// names (real ones have a few dozen) would make take minutes.
func renameNumbered(src []byte, numbered map[string]string) ([]byte, error) {
	if len(numbered) == 0 || len(numbered) > maxRenamed {
		return src, nil
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	info := resolveLocals(fset, f)

	type use struct {
		pos   token.Pos
		scope *types.Scope // the innermost scope at the use
	}
	vars := map[*types.Var]bool{}
	uses := map[types.Object][]use{}
	names := map[types.Object]string{}
	declared := map[*types.Scope]map[string]types.Object{}
	for id, obj := range info.Defs {
		if obj == nil || obj.Parent() == nil {
			continue
		}
		names[obj] = id.Name
		if declared[obj.Parent()] == nil {
			declared[obj.Parent()] = map[string]types.Object{}
		}
		declared[obj.Parent()][id.Name] = obj
		if v, ok := obj.(*types.Var); ok && obj.Parent() != obj.Pkg().Scope() && !v.IsField() && numbered[id.Name] != "" {
			vars[v] = true
		}
	}
	for id, obj := range info.Uses {
		if obj.Pkg() == nil {
			continue // a universe name: true, nil, len...
		}
		names[obj] = id.Name
		uses[obj] = append(uses[obj], use{id.Pos(), innermost(info, f, id.Pos())})
	}
	declares := func(s *types.Scope, name string) bool {
		for _, o := range declared[s] {
			if names[o] == name {
				return true
			}
		}
		return false
	}
	// ok reports whether v may be named c.
	ok := func(v *types.Var, c string) bool {
		if reserved[c] || types.Universe.Lookup(c) != nil || declares(v.Parent(), c) {
			return false
		}
		for _, u := range uses[v] { // no declaration of c between a use and v
			for s := u.scope; s != nil && s != v.Parent(); s = s.Parent() {
				if declares(s, c) {
					return false
				}
			}
		}
		for o, us := range uses { // no use of another c that v would capture
			if o == v || names[o] != c {
				continue
			}
			for _, u := range us {
				if u.pos > v.Pos() && v.Parent().Contains(u.pos) && encloses(o.Parent(), v.Parent()) {
					return false
				}
			}
		}
		return true
	}
	ordered := make([]*types.Var, 0, len(vars))
	for v := range vars {
		ordered = append(ordered, v)
	}
	sort.Slice(ordered, func(i, j int) bool { return ordered[i].Pos() < ordered[j].Pos() })
	renamed := false
	for _, v := range ordered {
		for _, c := range candidates(names[v], numbered[names[v]]) {
			if ok(v, c) {
				names[v] = c
				renamed = true
				break
			}
		}
	}
	if !renamed {
		return src, nil
	}
	// rewrite the identifiers, from the end so that offsets stay valid
	type edit struct {
		off, n int
		name   string
	}
	var edits []edit
	for id, obj := range info.Defs {
		if v, isVar := obj.(*types.Var); isVar && vars[v] && names[v] != id.Name {
			edits = append(edits, edit{fset.Position(id.Pos()).Offset, len(id.Name), names[v]})
		}
	}
	for id, obj := range info.Uses {
		if v, isVar := obj.(*types.Var); isVar && vars[v] && names[v] != id.Name {
			edits = append(edits, edit{fset.Position(id.Pos()).Offset, len(id.Name), names[v]})
		}
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].off > edits[j].off })
	out := append([]byte(nil), src...)
	for _, e := range edits {
		out = append(out[:e.off], append([]byte(e.name), out[e.off+e.n:]...)...)
	}
	return out, nil
}

// candidates returns the names a name alloc numbered from base may take instead, best
// first: base, then base with the numbers below the name's (a name made from a numbered
// one, message2Role, takes only its base, messageRole).
func candidates(name, base string) []string {
	out := []string{base}
	n, err := strconv.Atoi(strings.TrimPrefix(strings.TrimPrefix(name, base), "_"))
	if err != nil || Numbered(base, n) != name {
		return out
	}
	for k := 2; k < n; k++ {
		out = append(out, Numbered(base, k))
	}
	return out
}

// encloses reports whether scope outer is s or one of its parents.
func encloses(outer, s *types.Scope) bool {
	for ; s != nil; s = s.Parent() {
		if s == outer {
			return true
		}
	}
	return false
}

// innermost returns the innermost scope of f that holds pos.
func innermost(info *types.Info, f *ast.File, pos token.Pos) *types.Scope {
	s := info.Scopes[f]
	if s == nil {
		return nil
	}
	return s.Innermost(pos)
}

// resolveLocals resolves the names of a generated file: the Defs, Uses and Scopes of
// its local variables. The runtime is not type-checked (generated code only calls it):
// the local variables and their scopes resolve without it.
func resolveLocals(fset *token.FileSet, f *ast.File) *types.Info {
	info := &types.Info{
		Defs:   map[*ast.Ident]types.Object{},
		Uses:   map[*ast.Ident]types.Object{},
		Scopes: map[ast.Node]*types.Scope{},
	}
	conf := types.Config{Importer: fakeImporter{}, Error: func(error) {}}
	conf.Check("generated", fset, []*ast.File{f}, info) //nolint:errcheck // errors are expected, see above
	return info
}

// fakeImporter gives every import an empty package.
type fakeImporter struct{}

func (fakeImporter) Import(path string) (*types.Package, error) {
	name := path[strings.LastIndexByte(path, '/')+1:]
	p := types.NewPackage(path, name)
	p.MarkComplete()
	return p, nil
}
