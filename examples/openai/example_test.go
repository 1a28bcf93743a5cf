package openai_test

import (
	"fmt"
	"log"

	openaigo "github.com/openai/openai-go/v3"
	goopenai "github.com/sashabaranov/go-openai"
	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/generated"
	"github.com/tmplgen/tmplgen/llamaserver"
	"github.com/tmplgen/tmplgen/vllm"
)

// helloOpenAIGo is a short conversation as openai-go's request type.
func helloOpenAIGo() openaigo.ChatCompletionNewParams {
	return openaigo.ChatCompletionNewParams{
		Model:    "Qwen/Qwen3-0.6B",
		Messages: []openaigo.ChatCompletionMessageParamUnion{openaigo.SystemMessage("Be brief."), openaigo.UserMessage("Hi!")},
	}
}

// helloGoOpenAI is the same conversation as go-openai's request type.
func helloGoOpenAI() goopenai.ChatCompletionRequest {
	return goopenai.ChatCompletionRequest{
		Model: "Qwen/Qwen3-0.6B",
		Messages: []goopenai.ChatCompletionMessage{
			{Role: goopenai.ChatMessageRoleSystem, Content: "Be brief."},
			{Role: goopenai.ChatMessageRoleUser, Content: "Hi!"},
		},
	}
}

// A service in front of vLLM renders the prompt vLLM builds for a request made with
// openai-go's types: RequestOf converts the request (through its MarshalJSON: what the
// SDK sends), package vllm handles it as vLLM's server does.
func Example_vllm() {
	req, err := tmplgen.RequestOf(helloOpenAIGo())
	if err != nil {
		log.Fatal(err)
	}
	t, err := generated.ByName("Qwen-Qwen3-0.6B")
	if err != nil {
		log.Fatal(err)
	}
	prompt, err := vllm.Render(t, &req.Input)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%q\n", prompt)
	// Output:
	// "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHi!<|im_end|>\n<|im_start|>assistant\n"
}

// A service in front of llama-server renders the prompt llama-server builds for a
// request made with go-openai's types.
func Example_llamaServer() {
	req, err := tmplgen.RequestOf(helloGoOpenAI())
	if err != nil {
		log.Fatal(err)
	}
	t, err := generated.ByName("Qwen-Qwen3-0.6B")
	if err != nil {
		log.Fatal(err)
	}
	prompt, err := llamaserver.Render(t, &req.Input)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%q\n", prompt)
	// Output:
	// "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHi!<|im_end|>\n<|im_start|>assistant\n"
}
