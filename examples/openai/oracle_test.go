package openai_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/generated"
)

var update = flag.Bool("update", false, "write testdata/cases.json from the SDKs' requests (then record testdata/expected with testdata/record.sh)")

// sdkRequests are the requests the SDKs build, by case id.
func sdkRequests() map[string]any {
	return map[string]any{
		"openai_go": openaiGoRequest(false), "openai_go_image": openaiGoRequest(true),
		"go_openai": goOpenAIRequest(false), "go_openai_image": goOpenAIRequest(true),
		"openai_go_hello": helloOpenAIGo(), "go_openai_hello": helloGoOpenAI(), // the Examples'
	}
}

// oracleTemplates are the catalog templates the references rendered the requests with
// (testdata/record.sh lists them too).
var oracleTemplates = []string{"Qwen-Qwen3-0.6B", "meta-llama-Llama-3.1-8B-Instruct", "NousResearch-Hermes-3-Llama-3.1-8B-tool_use", "deepseek-ai-DeepSeek-R1-Distill-Qwen-32B"}

// oracleFields are what the cases add to an SDK's body for the references: the
// generation prompt (llama-server's and vLLM's default, which ParseRequest and
// RequestOf take too) and the special tokens every template is rendered with.
var oracleFields = map[string]string{"add_generation_prompt": "true", "bos": `"<s>"`, "eos": `"</s>"`}

// TestCasesFile: testdata/cases.json holds what the SDKs send today, the bodies the
// references rendered (with -update, it is written).
func TestCasesFile(t *testing.T) {
	var cases []map[string]json.RawMessage
	for id, req := range sdkRequests() {
		body, err := json.Marshal(req)
		if err != nil {
			t.Fatal(err)
		}
		var c map[string]json.RawMessage
		if err := json.Unmarshal(body, &c); err != nil {
			t.Fatal(err)
		}
		c["id"], _ = json.Marshal(id)
		for k, v := range oracleFields {
			c[k] = json.RawMessage(v)
		}
		cases = append(cases, c)
	}
	slices.SortFunc(cases, func(a, b map[string]json.RawMessage) int { return strings.Compare(string(a["id"]), string(b["id"])) })
	got, err := json.MarshalIndent(cases, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	if *update {
		if err := os.WriteFile("testdata/cases.json", got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile("testdata/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("testdata/cases.json is not what the SDKs send: go test -update, then testdata/record.sh")
	}
}

// TestSDKOracle: each SDK request, converted by RequestOf, renders under each profile
// as its reference rendered the SDK's body (testdata/expected, recorded by
// testdata/record.sh: Python Jinja2 as transformers runs it, llama-server b10587 and
// vLLM's request handling): the same prompt, or an error where the reference refused.
func TestSDKOracle(t *testing.T) {
	var compared int
	for _, name := range oracleTemplates {
		tmpl, err := generated.ByName(name)
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join("testdata/expected", name+".jinja.json"))
		if err != nil {
			t.Fatal(err)
		}
		var exp struct {
			Cases map[string]map[string]struct {
				Prompt *string `json:"prompt"`
				Error  *string `json:"error"`
			} `json:"cases"`
		}
		if err := json.Unmarshal(b, &exp); err != nil {
			t.Fatal(err)
		}
		for id, sdkReq := range sdkRequests() {
			req, err := tmplgen.RequestOf(sdkReq)
			if err != nil {
				t.Fatal(err)
			}
			req.SpecialTokens = map[string]string{"bos_token": "<s>", "eos_token": "</s>"}
			req.Now = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) // the references' clock
			for profile, engine := range map[string]string{"transformers": "transformers", "llama-server": "llama_server", "vllm": "vllm"} {
				want, ok := exp.Cases[id][engine]
				if !ok {
					t.Errorf("%s %s: no %s answer recorded", name, id, engine)
					continue
				}
				got, err := profiles[profile](tmpl, &req.Input)
				switch {
				case want.Error != nil && err == nil:
					t.Errorf("%s %s %s: got %q, the reference refused: %s", name, id, profile, got, *want.Error)
				case want.Prompt != nil && err != nil:
					t.Errorf("%s %s %s: %v; the reference rendered %q", name, id, profile, err, *want.Prompt)
				case want.Prompt != nil && got != *want.Prompt:
					t.Errorf("%s %s %s:\ngot  %q\nwant %q", name, id, profile, got, *want.Prompt)
				default:
					compared++
				}
			}
		}
	}
	if want := len(oracleTemplates) * len(sdkRequests()) * 3; compared != want {
		t.Errorf("%d of %d pairs as the references answered", compared, want)
	}
}
