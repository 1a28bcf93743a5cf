package llamacpp_test

import (
	"testing"

	"github.com/tmplgen/tmplgen/internal/conformance"
	"github.com/tmplgen/tmplgen/internal/harness"
)

// TestEngineCases renders testdata/llama_engine (a template for each way llama.cpp's Jinja
// engine differs from Jinja2: its builtins of each type, its operators, its undefined,
// its scopes) with the llama-server profile, whose templates render with this
// package's functions, and compares with what llama.cpp's own chat code rendered, byte
// for byte: .ci/run's engine-llama_server check.
func TestEngineCases(t *testing.T) {
	conformance.Run(t, []harness.Suite{conformance.EngineCases("../..", harness.EngineLlamaServer)})
}
