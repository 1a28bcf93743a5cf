package bench

import (
	"testing"

	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/generated"
	"github.com/tmplgen/tmplgen/llamaserver"
)

// BenchmarkModelTokens renders Llama 3.1 (which reads bos_token) from an input that
// gives the special tokens, as the oracle's cases do and so every other benchmark, and
// from one that does not, as a service's rarely does: the template's model gives them.
// Both profiles; each pair side by side.
func BenchmarkModelTokens(b *testing.B) {
	t := generated.MetaLlamaLlama3_1_8B_Instruct
	for _, input := range []string{"given", "model"} {
		req, err := tmplgen.ParseRequest([]byte(`{"messages": [{"role": "user", "content": "hi"}], "add_generation_prompt": true}`))
		if err != nil {
			b.Fatal(err)
		}
		if input == "given" {
			req.SpecialTokens = map[string]string{"bos_token": "<|begin_of_text|>", "eos_token": "<|eot_id|>"}
		}
		for _, profile := range []string{"transformers", "llama-server"} {
			render := t.AppendRender
			if profile == "llama-server" {
				render = func(dst []byte, in *tmplgen.Input) ([]byte, error) { return llamaserver.AppendRender(dst, t, in) }
			}
			b.Run("tokens="+input+"/profile="+profile, func(b *testing.B) {
				b.ReportAllocs()
				var out []byte
				for b.Loop() {
					if out, err = render(out[:0], &req.Input); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
