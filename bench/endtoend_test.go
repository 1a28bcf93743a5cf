package bench

import (
	"encoding/json"
	"testing"
)

// BenchmarkEndToEnd measures what a service pays per request, from the request's bytes
// to the prompt's, for every catalog template and oracle case, as
// BenchmarkEndToEnd/<template>/<case>/<engine>: tmplgen decodes the request
// (tmplgen.ParseRequest) and renders it into a reused buffer; encoding_json is
// encoding/json decoding the same bytes into any, alone (the bar: a request costs less
// end to end with tmplgen than decoding it with encoding/json); each peer decodes the
// request with encoding/json keeping key order (as its users must, for tojson and dict
// iteration), builds its variables and renders. Pairs the template refuses are left out.
func BenchmarkEndToEnd(b *testing.B) {
	benchCorpus(b, benchEndToEnd)
}

// benchEndToEnd runs the engine sub-benchmarks of one pair, from raw.
func benchEndToEnd(b *testing.B, pt *preparedTemplate, p *pair, raw []byte) {
	b.Run("tmplgen", func(b *testing.B) {
		b.ReportAllocs()
		var buf []byte
		for b.Loop() {
			in, err := tmplgenInput(raw)
			if err != nil {
				b.Fatal(err)
			}
			if buf, err = p.tmpl.AppendRender(buf[:0], in); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding_json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var v any
			if err := json.Unmarshal(raw, &v); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, pe := range peers {
		if _, ok := p.render[pe.name]; !ok {
			continue
		}
		bind := pt.binds[pe.name]
		b.Run(pe.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				req, err := decodeOrdered(raw)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := bind(templateVariables(req))(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
