package llamaserver_test

import (
	"testing"

	"github.com/tmplgen/tmplgen/internal/conformance"
	"github.com/tmplgen/tmplgen/internal/harness"
)

// TestConformance renders the oracle's cases (and testdata's request fields) with the
// templates of the shared corpus under this package's profile,
// and compares with the prompts llama-server built, byte for byte: .ci/run's
// llama_server checks. By default it checks the corpus's llama.cpp/ folder;
// TMPLGEN_CONFORMANCE=full checks every template, as .ci/run does.
func TestConformance(t *testing.T) {
	conformance.Run(t, conformance.Suites(t, "..", harness.EngineLlamaServer))
}
