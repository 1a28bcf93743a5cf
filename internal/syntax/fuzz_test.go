package syntax

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// addTemplateSeeds adds the shared corpus (when present) and the project's templates to
// a fuzz target's seed corpus.
func addTemplateSeeds(f *testing.F) {
	for _, dir := range []string{"../../../shared/templates", "../../templates", "../../testdata/codegen"} {
		filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.Contains(path, ".jinja") {
				return nil
			}
			if b, err := os.ReadFile(path); err == nil {
				f.Add(string(b))
			}
			return nil
		})
	}
	f.Add("{% for x in y %}{{ x|e }}{% endfor %}")
	f.Add("{{ 'a' ~ 1 if b else c[1:2:-1] }}")
}

// FuzzParse: the parser never panics or hangs, and every error names a position inside
// the template; the same of llama.cpp's reading (ParseLlama).
func FuzzParse(f *testing.F) {
	addTemplateSeeds(f)
	f.Fuzz(func(t *testing.T, src string) {
		_, err := Parse(src)
		checkParseError(t, src, err)
		_, _, err = ParseLlama(src)
		checkParseError(t, src, err)
	})
}

// checkParseError fails unless err is nil or a *Error at a position inside src.
func checkParseError(t *testing.T, src string, err error) {
	t.Helper()
	if err == nil {
		return
	}
	e, ok := err.(*Error)
	if !ok {
		t.Fatalf("error %T is not a *syntax.Error: %v", err, err)
	}
	// Jinja2 counts \r\n, \r and \n each as one line break.
	unixSrc := strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(src)
	lines := strings.Count(unixSrc, "\n") + 1
	if e.Pos.Line < 1 || e.Pos.Line > lines || e.Pos.Col < 1 || e.Pos.Col > utf8.RuneCountInString(src)+1 {
		t.Fatalf("error position %v outside the template (%d lines): %v", e.Pos, lines, e)
	}
	if e.Msg == "" {
		t.Fatal("empty error message")
	}
}
