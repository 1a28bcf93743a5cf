package runtime_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestStandardLibraryOnly enforces that importing runtime adds no dependency: everything
// it imports is in the standard library, as go list reports it (its Standard flag) and by
// where its source lives (GOROOT/src). (An import path is not judged by its dots: since
// Go 1.24 crypto/sha256 imports crypto/internal/entropy/v1.0.0, which is standard.)
func TestStandardLibraryOnly(t *testing.T) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatalf("go env GOROOT: %v", err)
	}
	src := filepath.Join(strings.TrimSpace(string(out)), "src") + string(filepath.Separator)
	out, err = exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}\t{{.Standard}}\t{{.Dir}}", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			t.Fatalf("go list printed %q", line)
		}
		if f[0] == "github.com/tmplgen/tmplgen/runtime" {
			continue
		}
		if f[1] != "true" || !strings.HasPrefix(f[2], src) {
			t.Errorf("runtime depends on %s (in %s), which is not in the standard library", f[0], f[2])
		}
	}
}
