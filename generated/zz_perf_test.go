package generated_test

import (
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/tmplgen/tmplgen/generated"
	"github.com/tmplgen/tmplgen/runtime"
)

func benchCase(b *testing.B, tmpl, id string) {
	data, _ := os.ReadFile("../../shared/oracle/cases.json")
	var cases []map[string]any
	json.Unmarshal(data, &cases)
	var c map[string]any
	for _, x := range cases {
		if x["id"] == id {
			c = x
		}
	}
	raw, _ := json.Marshal(c)
	req, err := runtime.ParseRequest(raw)
	if err != nil {
		b.Fatal(err)
	}
	req.Now = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	t, _ := generated.ByName(tmpl)
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		buf, err = t.AppendRender(buf[:0], &req.Input)
		if err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkZQwen3Tools(b *testing.B)  { benchCase(b, "Qwen-Qwen3-0.6B", "tools_defined") }
func BenchmarkZQwen3Flow(b *testing.B)   { benchCase(b, "Qwen-Qwen3-0.6B", "tool_flow") }
func BenchmarkZLlama31Tools(b *testing.B) { benchCase(b, "meta-llama-Llama-3.1-8B-Instruct", "tools_defined") }
func BenchmarkZGptOss(b *testing.B)      { benchCase(b, "openai-gpt-oss-120b", "tools_defined") }
