package vllm_test

import (
	"testing"

	"github.com/tmplgen/tmplgen/internal/conformance"
	"github.com/tmplgen/tmplgen/internal/harness"
)

// TestConformance renders the oracle's cases with the templates of the shared corpus
// under this package's profile, and compares with the prompts vLLM builds
// (../shared/oracle/expected-vllm, vllm_render.py's), byte for byte: .ci/run's vllm
// check. By default it checks the corpus's llama.cpp/ folder; TMPLGEN_CONFORMANCE=full
// checks every template, as .ci/run does.
func TestConformance(t *testing.T) {
	conformance.Run(t, conformance.Suites(t, "..", harness.EngineVLLM))
}
