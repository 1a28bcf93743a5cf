package main

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tmplgen/tmplgen/internal/codegen"
	"github.com/tmplgen/tmplgen/internal/harness"
)

// TestAdversarialTemplates compiles templates written to escape from the generated Go
// (quotes, backticks, comment closers, //go: lines, NUL, bidi controls, Go keywords and
// runtime names as variables, huge literals), checks that every generated file holds
// exactly the declarations tmplgen writes and no directive, builds them, and compares
// their renderings with Python Jinja2's (testdata/adversarial/expected.json, recorded by
// record.py there).
func TestAdversarialTemplates(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "adversarial")
	paths, err := filepath.Glob(filepath.Join(dir, "*.jinja"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no adversarial templates: %v", err)
	}
	var expected map[string]result
	readJSON(t, filepath.Join(dir, "expected.json"), &expected)
	var srcs []source
	var pairs []checkPair
	for _, p := range paths {
		text, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(p)
		// the file name is hostile too: it is cited in comments and strings
		srcs = append(srcs, source{Name: name, Origin: "*/\n//go:generate " + name, File: name + "\"`*/", Text: string(text)})
		want, ok := expected[name]
		if !ok {
			t.Fatalf("%s has no recorded expectation: run python3 testdata/adversarial/record.py", name)
		}
		pairs = append(pairs, checkPair{Template: name, Case: name, Want: want,
			Request: []byte(`{"messages": [], "add_generation_prompt": false, "bos": "<s>", "eos": "</s>"}`)})
	}
	units, failed := compile(srcs)
	if len(failed) > 0 {
		t.Fatalf("compile: %v", failed[0])
	}
	files, err := codegen.Package("checkpkg", units)
	if err != nil {
		t.Fatal(err)
	}
	for name, src := range files {
		checkOnlyOwnDeclarations(t, name, src)
	}
	var stderr bytes.Buffer
	got, err := renderPairs(units, pairs, nil, nil, harness.OracleNow, &stderr)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	for i, p := range pairs {
		if !harness.Same(p.Want, got[i]) {
			t.Errorf("%s: %s", p.Template, harness.DescribeMismatch(p.Want, got[i]))
		}
	}
}

// checkOnlyOwnDeclarations fails when a generated file holds anything but the
// declarations tmplgen writes: a template file's Template variable and render function,
// or the registry's, with no directive comment and nothing but tmplgen, jinja2 and
// llamacpp (and math, for infinite literals) imported.
func checkOnlyOwnDeclarations(t *testing.T, name string, src []byte) {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.ParseComments)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for _, imp := range f.Imports {
		switch imp.Path.Value {
		case `"github.com/tmplgen/tmplgen"`, `"github.com/tmplgen/tmplgen/jinja2"`, `"github.com/tmplgen/tmplgen/llamacpp"`, `"math"`:
		default:
			t.Errorf("%s imports %s", name, imp.Path.Value)
		}
	}
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			if strings.HasPrefix(c.Text, "//go:") || strings.HasPrefix(c.Text, "//line") || strings.HasPrefix(c.Text, "/*") {
				t.Errorf("%s: comment %q", name, c.Text)
			}
		}
	}
	var funcs, vars, tables, guards int
	var names []string
	for _, d := range f.Decls {
		if d, ok := d.(*ast.FuncDecl); ok {
			names = append(names, d.Name.Name)
		}
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if !macroFunc(d.Name.Name, names) {
				funcs++
			}
			if d.Recv != nil || d.Name.Name == "init" || d.Name.Name == "main" {
				t.Errorf("%s declares %s", name, d.Name.Name)
			}
		case *ast.GenDecl:
			switch d.Tok {
			case token.VAR:
				vars += len(d.Specs)
			case token.CONST:
				if names := d.Specs[0].(*ast.ValueSpec).Names; len(d.Specs) == 1 && len(names) == 1 && strings.HasPrefix(names[0].Name, "spans") {
					tables++
				} else {
					guards++
				}
			case token.IMPORT:
			default:
				t.Errorf("%s declares a %s", name, d.Tok)
			}
		}
	}
	// a template: its variable, the runtime version guard, its render function, the one
	// that runs it with a Writer on its stack (when it keeps none), the one with
	// llama.cpp's semantics (when they differ), and the functions of its macros
	minFuncs, maxFuncs := 1, 3
	if name == "registry.go" {
		minFuncs, maxFuncs = 3, 3 // Lookup, LookupText, ByName; Registry and the version guard
	}
	if funcs < minFuncs || funcs > maxFuncs || vars != 1 || guards != 1 || tables > 1 || tables == 1 && name == "registry.go" {
		t.Errorf("%s declares %d functions, %d variables, %d constant declarations and %d position tables, want %d to %d, one, one (the version guard) and at most one (none in registry.go)", name, funcs, vars, guards, tables, minFuncs, maxFuncs)
	}
}

// macroFunc reports whether a generated function is a macro's, named after the render
// function it was lifted out of (renderX_show, renderX_showLlama), one of funcs.
func macroFunc(name string, funcs []string) bool {
	for _, render := range funcs {
		if strings.HasPrefix(name, render+"_") {
			return true
		}
	}
	return false
}
