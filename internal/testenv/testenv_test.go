package testenv

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestRequireOracles(t *testing.T) {
	for _, tt := range []struct {
		ci, require string
		want        bool
	}{
		{"", "", false},
		{"false", "", false},
		{"true", "", true},
		{"", "1", true},
	} {
		t.Setenv("CI", tt.ci)
		t.Setenv("TMPLGEN_REQUIRE_ORACLES", tt.require)
		if got := RequireOracles(); got != tt.want {
			t.Errorf("CI=%q TMPLGEN_REQUIRE_ORACLES=%q: RequireOracles() = %v, want %v", tt.ci, tt.require, got, tt.want)
		}
	}
}

// recorder is a test that records whether Shared failed or skipped it, instead of
// stopping.
type recorder struct {
	testing.TB
	failed, skipped string
}

func (r *recorder) Helper()           {}
func (r *recorder) Fatal(args ...any) { r.failed = args[0].(string) }
func (r *recorder) Skip(args ...any)  { r.skipped = args[0].(string) }

// TestSharedMissing: without ../shared, a test is skipped, unless the oracles are
// required: then it fails.
func TestSharedMissing(t *testing.T) {
	root := filepath.Join(t.TempDir(), "repo")
	t.Setenv("CI", "")
	t.Setenv("TMPLGEN_REQUIRE_ORACLES", "")
	var r recorder
	Shared(&r, root)
	if r.failed != "" || !strings.HasPrefix(r.skipped, "SKIPPED: the shared corpus is missing") {
		t.Errorf("not required: failed %q, skipped %q; want skipped", r.failed, r.skipped)
	}
	t.Setenv("CI", "true")
	r = recorder{}
	Shared(&r, root)
	if r.skipped != "" || !strings.Contains(r.failed, "the shared corpus is missing") {
		t.Errorf("CI=true: failed %q, skipped %q; want failed", r.failed, r.skipped)
	}
}

func TestFullConformance(t *testing.T) {
	for v, want := range map[string]bool{"": false, "short": false, "full": true} {
		t.Setenv("TMPLGEN_CONFORMANCE", v)
		if got := FullConformance(t); got != want {
			t.Errorf("TMPLGEN_CONFORMANCE=%q: %v, want %v", v, got, want)
		}
	}
}
