package ir_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoLlamaRuntime checks that package ir does not depend on internal/llamacpp, the
// runtime of llama.cpp's semantics: the IR names llama.cpp's error kind by its
// constant's name (Fail.Kind), so that the go command compiles internal/llamacpp beside
// ir instead of before it, and tmplgen's own build (what `go tool tmplgen` waits for in
// a model's repository) is that much shorter.
func TestNoLlamaRuntime(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, p := range strings.Fields(string(out)) {
		if p == "github.com/tmplgen/tmplgen/internal/llamacpp" {
			t.Errorf("package ir depends on %s", p)
		}
	}
}
