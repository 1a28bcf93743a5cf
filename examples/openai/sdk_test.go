package openai_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/generated"
	"github.com/tmplgen/tmplgen/llamaserver"
	"github.com/tmplgen/tmplgen/vllm"
)

// profiles are the ways a service renders a request: the servers' own handling (a vLLM
// that takes tools: --enable-auto-tool-choice --tool-call-parser hermes) and
// transformers' apply_chat_template on the request's messages as they are.
var profiles = map[string]func(*tmplgen.Template, *tmplgen.Input) (string, error){
	"llama-server": llamaserver.Render,
	"vllm":         (&vllm.Server{EnableAutoToolChoice: true, ToolCallParser: "hermes"}).Render,
	"transformers": (*tmplgen.Template).Render,
}

// TestSDKRequests: an SDK's request converted by RequestOf renders as its JSON, the
// body the SDK sends, does through ParseRequest, under every profile and for templates
// of several families; the server profiles render every one without an image (a
// llama-server without a multimodal projector refuses images, as the real one does).
func TestSDKRequests(t *testing.T) {
	requests := map[string]any{
		"openai-go": openaiGoRequest(false), "openai-go with an image": openaiGoRequest(true),
		"go-openai": goOpenAIRequest(false), "go-openai with an image": goOpenAIRequest(true),
	}
	templates := []string{"Qwen-Qwen3-0.6B", "meta-llama-Llama-3.1-8B-Instruct", "NousResearch-Hermes-3-Llama-3.1-8B-tool_use", "deepseek-ai-DeepSeek-R1-Distill-Qwen-32B"}
	for sdk, sdkReq := range requests {
		body, err := json.Marshal(sdkReq)
		if err != nil {
			t.Fatal(err)
		}
		fromJSON, err := tmplgen.ParseRequest(body)
		if err != nil {
			t.Fatalf("%s: ParseRequest of %s: %v", sdk, body, err)
		}
		fromGo, err := tmplgen.RequestOf(sdkReq)
		if err != nil {
			t.Fatalf("%s: RequestOf: %v", sdk, err)
		}
		for _, name := range templates {
			tmpl, err := generated.ByName(name)
			if err != nil {
				t.Fatal(err)
			}
			for profile, render := range profiles {
				want, wantErr := render(tmpl, &fromJSON.Input)
				got, err := render(tmpl, &fromGo.Input)
				switch {
				case (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error():
					t.Errorf("%s, %s, %s: RequestOf gives error %v, its JSON %v", sdk, name, profile, err, wantErr)
				case got != want:
					t.Errorf("%s, %s, %s: RequestOf renders\n%q\nits JSON\n%q", sdk, name, profile, got, want)
				case profile != "transformers" && err != nil && !strings.HasSuffix(sdk, "with an image"):
					t.Errorf("%s, %s, %s: %v", sdk, name, profile, err)
				}
			}
		}
	}
}
