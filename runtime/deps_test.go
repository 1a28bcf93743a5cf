package runtime_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestStandardLibraryOnly enforces that importing runtime adds no dependency: everything
// it imports is in the standard library.
func TestStandardLibraryOnly(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if pkg != "github.com/tmplgen/tmplgen/runtime" {
			t.Errorf("runtime depends on %s, which is not in the standard library", pkg)
		}
	}
}
