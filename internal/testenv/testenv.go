// Package testenv is what tests read from their environment: where the shared corpus
// is (../shared beside the repository, with the real chat templates and the oracle's
// recordings), whether a test may skip when it is missing, and how much of it the
// conformance tests run.
package testenv

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// RequireOracles reports whether a test must fail, not skip, when the shared corpus or
// an oracle it needs is missing: under CI (CI=true) or with TMPLGEN_REQUIRE_ORACLES set.
func RequireOracles() bool {
	return os.Getenv("CI") == "true" || os.Getenv("TMPLGEN_REQUIRE_ORACLES") != ""
}

// Shared returns the path of the shared corpus, ../shared beside the repository whose
// root is at root (relative to the test's directory). When it is missing (its templates
// or its oracle), the test fails if RequireOracles, and is skipped, saying so, otherwise.
func Shared(t testing.TB, root string) string {
	t.Helper()
	dir := filepath.Join(root, "..", "shared")
	var err error
	for _, sub := range []string{"templates", "oracle"} {
		if _, err = os.Stat(filepath.Join(dir, sub)); err != nil {
			break
		}
	}
	if err != nil {
		msg := fmt.Sprintf("the shared corpus is missing (%v): this test needs ../shared beside the repository", err)
		if RequireOracles() {
			t.Fatal(msg + " (CI=true or TMPLGEN_REQUIRE_ORACLES is set)")
		} else {
			t.Skip("SKIPPED: " + msg)
		}
	}
	return dir
}

// FullConformance reports whether the conformance tests check the whole shared corpus
// (TMPLGEN_CONFORMANCE=full, as .ci/run sets it) rather than their default subset
// (TMPLGEN_CONFORMANCE unset, or "short"). Another value fails the test.
func FullConformance(t testing.TB) bool {
	t.Helper()
	switch v := os.Getenv("TMPLGEN_CONFORMANCE"); v {
	case "full":
		return true
	case "", "short":
		return false
	default:
		t.Fatalf("TMPLGEN_CONFORMANCE=%q: want full, short or nothing", v)
		return false
	}
}

// LlamaDriver returns the path of llama_chat_driver, llama.cpp b10587's own chat code
// with llama-server's request handling, which
// LLAMA_VERSION=b10587 ../shared/oracle/tools/build_native.sh DIR builds as
// DIR/native-b10587/llama_chat_driver, DIR named by TMPLGEN_LLAMA_ORACLE (.ci/run builds
// it). When it is missing, the test fails if RequireOracles, and is skipped, saying so,
// otherwise.
func LlamaDriver(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("TMPLGEN_LLAMA_ORACLE")
	driver := filepath.Join(dir, "native-b10587", "llama_chat_driver")
	_, err := os.Stat(driver)
	if dir != "" && err == nil {
		return driver
	}
	msg := fmt.Sprintf("llama_chat_driver is not built in TMPLGEN_LLAMA_ORACLE=%q (LLAMA_VERSION=b10587 ../shared/oracle/tools/build_native.sh DIR builds it in DIR/native-b10587)", dir)
	if RequireOracles() {
		t.Fatal(msg + " (CI=true or TMPLGEN_REQUIRE_ORACLES is set)")
	} else {
		t.Skip("SKIPPED: " + msg)
	}
	return ""
}
