package main

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// facades are the facade packages and their implementations.
var facades = []struct{ dir, impl string }{
	{"../../jinja2", "../jinja2"},
	{"../../llamacpp", "../llamacpp"},
}

// TestUpToDate fails when a facade is not what genfacade writes from its
// implementation and the code generator (run go generate in the facade's folder).
func TestUpToDate(t *testing.T) {
	for _, f := range facades {
		name := filepath.Base(f.dir)
		want, err := generate(name, f.impl, "github.com/tmplgen/tmplgen/internal/"+name, "../codegen")
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(f.dir, name+".go"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s/%s.go is not what genfacade writes: run go generate in %s", name, name, name)
		}
	}
}

// TestOnlyGenerated: a facade package holds its doc and its generated file, and the
// generated file declares only names the code generator writes (a literal of its
// source) or wrote in an earlier version (olderNames), calling the implementation for
// each, and the types their signatures name.
func TestOnlyGenerated(t *testing.T) {
	literal, err := facadeNames("../codegen")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range facades {
		impl, err := parsePackage(f.impl)
		if err != nil {
			t.Fatal(err)
		}
		names := withSignatureTypes(impl, literal)
		name := filepath.Base(f.dir)
		entries, err := os.ReadDir(f.dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.Name() != "doc.go" && e.Name() != name+".go" {
				t.Errorf("%s/%s: a facade holds doc.go and %s.go only", name, e.Name(), name)
			}
		}
		file, err := parser.ParseFile(token.NewFileSet(), filepath.Join(f.dir, name+".go"), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, obj := range file.Scope.Objects {
			if ast.IsExported(obj.Name) && !names[obj.Name] {
				t.Errorf("%s.%s: generated code never calls it", name, obj.Name)
			}
		}
		for _, imp := range file.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if !strings.HasPrefix(path, "github.com/tmplgen/tmplgen/") {
				t.Errorf("%s imports %s", name, path)
			}
		}
	}
}

// TestInlined: a function of a facade is inlined where its implementation's is (the
// call through the facade costs nothing), but for the few listed here, whose
// implementation is within a few units of the compiler's inlining budget (the call
// through the facade costs one call, to a function that inlines the implementation's).
func TestInlined(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the packages: not with -short")
	}
	over := map[string]bool{"jinja2.InStrs": true, "jinja2.Len": true, "llamacpp.NotIn": true, "llamacpp.Sum": true}
	inlinable := func(pkg string) map[string]bool {
		out, err := exec.Command("go", "build", "-gcflags=-m", pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go build -gcflags=-m %s: %v\n%s", pkg, err, out)
		}
		names := map[string]bool{}
		for _, m := range regexp.MustCompile(`(?m): can inline ([A-Z]\w*)$`).FindAllSubmatch(out, -1) {
			names[string(m[1])] = true
		}
		return names
	}
	for _, f := range facades {
		impl, facade := inlinable(f.impl), inlinable(f.dir)
		for name := range impl {
			if !facade[name] && !over[filepath.Base(f.dir)+"."+name] && declares(t, f.dir, name) {
				t.Errorf("%s.%s is not inlinable, though its implementation is", filepath.Base(f.dir), name)
			}
		}
	}
}

// declares reports whether the facade in dir declares a function name.
func declares(t *testing.T, dir, name string) bool {
	file, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, filepath.Base(dir)+".go"), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	obj := file.Scope.Lookup(name)
	return obj != nil && obj.Kind == ast.Fun
}

// TestMethodsInlined: in generated code (the codegen goldens, which import the facades
// only), the methods of the implementation's types are inlined: w.WriteString, the most
// frequent call of a render, is (see methodBodies).
func TestMethodsInlined(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the goldens: not with -short")
	}
	out, err := exec.Command("go", "build", "-gcflags=-m", "../codegen/internal/golden").CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-m: %v\n%s", err, out)
	}
	if !bytes.Contains(out, []byte("inlining call to jinja2.(*Writer).WriteString")) {
		t.Errorf("generated code does not inline w.WriteString:\n%s", out)
	}
}
