package jinja2_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestStandardLibraryOnly enforces that importing the packages a service uses (jinja2
// and llamacpp, which generated code calls, the root package tmplgen, templatehash,
// llamaserver and modelfile) adds no dependency: everything they import is one of them
// or in the standard library, as go list reports it (its Standard flag) and by where its
// source lives (GOROOT/src). Package jinja2 imports no cryptography: the
// registry's key is templatehash's (crypto/sha256 brings the standard library's FIPS
// module, crypto/internal/entropy/v1.0.0).
func TestStandardLibraryOnly(t *testing.T) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatalf("go env GOROOT: %v", err)
	}
	src := filepath.Join(strings.TrimSpace(string(out)), "src") + string(filepath.Separator)
	own := map[string]bool{}
	for _, p := range []string{"", "/jinja2", "/llamacpp", "/internal/jinja2", "/internal/llamacpp", "/internal/pystr", "/templatehash"} {
		own["github.com/tmplgen/tmplgen"+p] = true
	}
	for _, pkg := range []string{".", "../..", "../../jinja2", "../../llamacpp", "../llamacpp", "../pystr", "../../templatehash", "../../llamaserver", "../../modelfile"} {
		out, err = exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}\t{{.Standard}}\t{{.Dir}}", pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list %s: %v\n%s", pkg, err, out)
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		self := lines[len(lines)-1] // go list -deps lists the package itself last
		for _, line := range lines {
			f := strings.Split(line, "\t")
			if len(f) != 3 {
				t.Fatalf("go list printed %q", line)
			}
			if pkg == "." && strings.HasPrefix(f[0], "crypto/") {
				t.Errorf("jinja2 depends on %s: it needs no cryptography (see package templatehash)", f[0])
			}
			if line == self || own[f[0]] {
				continue
			}
			if f[1] != "true" || !strings.HasPrefix(f[2], src) {
				t.Errorf("%s depends on %s (in %s), which is not in the standard library", strings.Split(self, "\t")[0], f[0], f[2])
			}
		}
	}
}
