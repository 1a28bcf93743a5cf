package generated_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/generated"
	"github.com/tmplgen/tmplgen/llamaserver"
	"github.com/tmplgen/tmplgen/vllm"
)

// FuzzRender renders random requests (messages of wrong types, missing fields, nested
// junk, huge strings) through every compiled template, as transformers, as llama-server
// and as vLLM (with tools accepted): each render gives a prompt or an error the template
// or the request caused, never a panic and never an internal error.
func FuzzRender(f *testing.F) {
	if b, err := os.ReadFile("../../shared/oracle/cases.json"); err == nil {
		var cases []json.RawMessage
		if json.Unmarshal(b, &cases) == nil {
			for _, c := range cases {
				f.Add([]byte(c))
			}
		}
	}
	paths, _ := filepath.Glob("../testdata/requests/*.json")
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"messages": [{"role": 1, "content": {"a": [null, true, 1.5e300]}}, {"role": "tool"}, {}], "tools": [[]]}`))
	f.Add([]byte(`{"messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}, {"type": "image"}]}], "chat_template_kwargs": {"enable_thinking": "yes", "tools": 3}}`))
	templates := generated.Registry.All()
	vllmServer := &vllm.Server{EnableAutoToolChoice: true, ToolCallParser: "hermes"}
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, data []byte) {
		req, err := tmplgen.ParseRequest(data)
		if err != nil {
			return
		}
		req.Now = now
		req.Limits = tmplgen.Limits{MaxOutput: 1 << 20, MaxIterations: 100000}
		for _, tmpl := range templates {
			prompt, err := tmpl.Render(&req.Input)
			checkRenderError(t, tmpl.Name, err)
			withSegs, segs, segErr := tmpl.RenderSegments(&req.Input)
			checkSegments(t, tmpl.Name, prompt, err, withSegs, segs, segErr)
			// the llama-server profile, which renders with llama.cpp's semantics
			prompt, err = llamaserver.Render(tmpl, &req.Input)
			checkRenderError(t, tmpl.Name+" (llama-server)", err)
			withSegs, segs, segErr = llamaserver.RenderSegments(tmpl, &req.Input)
			checkSegments(t, tmpl.Name+" (llama-server)", prompt, err, withSegs, segs, segErr)
			// the vLLM profile, which rewrites the request before the render
			prompt, err = vllmServer.Render(tmpl, &req.Input)
			checkRenderError(t, tmpl.Name+" (vllm)", err)
			b, segs, segErr := vllmServer.AppendRenderSegments(nil, nil, tmpl, &req.Input)
			checkSegments(t, tmpl.Name+" (vllm)", prompt, err, string(b), segs, segErr)
		}
	})
}

// checkSegments fails when a render with segments gives another prompt or error than
// the render without them, or segments that do not cover its prompt, alternating.
func checkSegments(t *testing.T, name, prompt string, err error, withSegs string, segs []tmplgen.Segment, segErr error) {
	t.Helper()
	if (err == nil) != (segErr == nil) || err != nil && err.Error() != segErr.Error() || withSegs != prompt {
		t.Fatalf("%s: with segments %q, %v; without %q, %v", name, withSegs, segErr, prompt, err)
	}
	at := 0
	for i, s := range segs {
		if s.Start != at || s.End <= s.Start || i > 0 && s.Origin == segs[i-1].Origin {
			t.Fatalf("%s: segment %d %+v after %d in %v", name, i, s, at, segs)
		}
		at = s.End
	}
	if at != len(prompt) {
		t.Fatalf("%s: the segments end at %d, the prompt at %d", name, at, len(prompt))
	}
}

// checkRenderError fails on an error no template or request causes: an internal error,
// or an error that is not the runtime's.
func checkRenderError(t *testing.T, name string, err error) {
	t.Helper()
	var re *tmplgen.Error
	var raise *tmplgen.RaiseError
	switch {
	case err == nil, errors.As(err, &raise):
	case errors.As(err, &re):
		if re.Kind == "InternalError" {
			t.Fatalf("%s: %v", name, err)
		}
	default:
		t.Fatalf("%s: unexpected error type %T: %v", name, err, err)
	}
}
