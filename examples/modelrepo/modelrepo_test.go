package modelrepo_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestUpToDate fails when chattmpl is not what the go:generate line of doc.go
// writes from the model's files: gen -check compares and writes nothing. A model
// repository of your own runs its go:generate command with -check the same way (there:
// go tool tmplgen gen -check ...).
func TestUpToDate(t *testing.T) {
	// go test reuses a result until a file the test itself opens changes: open the
	// files the check reads in another process
	for _, dir := range []string{".", "model", "chattmpl"} {
		files, _ := os.ReadDir(dir)
		for _, f := range files {
			os.ReadFile(filepath.Join(dir, f.Name()))
		}
	}
	out, err := exec.Command("go", "run", "../../cmd/tmplgen", "gen", "-check", "-pkg", "chattmpl", "-o", "chattmpl", "./model").CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}
