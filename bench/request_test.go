package bench

import (
	"encoding/json"
	"testing"

	"github.com/tmplgen/tmplgen"
)

// BenchmarkRequest decodes each oracle case's request (the bytes tmplgenInput parses)
// as BenchmarkRequest/<case>/engine=E: engine=tmplgen is tmplgen.ParseJSON, the
// decoder ParseRequest reads requests with, and engine=encoding_json is encoding/json's
// Unmarshal of the same bytes into an any, the reference it is measured against
// (benchstat -col /engine compares them).
func BenchmarkRequest(b *testing.B) {
	c := mustCorpus(b)
	for _, cs := range c.cases {
		b.Run(cs.id, func(b *testing.B) {
			b.Run("engine=tmplgen", func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(cs.raw)))
				for b.Loop() {
					if _, err := tmplgen.ParseJSON(cs.raw); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("engine=encoding_json", func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(cs.raw)))
				for b.Loop() {
					var v any
					if err := json.Unmarshal(cs.raw, &v); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}
