package bench

import (
	"testing"

	"github.com/tmplgen/tmplgen"
	"github.com/tmplgen/tmplgen/llamaserver"
)

// BenchmarkSegments times a render with its segments against the same render without
// them, as BenchmarkSegments/<template>/<case>/profile=P/mode=M for every catalog
// template and oracle case: P is transformers (Template.AppendRender,
// AppendRenderSegments) or llama-server (llamaserver.AppendRender,
// Server.AppendRenderSegments), M is render or segments, each into reused buffers
// (benchstat -col /mode compares them), or request: the request's bytes to the prompt
// (tmplgen.ParseRequest, then the render), what a service pays per request.
func BenchmarkSegments(b *testing.B) {
	c := mustCorpus(b)
	srv := new(llamaserver.Server)
	type profile struct {
		name     string
		render   func(dst []byte, t *tmplgen.Template, in *tmplgen.Input) ([]byte, error)
		segments func(dst []byte, segs []tmplgen.Segment, t *tmplgen.Template, in *tmplgen.Input) ([]byte, []tmplgen.Segment, error)
	}
	profiles := []profile{
		{"transformers",
			func(dst []byte, t *tmplgen.Template, in *tmplgen.Input) ([]byte, error) {
				return t.AppendRender(dst, in)
			},
			func(dst []byte, segs []tmplgen.Segment, t *tmplgen.Template, in *tmplgen.Input) ([]byte, []tmplgen.Segment, error) {
				return t.AppendRenderSegments(dst, segs, in)
			}},
		{"llama-server", srv.AppendRender, srv.AppendRenderSegments},
	}
	for _, t := range c.templates {
		b.Run(t.name, func(b *testing.B) {
			ran := false
			for _, cs := range c.cases {
				in, err := tmplgenInput(cs.raw)
				if err != nil {
					continue
				}
				ran = b.Run(cs.id, func(b *testing.B) {
					for _, p := range profiles {
						buf, err := p.render(nil, t.tmpl, in)
						if err != nil {
							continue // the profile refuses the pair
						}
						b.Run("profile="+p.name+"/mode=render", func(b *testing.B) {
							b.ReportAllocs()
							for b.Loop() {
								buf, _ = p.render(buf[:0], t.tmpl, in)
							}
						})
						b.Run("profile="+p.name+"/mode=request", func(b *testing.B) {
							b.ReportAllocs()
							for b.Loop() {
								in, _ := tmplgenInput(cs.raw) // (decoded above)
								buf, _ = p.render(buf[:0], t.tmpl, in)
							}
						})
						var segs []tmplgen.Segment
						b.Run("profile="+p.name+"/mode=segments", func(b *testing.B) {
							b.ReportAllocs()
							for b.Loop() {
								buf, segs, _ = p.segments(buf[:0], segs[:0], t.tmpl, in)
							}
						})
					}
				}) || ran
			}
			if !ran {
				b.Skip("the template refuses every case")
			}
		})
	}
}
