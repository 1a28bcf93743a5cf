package harness

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/tmplgen/tmplgen/internal/compiler"
	"github.com/tmplgen/tmplgen/internal/jinja2"
)

// TestVersionGuard: generated code builds with a runtime whose range of versions
// (jinja2.MinVersion to jinja2.MaxVersion) holds its version, and fails to build with
// one error per file, on the line that says what to do, against a runtime too new or
// too old for it.
func TestVersionGuard(t *testing.T) {
	units, failed := compiler.Compile([]compiler.Source{{Name: "a", File: "a.jinja", Text: "A"}})
	if len(failed) > 0 {
		t.Fatal(failed[0])
	}
	dir := t.TempDir()
	if err := writeModule(dir, units); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "internal", "jinja2", "version.go")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// build builds package checkpkg against a runtime running the versions min to max
	build := func(min, max int) (string, error) {
		runtime := regexp.MustCompile(`MinVersion = \d+`).ReplaceAllString(string(src), fmt.Sprintf("MinVersion = %d", min))
		runtime = regexp.MustCompile(`MaxVersion = \d+`).ReplaceAllString(runtime, fmt.Sprintf("MaxVersion = %d", max))
		if err := os.WriteFile(path, []byte(runtime), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("go", "build", "./checkpkg")
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	const n = jinja2.MaxVersion // the version of the code
	for _, r := range []struct{ min, max int }{{n, n}, {n - 1, n}, {n, n + 1}, {n - 1, n + 5}} {
		if out, err := build(r.min, r.max); err != nil {
			t.Errorf("code of version %d does not build against a runtime of versions %d to %d: %v\n%s", n, r.min, r.max, err, out)
		}
	}
	for _, r := range []struct {
		min, max int
		line     string // what the failing line says
	}{
		{n + 1, n + 1, "the runtime is too new for this file: generate it again"},
		{n + 1, n + 3, "the runtime is too new for this file: generate it again"},
		{n - 1, n - 1, "the runtime is too old for this file: update the tmplgen module"},
	} {
		out, err := build(r.min, r.max)
		if err == nil {
			t.Errorf("code of version %d builds against a runtime of versions %d to %d", n, r.min, r.max)
			continue
		}
		errs := guardError.FindAllStringSubmatch(out, -1)
		if len(errs) != 2 || strings.Count(out, ".go:") != 2 { // unit0000.go and registry.go
			t.Errorf("versions %d to %d: want one error for each of the two files, got:\n%s", r.min, r.max, out)
			continue
		}
		for _, e := range errs {
			file, err := os.ReadFile(filepath.Join(dir, e[1]))
			if err != nil {
				t.Fatal(err)
			}
			line, _ := strconv.Atoi(e[2])
			if lines := strings.Split(string(file), "\n"); line > len(lines) || !strings.HasSuffix(lines[line-1], "// "+r.line) {
				t.Errorf("versions %d to %d: %s: the line does not say %q", r.min, r.max, e[0], r.line)
			}
		}
	}
}

// guardError is the compiler's error on a failing version guard: the file, the line.
var guardError = regexp.MustCompile(`(?m)^(?:\./)?(checkpkg/\w+\.go):(\d+):\d+: constant -\d+ overflows (?:jinja2|"github\.com/tmplgen/tmplgen/jinja2")\.EnforceVersion$`)
