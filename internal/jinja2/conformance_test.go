package jinja2_test

import (
	"testing"

	"github.com/tmplgen/tmplgen/internal/conformance"
	"github.com/tmplgen/tmplgen/internal/harness"
)

// TestConformance compiles the templates of the shared corpus and renders the oracle's
// cases (and testdata's request fields and llama.cpp engine cases) through the generated
// code, under the semantics of this package, and compares with what Python Jinja2 gave
// (transformers' apply_chat_template), byte for byte: .ci/run's transformers checks.
// By default it checks the corpus's llama.cpp/ folder; TMPLGEN_CONFORMANCE=full checks
// every template, as .ci/run does.
func TestConformance(t *testing.T) {
	conformance.Run(t, conformance.Suites(t, "../..", harness.EngineTransformers))
}
