// Command genfacade writes the package generated code imports in front of its
// implementation: jinja2/jinja2.go in front of internal/jinja2, llamacpp/llamacpp.go in
// front of internal/llamacpp (as protobuf-go's protoimpl stands in front of its
// internal/impl). The facade declares exactly the names of the implementation that the
// code generator can write into generated code, found as the string literals of
// internal/codegen's source that name one of the implementation's exported
// declarations: a type becomes an alias, a constant a constant of the same value, a
// function a function of the same signature and doc comment that calls it (small
// enough for the compiler to inline where the implementation's is). Run it through the
// go:generate line of the facade's doc.go.
//
// Usage:
//
//	genfacade -impl DIR -import PATH -codegen DIR -o FILE
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"log"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
)

func main() {
	implDir := flag.String("impl", "", "the implementation package's `DIR`")
	implPath := flag.String("import", "", "the implementation package's import `PATH`")
	codegenDir := flag.String("codegen", "", "the code generator's `DIR`, whose string literals name what generated code calls")
	out := flag.String("o", "", "the facade `FILE` to write")
	flag.Parse()
	if *implDir == "" || *implPath == "" || *codegenDir == "" || *out == "" {
		flag.Usage()
		os.Exit(2)
	}
	abs, err := filepath.Abs(*out)
	if err != nil {
		log.Fatal(err)
	}
	src, err := generate(filepath.Base(filepath.Dir(abs)), *implDir, *implPath, *codegenDir)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		log.Fatal(err)
	}
}

// generate returns the source of the facade package pkgName of the implementation in
// implDir (import path implPath), for the names the code generator in codegenDir writes.
func generate(pkgName, implDir, implPath, codegenDir string) ([]byte, error) {
	names, err := literals(codegenDir)
	if err != nil {
		return nil, err
	}
	pkg, err := parsePackage(implDir)
	if err != nil {
		return nil, err
	}
	return facade(pkgName, implPath, pkg, names)
}

// literals returns the string literals of the non-test Go files in dir.
func literals(dir string) (map[string]bool, error) {
	files, err := goFiles(dir)
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	for _, f := range files {
		ast.Inspect(f.file, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil {
					names[s] = true
				}
			}
			return true
		})
	}
	return names, nil
}

// sourceFile is a parsed Go file and its text.
type sourceFile struct {
	file *ast.File
	src  []byte
	fset *token.FileSet
}

// text returns the source text of node n of f.
func (f *sourceFile) text(n ast.Node) string {
	return string(f.src[f.fset.Position(n.Pos()).Offset:f.fset.Position(n.End()).Offset])
}

// goFiles parses the non-test Go files of dir, in name order.
func goFiles(dir string) ([]*sourceFile, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	fset := token.NewFileSet()
	var files []*sourceFile
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(fset, p, src, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		files = append(files, &sourceFile{file: f, src: src, fset: fset})
	}
	return files, nil
}

// decl is an exported declaration of the implementation.
type decl struct {
	kind string // "type", "const", "var" or "func"
	doc  *ast.CommentGroup
	fn   *ast.FuncDecl // for a func
	file *sourceFile
}

// implPackage is the implementation's exported declarations, by name, and the exported
// methods of its types, by the type's name.
type implPackage struct {
	decls   map[string]*decl
	methods map[string][]method
}

// method is an exported method of one of the implementation's types.
type method struct {
	name    string
	pointer bool // the receiver is a pointer
}

// parsePackage reads the exported package-level declarations of the package in dir.
func parsePackage(dir string) (*implPackage, error) {
	files, err := goFiles(dir)
	if err != nil {
		return nil, err
	}
	p := &implPackage{decls: map[string]*decl{}, methods: map[string][]method{}}
	for _, f := range files {
		for _, d := range f.file.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.IsExported() {
					p.decls[d.Name.Name] = &decl{kind: "func", doc: d.Doc, fn: d, file: f}
				}
				if d.Recv != nil && d.Name.IsExported() {
					recv := d.Recv.List[0].Type
					star, pointer := recv.(*ast.StarExpr)
					if pointer {
						recv = star.X
					}
					if id, ok := recv.(*ast.Ident); ok {
						p.methods[id.Name] = append(p.methods[id.Name], method{d.Name.Name, pointer})
					}
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					doc := d.Doc
					switch s := s.(type) {
					case *ast.TypeSpec:
						if s.Doc != nil || len(d.Specs) > 1 {
							doc = s.Doc
						}
						if s.Name.IsExported() {
							p.decls[s.Name.Name] = &decl{kind: "type", doc: doc, file: f}
						}
					case *ast.ValueSpec:
						if s.Doc != nil || len(d.Specs) > 1 {
							doc = s.Doc
						}
						for _, n := range s.Names {
							if n.IsExported() {
								p.decls[n.Name] = &decl{kind: d.Tok.String(), doc: doc, file: f}
							}
						}
					}
				}
			}
		}
	}
	return p, nil
}

