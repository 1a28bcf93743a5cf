package harness

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tmplgen/tmplgen/internal/compiler"
	"github.com/tmplgen/tmplgen/jinja2"
)

// TestVersionGuard: generated code built against a runtime of another version fails
// with one error per file, naming both versions.
func TestVersionGuard(t *testing.T) {
	units, failed := compiler.Compile([]compiler.Source{{Name: "a", File: "a.jinja", Text: "A"}})
	if len(failed) > 0 {
		t.Fatal(failed[0])
	}
	dir := t.TempDir()
	if err := writeModule(dir, units); err != nil {
		t.Fatal(err)
	}
	build := func() (string, error) {
		cmd := exec.Command("go", "build", "./checkpkg")
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := build(); err != nil {
		t.Fatalf("the generated code does not build against its own runtime: %v\n%s", err, out)
	}
	this := strings.NewReplacer(".", "_").Replace(jinja2.Version)
	path := filepath.Join(dir, "jinja2", "version.go")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	other := strings.ReplaceAll(string(src), this, "v9_9_9")
	if err := os.WriteFile(path, []byte(other), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := build()
	if err == nil {
		t.Fatal("the generated code builds against a runtime of another version")
	}
	var errs []string
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, ".go:") {
			errs = append(errs, line)
		}
	}
	if len(errs) != 2 { // unit0000.go and registry.go
		t.Fatalf("want one error for each of the two files, got:\n%s", out)
	}
	for _, e := range errs {
		if !strings.Contains(e, "Version_v9_9_9") || !strings.Contains(e, "IsVersion_"+this) {
			t.Errorf("the error does not name both versions: %s", e)
		}
	}
}
