package tmplgen_test

import (
	"errors"
	"testing"

	"github.com/tmplgen/tmplgen"
)

// TestParseRequestJSONError: a request that is not JSON fails with the decoder's
// *JSONError, reachable with errors.As, its position in the message.
func TestParseRequestJSONError(t *testing.T) {
	_, err := tmplgen.ParseRequest([]byte("{\n"))
	var je *tmplgen.JSONError
	if !errors.As(err, &je) || err.Error() != "request: unexpected end of JSON input at line 2, column 1" {
		t.Errorf("ParseRequest: %v", err)
	}
}
