package bench

import (
	"encoding/json"
	"testing"

	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/generated"
)

// jsonSchema is a JSON Schema typed as Go programs commonly type it (the fields of
// go-openai's jsonschema.Definition that tools_defined uses).
type jsonSchema struct {
	Type        string                 `json:"type"`
	Description string                 `json:"description,omitempty"`
	Enum        []string               `json:"enum,omitempty"`
	Default     any                    `json:"default,omitempty"`
	Properties  map[string]*jsonSchema `json:"properties,omitempty"`
	Required    []string               `json:"required,omitempty"`
}

// toolsDefinedSchemas are the parameters of the two tools of tools_defined.
var toolsDefinedSchemas = [2]*jsonSchema{
	{Type: "object", Properties: map[string]*jsonSchema{
		"city": {Type: "string", Description: `City name, e.g. "Paris"`},
		"unit": {Type: "string", Enum: []string{"c", "f"}},
	}, Required: []string{"city"}},
	{Type: "object", Properties: map[string]*jsonSchema{
		"query": {Type: "string"},
		"limit": {Type: "integer", Default: 5},
		"filters": {Type: "object", Properties: map[string]*jsonSchema{
			"lang":      {Type: "string"},
			"min_score": {Type: "number"},
		}},
	}, Required: []string{"query"}},
}

// toolsDefinedParams are the same parameters as JSON, keys in the request's order.
var toolsDefinedParams = [2]string{
	`{"type": "object", "properties": {"city": {"type": "string", "description": "City name, e.g. \"Paris\""}, "unit": {"type": "string", "enum": ["c", "f"]}}, "required": ["city"]}`,
	`{"type": "object", "properties": {"query": {"type": "string"}, "limit": {"type": "integer", "default": 5}, "filters": {"type": "object", "properties": {"lang": {"type": "string"}, "min_score": {"type": "number"}}}}, "required": ["query"]}`,
}

// toolsDefinedTyped is the tools_defined request as typed Go values, the parameters of
// its tools given by params.
func toolsDefinedTyped(params [2]any) ([]tmplgen.Message, []tmplgen.Tool) {
	msgs := []tmplgen.Message{
		{Role: "system", Content: "You are a helpful assistant."},
		{Role: "user", Content: "What's the weather in Paris?"},
	}
	tools := []tmplgen.Tool{
		{Name: "get_weather", Description: "Get the current weather in a city (°C by default)", Parameters: params[0]},
		{Name: "search_docs", Description: "Search the knowledge base", Parameters: params[1]},
	}
	return msgs, tools
}

// typedInput builds an Input from typed messages and tools, with the oracle's defaults
// (tokens).
func typedInput(msgs []tmplgen.Message, tools []tmplgen.Tool, tokens map[string]string) (*tmplgen.Input, error) {
	in := &tmplgen.Input{AddGenerationPrompt: true, SpecialTokens: tokens, Now: now}
	var err error
	if in.Messages, err = tmplgen.MessagesValue(msgs); err != nil {
		return nil, err
	}
	if in.Tools, err = tmplgen.ToolsValue(tools); err != nil {
		return nil, err
	}
	return in, nil
}

// BenchmarkFromGo builds the Input of the Qwen3 tools_defined request, as
// BenchmarkFromGo/from=F: from=json is tmplgen.ParseRequest of the request's JSON (the
// bytes tmplgenInput parses); from=typed is tmplgen.MessagesValue and tmplgen.ToolsValue
// of the same request as typed Go values made once, the tools' parameters given as
// params=raw (json.RawMessage, parsed at each conversion), params=value (tmplgen.Values
// parsed once: a fixed schema shared by every request) or params=struct (Go structs
// converted by reflection, whose maps sort the properties: the prompt differs in their
// order). Before timing, each typed input is checked: it renders the prompt of the JSON
// request with Qwen3 (params=struct: its parameters are what ParseJSON reads from
// json.Marshal of the structs).
func BenchmarkFromGo(b *testing.B) {
	c := mustCorpus(b)
	var raw []byte
	for _, cs := range c.cases {
		if cs.id == "tools_defined" {
			raw = cs.raw
		}
	}
	if raw == nil {
		b.Fatal("cases.json has no tools_defined request")
	}
	tmpl, err := generated.ByName("Qwen-Qwen3-0.6B")
	if err != nil {
		b.Fatal("no Qwen-Qwen3-0.6B template")
	}
	want, err := tmplgenInput(raw)
	if err != nil {
		b.Fatal(err)
	}
	wantPrompt, err := tmpl.Render(want)
	if err != nil {
		b.Fatal(err)
	}
	tokens := map[string]string{"bos_token": "<s>", "eos_token": "</s>"}

	b.Run("from=json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := tmplgen.ParseRequest(raw); err != nil {
				b.Fatal(err)
			}
		}
	})
	var rawParams, valueParams, structParams [2]any
	for i, p := range toolsDefinedParams {
		rawParams[i] = json.RawMessage(p)
		if valueParams[i], err = tmplgen.ParseJSON([]byte(p)); err != nil {
			b.Fatal(err)
		}
		structParams[i] = toolsDefinedSchemas[i]
	}
	for _, v := range []struct {
		name   string
		params [2]any
	}{{"raw", rawParams}, {"value", valueParams}, {"struct", structParams}} {
		msgs, tools := toolsDefinedTyped(v.params)
		in, err := typedInput(msgs, tools, tokens)
		if err != nil {
			b.Fatal(err)
		}
		if v.name == "struct" {
			checkStructParams(b, in.Tools)
		} else if prompt, err := tmpl.Render(in); err != nil || prompt != wantPrompt {
			b.Fatalf("params=%s: the typed input renders\n%s (%v)\nthe JSON\n%s", v.name, prompt, err, wantPrompt)
		}
		b.Run("from=typed/params="+v.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := typedInput(msgs, tools, tokens); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// checkStructParams checks that the parameters of the tools converted from
// toolsDefinedSchemas are what ParseJSON reads from their json.Marshal.
func checkStructParams(b *testing.B, tools tmplgen.Value) {
	for i, tool := range tools.Items() {
		fn, _ := tool.AsDict().GetStr("function")
		got, _ := fn.AsDict().GetStr("parameters")
		text, err := json.Marshal(toolsDefinedSchemas[i])
		if err != nil {
			b.Fatal(err)
		}
		want, err := tmplgen.ParseJSON(text)
		if err != nil {
			b.Fatal(err)
		}
		if g, w := got.Repr(), want.Repr(); g != w {
			b.Fatalf("params=struct: tool %d has parameters\n%s\nwant\n%s", i, g, w)
		}
	}
}
