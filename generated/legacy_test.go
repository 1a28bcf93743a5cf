package generated_test

import (
	"testing"

	"github.com/tmplgen/tmplgen/internal/conformance"
	"github.com/tmplgen/tmplgen/internal/harness"
)

// TestLegacyFormats: the catalog's templates of llama.cpp's built-in chat formats
// (templates/builtin, compiled into this package) give the bytes of llama.cpp's own
// llama_chat_apply_template (../shared/oracle/legacy) on every recorded case, rendered
// as transformers renders: .ci/run's builtin-llama_legacy check.
func TestLegacyFormats(t *testing.T) {
	conformance.Run(t, conformance.Suites(t, "..", harness.EngineLlamaLegacy))
}
