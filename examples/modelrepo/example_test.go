package modelrepo_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/examples/modelrepo/chattmpl"
)

// A service renders a chat request with the model's own template, found by its name (or
// by its text, when the model is loaded at run time). The model's special tokens
// (here its bos_token, <|begin_of_text|>) came with the template from its
// tokenizer_config.json; a request may still give its own.
func Example() {
	req, err := tmplgen.ParseRequest([]byte(`{
		"messages": [
			{"role": "system", "content": "You are terse."},
			{"role": "user", "content": "Hi!"}
		]
	}`))
	if err != nil {
		panic(err)
	}
	req.Now = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	tmpl, err := chattmpl.ByName("model")
	if err != nil {
		panic("no template")
	}
	prompt, err := tmpl.Render(&req.Input)
	var refused *tmplgen.RaiseError
	if errors.As(err, &refused) {
		fmt.Println("the template refused the conversation:", refused.Message)
		return
	}
	fmt.Printf("%q\n", prompt)
	// Output:
	// "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nYou are terse.<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nHi!<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n"
}
