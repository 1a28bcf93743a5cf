package vllm_test

import (
	"fmt"

	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/generated"
	"github.com/tmplgen/tmplgen/vllm"
)

// A router in front of vLLM renders a request as vLLM will (here the developer message
// becomes a system message, since the template never names the role), and counts the
// prompt's bytes, with no Python anywhere. The prompt is vllm_render.py's.
func Example() {
	req, err := tmplgen.ParseRequest([]byte(`{
		"messages": [
			{"role": "developer", "content": "Answer in French."},
			{"role": "user", "content": "Hello!"}
		]
	}`))
	if err != nil {
		panic(err)
	}
	t, _ := generated.ByName("chatml")
	server := &vllm.Server{EnableAutoToolChoice: true, ToolCallParser: "hermes"}
	prompt, err := server.Render(t, &req.Input)
	if err != nil {
		panic(err)
	}
	fmt.Print(prompt)
	fmt.Println(len(prompt), "bytes")
	// Output:
	// <|im_start|>system
	// Answer in French.<|im_end|>
	// <|im_start|>user
	// Hello!<|im_end|>
	// <|im_start|>assistant
	// 103 bytes
}
