package modelfile

import (
	"os/exec"
	"strings"
	"testing"
)

// TestStandardLibraryOnly: modelfile depends on the standard library and the packages
// of the render (tmplgen, for its *JSONError, and what it imports) only, so that reading
// a model file adds no dependency and compiles in no compiled template.
func TestStandardLibraryOnly(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}\t{{.Standard}}", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, std, _ := strings.Cut(line, "\t")
		switch {
		case std == "true", renderPackages[path]:
		default:
			t.Errorf("modelfile depends on %s, which is not in the standard library", path)
		}
	}
}

// renderPackages are the packages of this module modelfile may depend on.
var renderPackages = map[string]bool{
	"github.com/tmplgen/tmplgen":                   true,
	"github.com/tmplgen/tmplgen/modelfile":         true,
	"github.com/tmplgen/tmplgen/templatehash":      true,
	"github.com/tmplgen/tmplgen/internal/jinja2":   true,
	"github.com/tmplgen/tmplgen/internal/llamacpp": true,
	"github.com/tmplgen/tmplgen/internal/pystr":    true,
}
