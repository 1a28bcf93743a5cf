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

// TestParseRequestNotUTF8: a request whose text is not UTF-8, or holds a lone surrogate
// escape, is refused where it is, as llama-server and vLLM refuse it (encoding/json would
// make it U+FFFD and a prompt of it).
func TestParseRequestNotUTF8(t *testing.T) {
	for body, want := range map[string]string{
		"{\"messages\": [{\"role\": \"user\", \"content\": \"hi\xff\"}]}": "request: invalid UTF-8 byte 0xff in string literal at line 1, column 46 (messages[0].content)",
		`{"messages": [{"role": "user", "content": "hi\ud83d"}]}`:         `request: lone surrogate \ud83d in string literal (no UTF-8 text holds it) at line 1, column 46 (messages[0].content)`,
	} {
		if _, err := tmplgen.ParseRequest([]byte(body)); err == nil || err.Error() != want {
			t.Errorf("ParseRequest(%q): %v\nwant %s", body, err, want)
		}
	}
}

// TestParseRequestBOM: a UTF-8 byte order mark before the request is skipped, as
// llama-server's nlohmann::json and vLLM's json.loads of the body skip it.
func TestParseRequestBOM(t *testing.T) {
	req, err := tmplgen.ParseRequest([]byte("\xEF\xBB\xBF{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}"))
	if err != nil || req.Messages.Items()[0].AsDict().Len() != 2 {
		t.Errorf("ParseRequest with a BOM: %v, %v", req, err)
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
