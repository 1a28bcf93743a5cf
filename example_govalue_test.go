package tmplgen_test

import (
	"encoding/json"
	"fmt"

	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/generated"
)

// A Go service renders a prompt from typed messages and tools, without JSON.
func Example_fromGoValues() {
	tmpl, _ := generated.ByName("Qwen-Qwen3-0.6B")
	msgs := []tmplgen.Message{
		{Role: "system", Content: "You are terse."},
		{Role: "user", Content: "Weather in Paris?"},
		{Role: "assistant", ToolCalls: []tmplgen.ToolCall{
			{ID: "call_1", Name: "get_weather", Arguments: json.RawMessage(`{"city": "Paris"}`)},
		}},
		{Role: "tool", ToolCallID: "call_1", Content: "21°C"},
	}
	tools := []tmplgen.Tool{{
		Name:        "get_weather",
		Description: "Current weather",
		Parameters:  json.RawMessage(`{"type": "object", "properties": {"city": {"type": "string"}}}`),
	}}

	thinking, _ := tmplgen.ValueOf(false)
	in := tmplgen.Input{AddGenerationPrompt: true, Kwargs: map[string]tmplgen.Value{"enable_thinking": thinking}}
	var err error
	if in.Messages, err = tmplgen.MessagesValue(msgs); err != nil {
		panic(err)
	}
	if in.Tools, err = tmplgen.ToolsValue(tools); err != nil {
		panic(err)
	}
	prompt, err := tmpl.Render(&in)
	if err != nil {
		panic(err)
	}
	fmt.Print(prompt)
	// Output:
	// <|im_start|>system
	// You are terse.
	//
	// # Tools
	//
	// You may call one or more functions to assist with the user query.
	//
	// You are provided with function signatures within <tools></tools> XML tags:
	// <tools>
	// {"type": "function", "function": {"name": "get_weather", "description": "Current weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}
	// </tools>
	//
	// For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:
	// <tool_call>
	// {"name": <function-name>, "arguments": <args-json-object>}
	// </tool_call><|im_end|>
	// <|im_start|>user
	// Weather in Paris?<|im_end|>
	// <|im_start|>assistant
	// <tool_call>
	// {"name": "get_weather", "arguments": {"city": "Paris"}}
	// </tool_call><|im_end|>
	// <|im_start|>user
	// <tool_response>
	// 21°C
	// </tool_response><|im_end|>
	// <|im_start|>assistant
	// <think>
	//
	// </think>
}

func ExampleValueOf() {
	type Document struct {
		Title   string   `json:"title"`
		Text    string   `json:"text"`
		Tags    []string `json:"tags,omitempty"`
		Score   float64  `json:"score,omitempty"`
		private int
	}
	docs, err := tmplgen.ValueOf([]Document{
		{Title: "Paris", Text: "Capital of France.", Score: 0.9},
		{Title: "Lyon", Text: "Gastronomy.", Tags: []string{"food"}},
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(docs.Repr())

	// Maps have no order: their keys come sorted, as encoding/json sorts them.
	kwargs, _ := tmplgen.ValueOf(map[string]any{"enable_thinking": false, "custom": 10})
	fmt.Println(kwargs.Repr())

	_, err = tmplgen.ValueOf(map[string]any{"messages": []any{Document{}, map[string]any{"content": make(chan int)}}})
	fmt.Println(err)
	// Output:
	// [{'title': 'Paris', 'text': 'Capital of France.', 'score': 0.9}, {'title': 'Lyon', 'text': 'Gastronomy.', 'tags': ['food']}]
	// {'custom': 10, 'enable_thinking': False}
	// tmplgen.ValueOf: messages[1].content: unsupported type chan int
}

// Arguments come as OpenAI's API sends them, a JSON string kept as a str, or as the
// object.
func ExampleToolCall() {
	msgs, err := tmplgen.MessagesValue([]tmplgen.Message{{Role: "assistant", ToolCalls: []tmplgen.ToolCall{
		{ID: "1", Name: "f", Arguments: `{"b": 1, "a": 2}`},
		{ID: "2", Name: "f", Arguments: json.RawMessage(`{"b": 1, "a": 2}`)},
		{ID: "3", Name: "f", Arguments: map[string]int{"b": 1, "a": 2}},
		{ID: "4", Name: "now"},
	}}})
	if err != nil {
		panic(err)
	}
	for _, call := range msgs.Items()[0].AsDict().Values()[2].Items() {
		fn, _ := call.AsDict().GetStr("function")
		args, _ := fn.AsDict().GetStr("arguments")
		fmt.Println(args.Repr())
	}
	// Output:
	// '{"b": 1, "a": 2}'
	// {'b': 1, 'a': 2}
	// {'a': 2, 'b': 1}
	// {}
}
