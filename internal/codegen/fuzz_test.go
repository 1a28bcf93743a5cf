package codegen_test

import (
	"errors"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tmplgen/tmplgen/internal/codegen"
	"github.com/tmplgen/tmplgen/internal/compiler"
	"github.com/tmplgen/tmplgen/internal/ir"
	"github.com/tmplgen/tmplgen/internal/randtmpl"
	"github.com/tmplgen/tmplgen/internal/syntax"
)

var (
	sourceImporterOnce sync.Once
	sourceImporter     types.Importer
)

// typeCheck parses and type-checks a generated package's files.
func typeCheck(t *testing.T, files map[string][]byte) {
	t.Helper()
	sourceImporterOnce.Do(func() {
		sourceImporter = importer.ForCompiler(token.NewFileSet(), "source", nil)
	})
	fset := token.NewFileSet()
	var parsed []*ast.File
	for name, src := range files {
		// without object resolution, as the compiler parses: it gives up on deep nesting
		f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("generated %s does not parse: %v\n%s", name, err, src)
		}
		for _, c := range f.Comments {
			for _, l := range c.List {
				if strings.HasPrefix(l.Text, "//go:") || strings.HasPrefix(l.Text, "//line ") {
					t.Fatalf("generated %s has a directive comment %q", name, l.Text)
				}
			}
		}
		parsed = append(parsed, f)
	}
	conf := types.Config{Importer: sourceImporter}
	if _, err := conf.Check("fuzzpkg", fset, parsed, nil); err != nil {
		var src []byte
		for _, b := range files {
			src = append(src, b...)
		}
		t.Fatalf("generated code does not type-check: %v\n%s", err, src)
	}
}

// FuzzGenerate: every template the parser accepts either fails to lower with a
// positioned error, or yields Go that parses and type-checks, with no directive a
// template could have smuggled in.
func FuzzGenerate(f *testing.F) {
	for _, dir := range []string{"../../../shared/templates/llama.cpp", "../../templates/builtin", "../../testdata/codegen"} {
		matches, _ := filepath.Glob(filepath.Join(dir, "*.jinja"))
		for _, m := range matches {
			if b, err := os.ReadFile(m); err == nil {
				f.Add(string(b))
			}
		}
	}
	f.Add("{% macro func(type, w, in, runtime) %}{{ type ~ w ~ in ~ runtime }}{% endmacro %}{{ func(1, 2, 3, 4) }}")
	f.Add("*/ `\n//go:generate rm -rf /\n{{ \"\\u202e\" }}{# */ #}{% set len = 1 %}{{ len }}")
	f.Fuzz(func(t *testing.T, src string) { checkGenerates(t, src) })
}

// FuzzGenerateGrammar is FuzzGenerate on the programs of internal/randtmpl, which are
// chat-template-shaped and valid Jinja2 by construction: each must compile into Go that
// type-checks.
func FuzzGenerateGrammar(f *testing.F) {
	for seed := range uint64(20) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, seed uint64) {
		src := randtmpl.Template(seed)
		if _, err := syntax.Parse(src); err != nil {
			t.Fatalf("randtmpl wrote a template the parser refuses: %v\n%s", err, src)
		}
		checkGenerates(t, src)
	})
}

// checkGenerates compiles src, which Jinja2's or llama.cpp's parser reads: it fails
// with a positioned error, or yields Go that parses and type-checks.
func checkGenerates(t *testing.T, src string) {
	t.Helper()
	_, err := syntax.Parse(src)
	_, _, llamaErr := syntax.ParseLlama(src)
	if err != nil && llamaErr != nil {
		return
	}
	units, failed := compiler.Compile([]compiler.Source{{Name: "fuzz", Origin: "fuzz.jinja", File: "fuzz.jinja", Text: src}})
	if len(failed) > 0 {
		var ie *ir.Error
		var se *syntax.Error
		switch {
		case errors.As(failed[0], &ie) && ie.Pos.Line >= 1:
		case errors.As(failed[0], &se) && se.Pos.Line >= 1: // Jinja2's, for a text only llama.cpp's parser reads
		default:
			t.Fatalf("lowering error without a position: %v", failed[0])
		}
		return
	}
	files, err := codegen.Package("fuzzpkg", units)
	if err != nil {
		t.Fatalf("codegen: %v", err)
	}
	typeCheck(t, files)
}