// facade returns the source of the facade package pkgName for the declarations of the
// implementation at importPath that names holds.
func facade(pkgName, importPath string, p *implPackage, names map[string]bool) ([]byte, error) {
	names = withSignatureTypes(p, names)
	var selected []string
	for name := range p.decls {
		if names[name] {
			selected = append(selected, name)
		}
	}
	sort.Strings(selected)
	imports := map[string]string{"impl": importPath}
	var types, consts, vars, funcs bytes.Buffer
	for _, name := range selected {
		d := p.decls[name]
		switch d.kind {
		case "type":
			writeDoc(&types, d.doc, name, "is")
			fmt.Fprintf(&types, "type %s = impl.%s\n\n", name, name)
		case "const":
			fmt.Fprintf(&consts, "\t%s = impl.%s\n", name, name)
		case "var":
			writeDoc(&vars, d.doc, name, "is")
			fmt.Fprintf(&vars, "var %s = impl.%s\n\n", name, name)
		case "func":
			if err := writeFunc(&funcs, name, d, p, names, imports); err != nil {
				return nil, err
			}
		}
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by genfacade (internal/genfacade) from %s. DO NOT EDIT.\n\n", importPath)
	fmt.Fprintf(&b, "package %s\n\nimport (\n", pkgName)
	var paths []string
	for name, path := range imports {
		paths = append(paths, name+" "+strconv.Quote(path))
	}
	sort.Strings(paths)
	for _, p := range paths {
		fmt.Fprintf(&b, "\t%s\n", p)
	}
	b.WriteString(")\n\n")
	b.Write(types.Bytes())
	if consts.Len() > 0 {
		b.WriteString("// The constants generated code uses.\nconst (\n")
		b.Write(consts.Bytes())
		b.WriteString(")\n\n")
	}
	b.Write(vars.Bytes())
	b.Write(funcs.Bytes())
	writeMethodBodies(&b, selected, p, names)
	src, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("formatting the facade: %w\n%s", err, b.Bytes())
	}
	return src, nil
}

// withSignatureTypes returns names with the implementation's types that the signatures
// of its functions among names name: the facade declares them too, so that code that
// calls such a function (the llama.cpp facade's functions) can name their types.
func withSignatureTypes(p *implPackage, names map[string]bool) map[string]bool {
	out := maps.Clone(names)
	for name, d := range p.decls {
		if d.kind != "func" || !names[name] {
			continue
		}
		ast.Inspect(d.fn.Type, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if t, ok := p.decls[id.Name]; ok && t.kind == "type" {
					out[id.Name] = true
				}
			}
			return true
		})
	}
	return out
}

// writeMethodBodies writes a function that takes the method values of the methods of
// the facade's types that generated code calls. Go inlines a method only where its body
// is in the export data of a package the caller imports; generated code cannot import
// the implementation (it is internal), and a package's export data holds the bodies of
// the functions and methods its own functions refer to: this one makes the facade's
// export data hold them, so that w.WriteString in generated code is inlined as it would
// be with the implementation imported.
func writeMethodBodies(b *bytes.Buffer, selected []string, p *implPackage, names map[string]bool) {
	var params, values []string
	for _, typ := range selected {
		if p.decls[typ].kind != "type" {
			continue
		}
		param, ptr, called := "x"+typ, "", 0
		for _, m := range p.methods[typ] {
			if m.pointer {
				ptr = "*" // a method of *T: the parameter is a *T, which has T's methods too
			}
			if names[m.name] {
				values = append(values, param+"."+m.name)
				called++
			}
		}
		if called > 0 {
			params = append(params, param+" "+ptr+typ)
		}
	}
	if len(values) == 0 {
		return
	}
	b.WriteString(`// methodBodies refers to the methods of this package's types that generated code
// calls, so that their bodies are in this package's export data: Go inlines a method
// only where its body is in the export data of a package the caller imports, and
// generated code cannot import the implementation, an internal package. It is never
// called.
`)
	fmt.Fprintf(b, "func methodBodies(%s) {\n", strings.Join(params, ", "))
	for _, v := range values {
		fmt.Fprintf(b, "\t_ = %s\n", v)
	}
	b.WriteString("}\n")
}

