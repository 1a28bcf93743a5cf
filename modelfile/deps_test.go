package modelfile

import (
	"os/exec"
	"strings"
	"testing"
)

// TestStandardLibraryOnly: modelfile depends on the standard library and jinja2 (with
// the Python string algorithms under it, internal/pystr) only, so that reading a model
// file adds no dependency.
func TestStandardLibraryOnly(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}\t{{.Standard}}", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, std, _ := strings.Cut(line, "\t")
		switch {
		case std == "true", path == "github.com/tmplgen/tmplgen/modelfile", path == "github.com/tmplgen/tmplgen/internal/jinja2", path == "github.com/tmplgen/tmplgen/internal/pystr":
		default:
			t.Errorf("modelfile depends on %s, which is not in the standard library", path)
		}
	}
}
