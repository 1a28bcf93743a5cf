package vllm_test

import (
	"strings"
	"testing"

	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/internal/jinja2"
	"github.com/tmplgen/tmplgen/vllm"
)

// TestLeavesInputAlone: the template gets the request's own messages where vLLM would
// build the same ones, and new ones where it changes them (a developer message made a
// system message, then merged); the caller's input is never changed. The messages
// expected are what ../shared/oracle/tools/vllm_render.py gives {{ messages | tojson }}
// (the string content format) and the same after a loop over each message's content
// (the openai format).
func TestLeavesInputAlone(t *testing.T) {
	request := `{"messages": [{"role": "system", "content": "S"}, {"role": "user", "content": "U"},
		{"role": "developer", "content": "D"},
		{"role": "assistant", "content": "A", "tool_calls": [{"id": "1", "type": "function", "function": {"name": "f", "arguments": "{\"x\": 1}"}}]},
		{"role": "tool", "content": "T", "tool_call_id": "1"}, {"role": "user", "content": [{"type": "text", "text": "P"}]}],
		"tools": [{"type": "function", "function": {"name": "f"}}]}`
	srv := &vllm.Server{EnableAutoToolChoice: true, ToolCallParser: "hermes"}
	for _, openAI := range []bool{false, true} {
		req, err := tmplgen.ParseRequest([]byte(request))
		if err != nil {
			t.Fatal(err)
		}
		dump := func() string { return string(jinja2.AppendJSON(nil, req.Messages)) }
		before := dump()
		var seen string
		tmpl := &tmplgen.Template{Name: "dump", File: "dump.jinja", VLLM: tmplgen.VLLMFacts{OpenAIContent: openAI}, Func: func(w *jinja2.Writer) {
			seen = string(jinja2.AppendJSON(nil, w.Lookup("messages")))
		}}
		for range 2 {
			if _, err := srv.Render(tmpl, &req.Input); err != nil {
				t.Fatal(err)
			}
		}
		if after := dump(); before != after {
			t.Errorf("openai %v: the render changed its input:\nbefore %s\nafter  %s", openAI, before, after)
		}
		want := `[{"role": "system", "content": "S\n\nD"}, {"role": "user", "content": "U"}, {"role": "assistant", "content": "A", "tool_calls": [{"id": "1", "function": {"arguments": {"x": 1}, "name": "f"}, "type": "function"}]}, {"role": "tool", "content": "T", "tool_call_id": "1"}, {"role": "user", "content": "P"}]`
		if openAI {
			want = `[{"role": "system", "content": "S\n\nD"}, {"role": "user", "content": [{"type": "text", "text": "U"}]}, {"role": "assistant", "content": [{"type": "text", "text": "A"}], "tool_calls": [{"id": "1", "function": {"arguments": {"x": 1}, "name": "f"}, "type": "function"}]}, {"role": "tool", "content": "T", "tool_call_id": "1"}, {"role": "user", "content": [{"type": "text", "text": "P"}]}]`
		}
		if seen != want {
			t.Errorf("openai %v: the template got\n%s\nwant\n%s", openAI, seen, want)
		}
	}
}

// TestKwargsNamingConversation: chat_template_kwargs that name conversation or self are
// refused as apply_chat_template's own argument, before a kwarg named messages is, in
// whichever order the request gives them (what ../shared/oracle/tools/vllm_render.py
// answers to each of these requests: "apply_chat_template() got multiple values for
// argument 'conversation'").
func TestKwargsNamingConversation(t *testing.T) {
	srv := &vllm.Server{EnableAutoToolChoice: true, ToolCallParser: "hermes"}
	tmpl := &tmplgen.Template{Name: "reads", File: "reads.jinja", VLLM: tmplgen.VLLMFacts{Undeclared: []string{"messages", "conversation"}},
		Func: func(w *jinja2.Writer) {}}
	for _, kwargs := range []string{`{"messages": [1], "conversation": 2}`, `{"conversation": 2, "messages": [1]}`, `{"self": 1, "messages": [1]}`} {
		req, err := tmplgen.ParseRequest([]byte(`{"messages": [{"role": "user", "content": "U"}], "chat_template_kwargs": ` + kwargs + `}`))
		if err != nil {
			t.Fatal(err)
		}
		for range 20 { // the kwargs are a map: any order they are taken in
			_, err := srv.Render(tmpl, &req.Input)
			if want := "apply_chat_template() got multiple values for argument 'conversation'"; err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("kwargs %s: got %v, want an error saying %q", kwargs, err, want)
			}
		}
	}
}

// TestMediaPartRefused: an image or audio part is refused as a text-only model refuses
// it, the part's type quoted ('?' for a part that names its medium by a key alone):
// vllm_render.py's answers to these requests.
func TestMediaPartRefused(t *testing.T) {
	tmpl := &tmplgen.Template{Name: "content", File: "content.jinja", VLLM: tmplgen.VLLMFacts{OpenAIContent: true}, Func: func(w *jinja2.Writer) {}}
	for part, want := range map[string]string{
		`{"type": "image_url", "image_url": {"url": "u"}}`: "multimodal content part 'image_url' is not supported by a text-only model",
		`{"image_url": {"url": "u"}}`:                      "multimodal content part '?' is not supported by a text-only model",
		`{"type": "input_audio", "input_audio": {}}`:       "multimodal content part 'input_audio' is not supported by a text-only model",
	} {
		req, err := tmplgen.ParseRequest([]byte(`{"messages": [{"role": "user", "content": [` + part + `]}]}`))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := vllm.Render(tmpl, &req.Input); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("part %s: got %v, want an error saying %q", part, err, want)
		}
	}
}

// TestRequestTemplateRefused: a chat template the request gives, as chat_template or
// as chat_template_kwargs.chat_template, is refused as a server started without
// --trust-request-chat-template refuses it; a null one is no template (vllm_render.py's
// answers to these requests).
func TestRequestTemplateRefused(t *testing.T) {
	tmpl := &tmplgen.Template{Name: "t", File: "t.jinja", Func: func(w *jinja2.Writer) { w.WriteString("ok") }}
	for fields, refused := range map[string]bool{`"chat_template": "{{ 1 }}"`: true, `"chat_template_kwargs": {"chat_template": "x"}`: true,
		`"chat_template": null`: false, `"chat_template_kwargs": {"chat_template": null}`: false} {
		req, err := tmplgen.ParseRequest([]byte(`{"messages": [{"role": "user", "content": "U"}], ` + fields + `}`))
		if err != nil {
			t.Fatal(err)
		}
		out, err := vllm.Render(tmpl, &req.Input)
		if want := "--trust-request-chat-template is not set"; refused != (err != nil && strings.Contains(err.Error(), want)) || !refused && out != "ok" {
			t.Errorf("%s: %q, %v; want refused %v", fields, out, err, refused)
		}
	}
}