// writeDoc writes the doc comment of a declaration: the implementation's, or a line
// saying what it stands for.
func writeDoc(b *bytes.Buffer, doc *ast.CommentGroup, name, verb string) {
	if doc == nil {
		fmt.Fprintf(b, "// %s %s the implementation's %s.\n", name, verb, name)
		return
	}
	for _, c := range doc.List {
		b.WriteString(c.Text)
		b.WriteByte('\n')
	}
}

// writeFunc writes a function of the facade that calls the implementation's function
// name, with its signature and doc comment; the packages its signature names join
// imports.
func writeFunc(b *bytes.Buffer, name string, d *decl, p *implPackage, names map[string]bool, imports map[string]string) error {
	ft := d.fn.Type
	if ft.TypeParams != nil {
		return fmt.Errorf("%s is generic: the facade writes no generic function", name)
	}
	// fields writes a parameter or result list as the source has it, its types
	// qualified, and returns its names
	fields := func(list *ast.FieldList) (decls, ids []string) {
		for _, field := range list.List {
			var ns []string
			for _, n := range field.Names {
				ns = append(ns, n.Name)
			}
			decls = append(decls, strings.TrimSpace(strings.Join(ns, ", ")+" "+qualify(d.file, field.Type, p, names, imports)))
			ids = append(ids, ns...)
		}
		return decls, ids
	}
	params, args := fields(ft.Params)
	for _, field := range ft.Params.List {
		if len(field.Names) == 0 || slices.ContainsFunc(field.Names, func(n *ast.Ident) bool { return n.Name == "_" }) {
			return fmt.Errorf("%s has an unnamed parameter: the facade passes its parameters by name", name)
		}
		if _, ok := field.Type.(*ast.Ellipsis); ok {
			args[len(args)-1] += "..."
		}
	}
	results := ""
	if ft.Results != nil {
		rs, _ := fields(ft.Results)
		results = " (" + strings.Join(rs, ", ") + ")"
	}
	writeDoc(b, d.doc, name, "calls")
	call := fmt.Sprintf("impl.%s(%s)", name, strings.Join(args, ", "))
	if results == "" {
		fmt.Fprintf(b, "func %s(%s) { %s }\n\n", name, strings.Join(params, ", "), call)
	} else {
		fmt.Fprintf(b, "func %s(%s)%s { return %s }\n\n", name, strings.Join(params, ", "), results, call)
	}
	return nil
}

// qualify returns the source of type expression t of file f as the facade writes it:
// the implementation's types by their name where the facade declares them (names), else
// as impl.T; another package's as the file names it (its import joining imports).
func qualify(f *sourceFile, t ast.Expr, p *implPackage, names map[string]bool, imports map[string]string) string {
	src := f.text(t)
	var at []int // where "impl." goes, as offsets in src
	start := f.fset.Position(t.Pos()).Offset
	ast.Inspect(t, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if pkg, ok := n.X.(*ast.Ident); ok {
				for _, imp := range f.file.Imports {
					path, _ := strconv.Unquote(imp.Path.Value)
					name := filepath.Base(path)
					if imp.Name != nil {
						name = imp.Name.Name
					}
					if name == pkg.Name {
						imports[name] = facadePath(path)
					}
				}
			}
			return false
		case *ast.Ident:
			if d, ok := p.decls[n.Name]; ok && d.kind == "type" && !names[n.Name] {
				at = append(at, f.fset.Position(n.Pos()).Offset-start)
			}
		}
		return true
	})
	for i := len(at) - 1; i >= 0; i-- {
		src = src[:at[i]] + "impl." + src[at[i]:]
	}
	return src
}

// facadePath is the import path a facade names a package by: the facade of an
// implementation package (jinja2 for internal/jinja2, llamacpp for internal/llamacpp),
// else the package itself.
func facadePath(path string) string {
	for _, pkg := range []string{"jinja2", "llamacpp"} {
		if strings.HasSuffix(path, "/internal/"+pkg) {
			return strings.TrimSuffix(path, "internal/"+pkg) + pkg
		}
	}
	return path
}
