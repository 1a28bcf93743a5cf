package tmplgen

import (
	"sync"

	"github.com/tmplgen/tmplgen/internal/jinja2"
)

// Origin says where the bytes of a segment of a prompt come from.
type Origin uint8

// The origins. The zero Origin is Data: what nothing vouches for is data.
const (
	// Data is text derived from the request: message contents, roles and names, tool
	// definitions and arguments, documents, the kwargs a caller passes, and whatever the
	// template computes from them. A tokenizer should encode it as text, with special
	// tokens not parsed, so that no request can write a control token.
	Data Origin = iota
	// Markup is template text, and the model's own special tokens (Input.SpecialTokens,
	// a template's Tokens): a tokenizer parses special tokens in it.
	Markup
)

// String returns "data" or "markup".
func (o Origin) String() string {
	if o == Markup {
		return "markup"
	}
	return "data"
}

// A Segment is a byte range [Start, End) of a prompt and where its bytes come from.
// The segments of a render cover the prompt it appended, in order, each longer than
// zero and of another origin than the one before it.
type Segment struct {
	Start, End int
	Origin     Origin
}

// RenderSegments is Render that also returns the prompt's segments: which of its bytes
// are template text and which come from the request (see Segment).
func (t *Template) RenderSegments(in *Input) (string, []Segment, error) {
	b, segs, err := t.AppendRenderSegments(nil, nil, in)
	return string(b), segs, err
}

// AppendRenderSegments is AppendRender that also appends to segs the segments of the
// prompt it appends to dst (offsets in out). The prompt is AppendRender's, byte for
// byte; a failed render returns dst and segs as they were.
//
// A byte is Markup when it is template text (or a special token of the model) that
// reaches the prompt as it is: written by the template, or carried unchanged through
// concatenation, set blocks, macros, slicing and trimming. Any byte the render
// computes from the request, or by an operation that does not keep origins, is Data:
// a request can never make its own text Markup.
func (t *Template) AppendRenderSegments(dst []byte, segs []Segment, in *Input) (out []byte, _ []Segment, err error) {
	markup := markupPool.Get().(*[]jinja2.ByteRange)
	defer markupPool.Put(markup)
	out, err = t.appendRenderTracked(dst, in, markup, nil)
	if err != nil {
		return dst, segs, err
	}
	return out, AppendSegments(segs, len(dst), len(out), *markup), nil
}

// markupPool recycles the lists of template-text ranges renders with segments fill.
var markupPool = sync.Pool{New: func() any { return new([]jinja2.ByteRange) }}

// AppendSegments appends to segs the segments of the bytes [start, end) of a prompt
// whose template text is at the ranges markup (in order, within [start, end), apart):
// what a profile that renders through AppendRenderLlama (package llamaserver) gives its
// callers.
func AppendSegments(segs []Segment, start, end int, markup []jinja2.ByteRange) []Segment {
	add := func(from, to int, o Origin) {
		if from < to {
			segs = append(segs, Segment{from, to, o})
		}
	}
	at := start
	for _, r := range markup {
		add(at, r.Start, Data)
		add(r.Start, r.End, Markup)
		at = r.End
	}
	add(at, end, Data)
	return segs
}
