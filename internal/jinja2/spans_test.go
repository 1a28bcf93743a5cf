package jinja2

import (
	"math/rand"
	"testing"
)

// TestSpansExample: the example of Spans' doc comment.
func TestSpansExample(t *testing.T) {
	spans := []Span{{From: 50, To: 58, Line: 8, Col: 1, Construct: "for"}, {From: 52, To: 56, Line: 9, Col: 1, Construct: "{{ }}"}}
	if got := EncodeSpans(spans); got != "for,{{ }}|kDQQCAEICAC" {
		t.Errorf("EncodeSpans = %q", got)
	}
}

// TestSpansAt: a line is found in the innermost span holding it, as a table of the
// spans in order finds it; the compact form loses nothing of any span (the numbers go
// up and down, past what a digit holds).
func TestSpansAt(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	constructs := []string{"if", "for", "{{ }}", "set", "macro"}
	for range 200 {
		var spans []Span
		from := 0
		for range r.Intn(30) {
			from += r.Intn(40)
			spans = append(spans, Span{From: from, To: from + r.Intn(3000), Line: 1 + r.Intn(5000), Col: 1 + r.Intn(300), Construct: constructs[r.Intn(len(constructs))]})
		}
		enc := EncodeSpans(spans)
		for line := 0; line <= from+3000; line += 1 + r.Intn(50) {
			want, wantOK := Span{}, false
			for i := len(spans) - 1; i >= 0; i-- {
				if spans[i].From <= line && line <= spans[i].To {
					want, wantOK = spans[i], true
					break
				}
			}
			if got, ok := enc.at(line); got != want || ok != wantOK {
				t.Fatalf("%q.at(%d) = %+v, %v; want %+v, %v (spans %+v)", enc, line, got, ok, want, wantOK, spans)
			}
		}
	}
}

// TestSpansMalformed: a table that is not one finds nothing, and does not panic.
func TestSpansMalformed(t *testing.T) {
	for _, s := range []Spans{"", "for", "for|", "for|kDQQC", "for|kDQQCC", "for|kDQQC*", "for|kDQQCA////////////////////", "for|kDQQCAE"} {
		if got, ok := s.at(52); ok != (s == "for|") && ok {
			t.Errorf("%q.at(52) = %+v", s, got)
		}
	}
}
