package tmplgen_test

import (
	"errors"
	"fmt"

	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/generated"
	"github.com/tmplgen/tmplgen/modelfile"
)

// A service renders an OpenAI-style JSON request with the model's compiled template.
func Example() {
	req, err := tmplgen.ParseRequest([]byte(`{
		"messages": [{"role": "user", "content": "Hi!"}],
		"chat_template_kwargs": {"enable_thinking": false}
	}`))
	if err != nil {
		panic(err)
	}
	t, _ := generated.ByName("Qwen-Qwen3-0.6B")
	prompt, err := t.Render(&req.Input)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%q\n", prompt)
	// Output:
	// "<|im_start|>user\nHi!<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n"
}

// The conversation can come from Go values instead of JSON.
func Example_goValues() {
	in := tmplgen.Input{AddGenerationPrompt: true}
	var err error
	in.Messages, err = tmplgen.MessagesValue([]tmplgen.Message{
		{Role: "system", Content: "You are terse."},
		{Role: "user", Content: "Hi!"},
	})
	if err != nil {
		panic(err)
	}
	t, _ := generated.ByName("chatml")
	prompt, err := t.Render(&in)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%q\n", prompt)
	// Output:
	// "<|im_start|>system\nYou are terse.<|im_end|>\n<|im_start|>user\nHi!<|im_end|>\n<|im_start|>assistant\n"
}

// A template is found by its text (as a model file carries it); a text no renderer was
// compiled from is refused, never guessed.
func Example_lookupText() {
	_, err := generated.LookupText("{{ messages }}")
	var unknown *tmplgen.UnknownTemplateError
	fmt.Println(errors.As(err, &unknown))
	// Output:
	// true
}

// A template refuses a conversation it does not support with raise_exception.
func Example_raiseException() {
	req, err := tmplgen.ParseRequest([]byte(`{"messages": [
		{"role": "system", "content": "Be brief."},
		{"role": "user", "content": "Hi!"}
	]}`))
	if err != nil {
		panic(err)
	}
	t, _ := generated.ByName("google-gemma-2-2b-it")
	_, err = t.Render(&req.Input)
	var refused *tmplgen.RaiseError
	if errors.As(err, &refused) {
		fmt.Println("refused:", refused.Message)
	}
	// Output:
	// refused: System role not supported
}

// A model file carries its chat template and special tokens; the template's text finds
// the compiled renderer.
func Example_modelFile() {
	info, err := modelfile.ReadModel("testdata/models/roka-tiny.gguf")
	if err != nil {
		panic(err)
	}
	t, err := generated.LookupText(info.ChatTemplate)
	if err != nil {
		panic(err)
	}
	fmt.Println(info.Name, "uses", t.Name, "with bos_token", info.BOSToken)
	// Output:
	// Roka Tiny uses roka with bos_token <|begin_of_text|>
}
