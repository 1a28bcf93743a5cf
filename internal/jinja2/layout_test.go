package jinja2_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"testing"
)

// TestUnsafeOneFile fails when a Go file of the repository other than internal/jinja2/layout.go
// imports unsafe: the value representation keeps all of its unsafe code, and the
// invariants that code relies on, in that one file.
func TestUnsafeOneFile(t *testing.T) {
	const allowed = "internal/jinja2/layout.go"
	found := false
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != "../.." && (name == "testdata" || name[0] == '.') {
				return filepath.SkipDir
			}
			return nil
		}
		if filepath.Ext(path) != ".go" {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("../..", path)
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p != "unsafe" {
				continue
			}
			if filepath.ToSlash(rel) == allowed {
				found = true
				continue
			}
			t.Errorf("%s imports unsafe: only %s may", rel, allowed)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !found {
		t.Errorf("%s does not import unsafe: update this test", allowed)
	}
}
