package bench

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tmplgen/tmplgen"
)

// A preparedTemplate is a catalog template with each peer's parse of it.
type preparedTemplate struct {
	*benchTemplate
	binds    map[string]func([]variable) renderFunc // by peer name; absent when the peer failed
	parseErr map[string]error                       // why a peer could not parse it
}

func prepareTemplate(t *benchTemplate) *preparedTemplate {
	pt := &preparedTemplate{benchTemplate: t, binds: map[string]func([]variable) renderFunc{}, parseErr: map[string]error{}}
	for _, p := range peers {
		bind, err := safely(func() (func([]variable) renderFunc, error) { return p.compile(t.text) })
		if err != nil {
			pt.parseErr[p.name] = err
			continue
		}
		pt.binds[p.name] = bind
	}
	return pt
}

// A pair is one template and one request, with each engine's inputs built and one
// rendering done (which also warms the engines' buffers).
type pair struct {
	template string
	caseID   string
	tmpl     *tmplgen.Template
	in       *tmplgen.Input
	out      string // tmplgen's prompt
	err      error  // tmplgen's error: the pair is not benchmarked
	render   map[string]renderFunc
	peerErr  map[string]error // why a peer is left out of this pair
	same     map[string]bool  // whether a peer's prompt is tmplgen's, byte for byte
}

func preparePair(pt *preparedTemplate, caseID string, req *jv, raw []byte) *pair {
	p := &pair{template: pt.name, caseID: caseID, tmpl: pt.tmpl, render: map[string]renderFunc{}, peerErr: map[string]error{}, same: map[string]bool{}}
	in, err := tmplgenInput(raw)
	if err != nil {
		p.err = err
		return p
	}
	p.in = in
	p.out, p.err = pt.tmpl.Render(in)
	if p.err != nil {
		return p
	}
	vars := templateVariables(req)
	for _, pe := range peers {
		bind, ok := pt.binds[pe.name]
		if !ok {
			p.peerErr[pe.name] = fmt.Errorf("parse: %w", pt.parseErr[pe.name])
			continue
		}
		r, err := safely(func() (renderFunc, error) { return bind(vars), nil })
		if err != nil {
			p.peerErr[pe.name] = err
			continue
		}
		out, err := safely(func() (string, error) {
			s, err := r()
			return strings.Clone(s), err
		})
		if err != nil {
			p.peerErr[pe.name] = err
			continue
		}
		p.render[pe.name] = r
		p.same[pe.name] = out == p.out
	}
	return p
}

func mustCorpus(tb testing.TB) *corpus {
	c, err := loadCorpus()
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// BenchmarkRender renders every catalog template with every oracle case, as
// BenchmarkRender/<template>/<case>/<engine>: tmplgen's compiled renderer (AppendRender
// into a reused buffer) and each peer interpreting the same text with the same inputs,
// where the peer manages to parse and render it (see TestCoverage). Pairs the template
// itself refuses (raise_exception) are left out.
func BenchmarkRender(b *testing.B) {
	benchCorpus(b, func(b *testing.B, _ *preparedTemplate, p *pair, _ []byte) { benchPair(b, p) })
}

// benchCorpus runs bench as <template>/<case> for every catalog template and oracle
// case, leaving out the pairs the template refuses.
func benchCorpus(b *testing.B, bench func(b *testing.B, pt *preparedTemplate, p *pair, raw []byte)) {
	c := mustCorpus(b)
	for _, t := range c.templates {
		b.Run(t.name, func(b *testing.B) {
			pt := prepareTemplate(t)
			ran := false
			for _, cs := range c.cases {
				p := preparePair(pt, cs.id, cs.tree, cs.raw)
				if p.err != nil {
					continue
				}
				ran = b.Run(cs.id, func(b *testing.B) { bench(b, pt, p, cs.raw) }) || ran
			}
			if !ran {
				// Else the template level itself would be reported as a benchmark.
				b.Skip("the template refuses every case")
			}
		})
	}
}

// benchPair runs the engine sub-benchmarks of one pair.
func benchPair(b *testing.B, p *pair) {
	b.Run("tmplgen", func(b *testing.B) { benchTmplgen(b, p.in, p.tmpl) })
	for _, pe := range peers {
		r, ok := p.render[pe.name]
		if !ok {
			continue
		}
		b.Run(pe.name, func(b *testing.B) { benchPeer(b, r) })
	}
}

func benchTmplgen(b *testing.B, in *tmplgen.Input, t *tmplgen.Template) {
	b.ReportAllocs()
	buf, err := t.AppendRender(nil, in) // warm the buffer: the caller's, reused
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		buf, err = t.AppendRender(buf[:0], in)
	}
	if err != nil {
		b.Fatal(err)
	}
}

