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

// TestParseRequestMapsWritable: a request without special tokens or kwargs still gives
// maps a caller can add to (ParseRequest's doc says they are never nil).
func TestParseRequestMapsWritable(t *testing.T) {
	req, err := tmplgen.ParseRequest([]byte(`{"messages": [{"role": "user", "content": "hi"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if req.SpecialTokens == nil || req.Kwargs == nil {
		t.Fatalf("SpecialTokens %v, Kwargs %v: want maps, not nil", req.SpecialTokens, req.Kwargs)
	}
	req.SpecialTokens["bos_token"] = "<s>"
	req.Kwargs["enable_thinking"] = tmplgen.Value{}
}
