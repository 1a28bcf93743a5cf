package llamaserver_test

import (
	"fmt"
	"time"

	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/generated"
	"github.com/tmplgen/tmplgen/llamaserver"
)

// Render gives the prompt llama.cpp's llama-server builds for the same request as
// Template.Render: here the system message merged into the user's, as llama-server does
// for a template without a system role.
func ExampleRender() {
	req, err := tmplgen.ParseRequest([]byte(`{"messages": [
		{"role": "system", "content": "Be brief."},
		{"role": "user", "content": "Hi!"}
	], "bos_token": "<bos>"}`))
	if err != nil {
		panic(err)
	}
	req.Now = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	t, _ := generated.ByName("google-gemma-2-2b-it")
	prompt, err := llamaserver.Render(t, &req.Input)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%q\n", prompt)
	// Output:
	// "<bos><start_of_turn>user\nBe brief.\nHi!<end_of_turn>\n<start_of_turn>model\n"
}
