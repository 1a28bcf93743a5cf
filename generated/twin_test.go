package generated_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// minTwinShare is the least share of a llama.cpp render function's lines that must
// equal its Jinja2 render function's lines up to the package qualifier (llamacpp. for
// jinja2.), so that a diff of the two shows where llama.cpp's semantics differ and little
// else.
const minTwinShare = 0.8

// TestTwinsDiff measures, for every generated file of the catalog, how many lines of
// the llama.cpp twin (each function F...Llama beside F: the render function and the
// functions of its macros) are lines of F, in order (the longest common subsequence of
// their lines), once llamacpp. reads jinja2.; it fails below minTwinShare.
func TestTwinsDiff(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	pairs := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		bodies := map[string][]string{}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil {
				body := string(src[fset.Position(fn.Body.Lbrace).Offset+1 : fset.Position(fn.Body.Rbrace).Offset])
				bodies[fn.Name.Name] = lines(body)
			}
		}
		// the twin is the llama.cpp render function and its macros' functions
		// (renderXLlama and renderX_showLlama beside renderX and renderX_show)
		common, twinLines, twinName := 0, 0, ""
		for fn, twin := range bodies {
			orig, ok := bodies[strings.TrimSuffix(fn, "Llama")]
			if !strings.HasSuffix(fn, "Llama") || !ok {
				continue
			}
			if twinName == "" || len(fn) < len(twinName) {
				twinName = fn // the render function, whose name starts its macros'
			}
			for i, l := range twin {
				twin[i] = strings.ReplaceAll(l, "llamacpp.", "jinja2.")
			}
			common += commonLines(orig, twin)
			twinLines += len(twin)
		}
		if twinName == "" {
			continue
		}
		pairs++
		if share := float64(common) / float64(max(twinLines, 1)); share < minTwinShare {
			t.Errorf("%s: %.0f%% of the lines of %s and its macros' functions are lines of their Jinja2 twins, want %.0f%% or more", name, 100*share, twinName, 100*minTwinShare)
		}
	}
	if pairs == 0 {
		t.Fatal("no llama.cpp render function found")
	}
}

// lines returns the lines of a function body without their indentation and without
// empty lines.
func lines(body string) []string {
	var out []string
	for l := range strings.SplitSeq(body, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// commonLines is the length of the longest common subsequence of a and b.
func commonLines(a, b []string) int {
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			if a[i] == b[j] {
				cur[j+1] = prev[j] + 1
			} else {
				cur[j+1] = max(cur[j], prev[j+1])
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
