package bench

import (
	"testing"

	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/vllm"
)

// vllmServer is the server the oracle's vLLM recordings assume: started with
// --enable-auto-tool-choice and a --tool-call-parser.
var vllmServer = &vllm.Server{EnableAutoToolChoice: true, ToolCallParser: "hermes"}

// BenchmarkVLLM times the vLLM profile from request bytes to prompt, as a router in
// front of vLLM runs it (tmplgen.ParseRequest, then vllm.Server.Render), as
// BenchmarkVLLM/<template>/<case>/tmplgen for every catalog template and oracle case
// vLLM renders (a pair vLLM refuses is left out); python_bench.py -profile vllm times
// ../shared/oracle/tools/vllm_render.py on the same pairs as .../python.
func BenchmarkVLLM(b *testing.B) {
	c := mustCorpus(b)
	render := func(t *tmplgen.Template, raw []byte) error {
		req, err := tmplgen.ParseRequest(raw)
		if err != nil {
			return err
		}
		req.Now = now
		_, err = vllmServer.Render(t, &req.Input)
		return err
	}
	for _, t := range c.templates {
		b.Run(t.name, func(b *testing.B) {
			ran := false
			for _, cs := range c.cases {
				if render(t.tmpl, cs.raw) != nil {
					continue
				}
				ran = b.Run(cs.id, func(b *testing.B) {
					b.Run("tmplgen", func(b *testing.B) {
						b.ReportAllocs()
						for b.Loop() {
							if err := render(t.tmpl, cs.raw); err != nil {
								b.Fatal(err)
							}
						}
					})
				}) || ran
			}
			if !ran {
				b.Skip("vLLM refuses every case")
			}
		})
	}
}
