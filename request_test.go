package tmplgen_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/jinja2"
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

// TestKwargsNotAnObject: ParseRequest takes a chat_template_kwargs that is not an
// object (llama-server renders such a request as if it had none), and a render through
// the transformers profile refuses one that is true to Python, as transformers cannot
// pass it as keyword arguments, while [] or false are none.
func TestKwargsNotAnObject(t *testing.T) {
	tmpl := &tmplgen.Template{Name: "t", File: "t.jinja", Func: func(w *jinja2.Writer) { w.WriteString("ok") }}
	for kwargs, refused := range map[string]bool{`[1]`: true, `"x"`: true, `5`: true, `true`: true, `[{"a": 1}]`: true,
		`[["a", 1, 2]]`: true, `[[1, 2]]`: true, `[["a", 1]]`: false,
		`[]`: false, `false`: false, `0`: false, `""`: false, `null`: false, `{"a": 1}`: false} {
		req, err := tmplgen.ParseRequest([]byte(`{"messages": [{"role": "user", "content": "hi"}], "chat_template_kwargs": ` + kwargs + `}`))
		if err != nil {
			t.Errorf("ParseRequest with chat_template_kwargs %s: %v", kwargs, err)
			continue
		}
		out, err := tmpl.Render(&req.Input)
		var e *tmplgen.Error
		switch {
		case refused && (!errors.As(err, &e) || e.Kind != tmplgen.InputError):
			t.Errorf("chat_template_kwargs %s: rendered %q, %v; want an InputError", kwargs, out, err)
		case !refused && (err != nil || out != "ok"):
			t.Errorf("chat_template_kwargs %s: %q, %v; want the render", kwargs, out, err)
		}
	}
}

// TestKwargsPairs: a chat_template_kwargs that is a list gives the template the
// variables Python's dict() makes of its pairs: a list of two items, a str of two
// characters, a dict of two keys; a later pair replaces an earlier one's value.
func TestKwargsPairs(t *testing.T) {
	tmpl := &tmplgen.Template{Name: "t", File: "t.jinja", Func: func(w *jinja2.Writer) {
		for _, name := range []string{"x", "y", "w", "messages"} {
			w.WriteString(name + "=" + w.Lookup(name).TypeName() + ":" + w.Lookup(name).String() + " ")
		}
	}}
	req, err := tmplgen.ParseRequest([]byte(`{"messages": [], "chat_template_kwargs": [["x", "0"], "yz", {"w": 1, "v": 2}, ["x", "1"], ["messages", 2]]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := "x=str:1 y=str:z w=str:v messages=list:[] "
	if out, err := tmpl.Render(&req.Input); err != nil || out != want {
		t.Errorf("got %q, %v; want %q", out, err, want)
	}
}

// TestKwargNamedSelf: transformers passes the kwargs on to Jinja2's
// Template.render(self, ...), which refuses one named self (the reference's answer,
// "Template.render() got multiple values for argument 'self'").
func TestKwargNamedSelf(t *testing.T) {
	tmpl := &tmplgen.Template{Name: "t", File: "t.jinja", Func: func(w *jinja2.Writer) { w.WriteString("ok") }}
	for _, kwargs := range []string{`{"self": 1}`, `[["self", 1]]`} {
		req, err := tmplgen.ParseRequest([]byte(`{"messages": [], "chat_template_kwargs": ` + kwargs + `}`))
		if err != nil {
			t.Fatal(err)
		}
		var e *tmplgen.Error
		if out, err := tmpl.Render(&req.Input); !errors.As(err, &e) || !strings.Contains(e.Msg, "multiple values for argument 'self'") {
			t.Errorf("chat_template_kwargs %s: %q, %v; want the TypeError", kwargs, out, err)
		}
	}
}

// TestToolsAndDocumentsOfAnyType: a request's tools and documents that are not lists
// reach the template as they are, which is what transformers renders with (llama-server
// and vLLM refuse them their own ways: the fields corpus's tools_* and documents_*
// cases).
func TestToolsAndDocumentsOfAnyType(t *testing.T) {
	tmpl := &tmplgen.Template{Name: "t", File: "t.jinja", Func: func(w *jinja2.Writer) {
		w.WriteString(w.Lookup("tools").TypeName() + " " + w.Lookup("documents").TypeName())
	}}
	for value, typ := range map[string]string{`{}`: "dict", `{"a": 1}`: "dict", `""`: "str", `"x"`: "str",
		`0`: "int", `false`: "bool", `[1]`: "list", `null`: "NoneType"} {
		for _, field := range []string{"tools", "documents"} {
			req, err := tmplgen.ParseRequest([]byte(`{"messages": [], "` + field + `": ` + value + `}`))
			if err != nil {
				t.Errorf("ParseRequest with %s %s: %v", field, value, err)
				continue
			}
			want := typ + " NoneType"
			if field == "documents" {
				want = "NoneType " + typ
			}
			if out, err := tmpl.Render(&req.Input); err != nil || out != want {
				t.Errorf("%s %s: %q, %v; want %q", field, value, out, err, want)
			}
		}
	}
}