func benchPeer(b *testing.B, r renderFunc) {
	b.ReportAllocs()
	var err error
	for b.Loop() {
		_, err = r()
	}
	if err != nil {
		b.Fatal(err)
	}
}

// scalingTemplates are the templates BenchmarkScaling renders: Qwen3, which writes its
// prompt as it goes, and Reka-Edge, which builds it in a namespace attribute
// ({% set ns.out = ns.out ~ part %}) and writes it at the end.
var scalingTemplates = []string{"Qwen-Qwen3-0.6B", "Reka-Edge"}

// BenchmarkScaling renders conversations of 10, 100 and 1,000 messages with 1, 10 and
// 100 tools through each of scalingTemplates, as
// BenchmarkScaling/<template>/messages=N/tools=K/engine=E, so that the growth with the
// input's size shows (benchstat -col /engine compares the engines).
func BenchmarkScaling(b *testing.B) {
	c := mustCorpus(b)
	for _, name := range scalingTemplates {
		var bt *benchTemplate
		for _, t := range c.templates {
			if t.name == name {
				bt = t
			}
		}
		if bt == nil {
			b.Fatalf("no template %s in the catalog", name)
		}
		pt := prepareTemplate(bt)
		b.Run(name, func(b *testing.B) {
			for _, nmsg := range []int{10, 100, 1000} {
				for _, ntools := range []int{1, 10, 100} {
					benchScalingPair(b, pt, nmsg, ntools)
				}
			}
		})
	}
}

// benchScalingPair runs the engines on a conversation of nmsg messages and ntools tools.
func benchScalingPair(b *testing.B, pt *preparedTemplate, nmsg, ntools int) {
	raw := scalingRequest(nmsg, ntools)
	req, err := decodeOrdered(raw)
	if err != nil {
		b.Fatal(err)
	}
	p := preparePair(pt, fmt.Sprintf("messages=%d/tools=%d", nmsg, ntools), req, raw)
	if p.err != nil {
		b.Fatalf("%s %s: %v", p.template, p.caseID, p.err)
	}
	b.Run(p.caseID, func(b *testing.B) {
		b.Run("engine=tmplgen", func(b *testing.B) { benchTmplgen(b, p.in, p.tmpl) })
		for _, pe := range peers {
			if r, ok := p.render[pe.name]; ok {
				b.Run("engine="+pe.name, func(b *testing.B) { benchPeer(b, r) })
			}
		}
	})
}

// scalingRequest is a conversation of nmsg messages (a system prompt, then users and
// assistants taking turns, every tenth assistant turn a tool call answered by a tool
// message) with ntools tool definitions.
func scalingRequest(nmsg, ntools int) []byte {
	var b strings.Builder
	b.WriteString(`{"messages":[{"role":"system","content":"You are a helpful assistant. Answer briefly and use the tools when they help."}`)
	for i := 1; i < nmsg; i++ {
		switch {
		case i%20 == 18 && i+1 < nmsg:
			fmt.Fprintf(&b, `,{"role":"assistant","content":"","tool_calls":[{"type":"function","function":{"name":"tool_%d","arguments":{"query":"topic %d","limit":5}}}]}`, i%max(ntools, 1), i)
		case i%20 == 19 && i > 1:
			fmt.Fprintf(&b, `,{"role":"tool","content":"{\"result\": \"found %d documents about topic %d\"}"}`, i, i)
		case i%2 == 1:
			fmt.Fprintf(&b, `,{"role":"user","content":"Message %d: tell me more about topic %d, and keep it short, please."}`, i, i)
		default:
			fmt.Fprintf(&b, `,{"role":"assistant","content":"Message %d: topic %d is about the thing you asked; here is a short answer with a few details."}`, i, i)
		}
	}
	b.WriteString(`],"tools":[`)
	for i := 0; i < ntools; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"type":"function","function":{"name":"tool_%d","description":"Tool number %d: searches the knowledge base for a query","parameters":{"type":"object","properties":{"query":{"type":"string","description":"what to search for"},"limit":{"type":"integer","default":5},"lang":{"type":"string","enum":["en","fr","de"]}},"required":["query"]}}}`, i, i)
	}
	b.WriteString(`],"add_generation_prompt":true,"bos":"<s>","eos":"</s>"}`)
	return []byte(b.String())
}
