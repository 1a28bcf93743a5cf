package llamaserver

import (
	"testing"

	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/internal/jinja2"
	"github.com/tmplgen/tmplgen/internal/llamacpp"
)

// BenchmarkGrammarRefusal times the grammar check of a request with the oracle's two
// tools (tools_defined), for a handler that checks the whole parameters and one that
// checks each argument.
func BenchmarkGrammarRefusal(b *testing.B) {
	tools, err := jinja2.ParseJSON([]byte(`[{"type": "function", "function": {"name": "get_weather", "description": "Get the current weather in a city", "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}, "unit": {"type": "string", "enum": ["c", "f"]}}, "required": ["city"]}}}, {"type": "function", "function": {"name": "search_docs", "description": "Search the knowledge base", "parameters": {"type": "object", "properties": {"query": {"type": "string"}, "limit": {"type": "integer", "default": 5}, "filters": {"type": "object", "properties": {"lang": {"type": "string"}, "min_score": {"type": "number"}}}}, "required": ["query"]}}}]`))
	if err != nil {
		b.Fatal(err)
	}
	for _, handler := range []string{"gpt_oss", "qwen3_coder"} {
		t := &tmplgen.Template{Name: handler, Caps: llamacpp.Capabilities{Handler: handler}}
		b.Run(handler, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := grammarRefusal(t, tools, "auto", jinja2.Value{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
