package jinja2

import (
	"strings"
)

// A Span is a range of lines of a generated file and the template statement that runs
// on them: a render that fails on one of those lines reports the statement's position.
// A position table lists spans sorted by From, and a span nested in another (a
// statement in the body of an if, say) after it.
type Span struct {
	From, To  int    // the first and last line of the span in the generated file
	Line, Col int    // the statement's position in the template
	Construct string // the statement: "if", "for", "{{ }}", "set"...
}

// Spans is a position table in the compact form generated files hold it in, a string
// that is decoded only when a render fails, as Jinja2's debug_info is. It is the
// table's constructs separated by commas, a bar, and then for each span five numbers
// written as a source map writes its mappings (base64 VLQ: five bits a digit, the low
// digit first, the digit's sixth bit set when another follows, the sign in the number's
// lowest bit): From minus the previous span's From, To minus From, Line and Col minus
// the previous span's, and the index of the Construct. "for,{{ }}|kDQQCAEICAC" is
// {From: 50, To: 58, Line: 8, Col: 1, Construct: "for"} (kD Q Q C A) and {From: 52,
// To: 56, Line: 9, Col: 1, Construct: "{{ }}"} (E I C A C).
type Spans string

// EncodeSpans returns the compact form of a position table. A construct holds neither a
// comma nor a bar (they are Jinja statement names).
func EncodeSpans(spans []Span) Spans {
	var constructs []string
	index := map[string]int{}
	for _, s := range spans {
		if strings.ContainsAny(s.Construct, ",|") {
			panic("jinja2: EncodeSpans: a construct with a comma or a bar: " + s.Construct)
		}
		if _, ok := index[s.Construct]; !ok {
			index[s.Construct] = len(constructs)
			constructs = append(constructs, s.Construct)
		}
	}
	b := []byte(strings.Join(constructs, ",") + "|")
	var prev Span
	for _, s := range spans {
		for _, n := range []int{s.From - prev.From, s.To - s.From, s.Line - prev.Line, s.Col - prev.Col, index[s.Construct]} {
			b = appendVLQ(b, n)
		}
		prev = s
	}
	return Spans(b)
}

// at returns the innermost span holding the generated file's line (the last one in
// the table's order); false when there is none, or the table is malformed.
func (s Spans) at(line int) (Span, bool) {
	names, data, ok := strings.Cut(string(s), "|")
	if !ok {
		return Span{}, false
	}
	constructs := strings.Split(names, ",")
	var cur, found Span
	var nums [5]int
	held := false
	for data != "" {
		for i := range nums {
			if nums[i], data, ok = readVLQ(data); !ok {
				return Span{}, false
			}
		}
		if nums[4] < 0 || nums[4] >= len(constructs) {
			return Span{}, false
		}
		cur = Span{From: cur.From + nums[0], Line: cur.Line + nums[2], Col: cur.Col + nums[3], Construct: constructs[nums[4]]}
		cur.To = cur.From + nums[1]
		if cur.From <= line && line <= cur.To {
			found, held = cur, true
		}
	}
	return found, held
}

// vlqDigits are the base64 digits of the VLQ numbers of Spans.
const vlqDigits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

// appendVLQ appends n to b as a base64 VLQ number (see Spans).
func appendVLQ(b []byte, n int) []byte {
	v := uint(n) << 1
	if n < 0 {
		v = uint(-n)<<1 | 1
	}
	for {
		d := v & 31
		if v >>= 5; v != 0 {
			d |= 32
		}
		b = append(b, vlqDigits[d])
		if v == 0 {
			return b
		}
	}
}

// readVLQ reads a base64 VLQ number from the start of s and returns it and the rest of
// s; false when s does not start with one.
func readVLQ(s string) (n int, rest string, ok bool) {
	var v uint
	for i, shift := 0, uint(0); i < len(s) && shift < 60; i, shift = i+1, shift+5 {
		d := strings.IndexByte(vlqDigits, s[i])
		if d < 0 {
			return 0, s, false
		}
		v |= uint(d&31) << shift
		if d&32 == 0 {
			if v&1 != 0 {
				return -int(v >> 1), s[i+1:], true
			}
			return int(v >> 1), s[i+1:], true
		}
	}
	return 0, s, false
}
