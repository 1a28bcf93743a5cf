package llamaserver_test

import (
	"testing"

	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/internal/jinja2"
	"github.com/tmplgen/tmplgen/llamaserver"
)

// TestContinuedRendersOnce: for a continued final message, llama-server renders the
// prompt before it and, for its generation prompt, the same with add_generation_prompt.
// When the template marks where its generation prompt starts (as generated code does
// where ir.GenerationPrompt finds it), one render gives both; the prompt is the one of
// the same template without the mark, which renders twice.
func TestContinuedRendersOnce(t *testing.T) {
	renders := 0
	// the messages, the eos_token, then (marked) the generation prompt
	template := func(mark, tail bool) func(w *jinja2.Writer) {
		return func(w *jinja2.Writer) {
			renders++
			jinja2.Write(w, w.Lookup("bos_token"))
			for _, m := range w.Lookup("messages").Items() {
				jinja2.Write(w, m.ItemStr("role"))
				w.WriteString(": ")
				jinja2.Write(w, m.ItemStr("content"))
				w.WriteString("\n")
			}
			jinja2.Write(w, w.Lookup("eos_token"))
			if mark {
				w.MarkGenerationPrompt()
			}
			if tail && w.Lookup("add_generation_prompt").Truthy() {
				w.WriteString("assistant: ")
			}
		}
	}
	requests := []string{
		// a final assistant message: llama-server continues it
		`{"messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": "A"}], "bos_token": "<s>", "eos_token": "</s>"}`,
		`{"messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": "A", "reasoning_content": "R"}], "bos_token": "<s>", "eos_token": "</s>"}`,
		`{"messages": [{"role": "user", "content": "q"}], "continue_final_message": "content", "add_generation_prompt": false, "bos_token": "<s>", "eos_token": "</s>"}`,
		// a kwarg of the name, which the prompt renders with
		`{"messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": "A"}], "chat_template_kwargs": {"add_generation_prompt": true}, "bos_token": "<s>", "eos_token": "</s>"}`,
		`{"messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": "A"}], "chat_template_kwargs": {"add_generation_prompt": false}, "bos_token": "<s>", "eos_token": "</s>"}`,
	}
	for _, tail := range []bool{true, false} {
		for i, request := range requests {
			for _, tokens := range []bool{false, true} { // the tokenizer adds bos and eos
				render := func(mark bool) (string, int) {
					req, err := tmplgen.ParseRequest([]byte(request))
					if err != nil {
						t.Fatal(err)
					}
					req.AddBOS, req.AddEOS = tokens, tokens
					tmpl := &tmplgen.Template{Name: "t", File: "t.jinja", Func: template(mark, tail), Caps: generic}
					var prompt string
					for range 2 { // the first also renders the template as llama-server loads it
						renders = 0
						if prompt, err = llamaserver.Render(tmpl, &req.Input); err != nil {
							t.Fatal(err)
						}
					}
					return prompt, renders
				}
				want, twice := render(false)
				got, n := render(true)
				if got != want {
					t.Errorf("request %d (tail %v, tokens %v): marked %q, unmarked %q", i, tail, tokens, got, want)
				}
				if once := i < 3; twice != 2 || once && n != 1 || !once && n != 2 {
					t.Errorf("request %d (tail %v, tokens %v): %d renders marked, %d unmarked", i, tail, tokens, n, twice)
				}
			}
		}
	}
}
