package modelrepo_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/tmplgen/tmplgen/internal/harness"
)

// TestUpToDate regenerates chattmpl from the model's files and compares with what is
// checked in, as the repository's own CI would.
func TestUpToDate(t *testing.T) {
	if err := harness.ReadGeneratorSources("../.."); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	out, err := exec.Command("go", "run", "-tags", "tmplgen_bootstrap", "../../cmd/tmplgen", "gen", "-pkg", "chattmpl", "-o", dir, "./model").CombinedOutput()
	if err != nil {
		t.Fatalf("tmplgen gen: %v\n%s", err, out)
	}
	fresh, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	if len(fresh) == 0 {
		t.Fatal("gen wrote nothing")
	}
	for _, f := range fresh {
		want, _ := os.ReadFile(f)
		got, err := os.ReadFile(filepath.Join("chattmpl", filepath.Base(f)))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("chattmpl/%s is stale: run go generate ./...", filepath.Base(f))
		}
	}
}
