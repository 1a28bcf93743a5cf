package jinja2

import (
	"slices"
	"sync/atomic"

	"github.com/tmplgen/tmplgen/internal/pystr"
)

// Where the bytes of a prompt come from. A server tokenizes a prompt with its special
// tokens parsed, so a message whose text is "<|im_end|>" would close its own turn; a
// caller that knows which bytes are the template's (markup) and which come from the
// request (data) can tokenize data without parsing special tokens. A render reports that
// when it is asked (Run.AppendTracked), and costs nothing more when it is not:
//
//   - Template text is a literal of the template: generated code writes it with
//     WriteString and builds str constants with Lit. The model's own special tokens
//     (bos_token...) are Lit strs too.
//   - A str carries its origin: flagTemplate when every byte of it is template text; a
//     list of template ranges (boxedStr.markup) when it mixes both; otherwise all of it
//     is data. Whatever builds a new str without saying so (every filter and method
//     that computes text) makes data: an unknown origin is data, never template text,
//     so a mistake costs precision, not soundness.
//   - The operations that keep template text exact: concatenation (+, ~, Sum, join),
//     capture (set blocks, macro calls, call and filter blocks), the substrings trim,
//     strip and slicing take, and an ASCII case change. Those that compute a str from
//     template text alone (replace, format, %, split, tojson...) give template text
//     (FromTemplate).
//   - A tracked render's Writer records the ranges of its output that are template
//     text: WriteString's, and a str's own. Everything else it writes is data.

// ByteRange is the range [Start, End) of a text.
type ByteRange struct{ Start, End int }

// templateStr returns the str s of template text, of any length (Lit's limit aside).
func templateStr(s string) Value { return makeStr(KindString, flagTemplate, s) }

// strOrigin is what a str's bytes are.
type strOrigin uint8

const (
	originData     strOrigin = iota // all data (or of unknown origin)
	originTemplate                  // all template text
	originMixed                     // both, at the ranges of its boxedStr.markup
)

// origin returns what the bytes of the str v are.
func (v Value) origin() strOrigin {
	if v.kind() != KindString {
		return originData
	}
	switch f := v.strFlags(); {
	case f&flagTemplate != 0:
		return originTemplate
	case f&flagBoxed != 0 && v.boxed().markup != nil:
		return originMixed
	}
	return originData
}

// mixedStr returns the str s whose template text is at the ranges markup (in order,
// disjoint, merged where they touch): a Lit when they cover s, a data str when there
// are none.
func mixedStr(s string, markup []ByteRange) Value {
	switch {
	case len(markup) == 0:
		return Str(s)
	case markup[0] == ByteRange{0, len(s)}:
		return templateStr(s)
	}
	return boxStr(KindString, 0, &boxedStr{s: s, markup: markup})
}

// addRange appends the range [start, end) to rs, merged with the last range when they
// touch.
func addRange(rs []ByteRange, start, end int) []ByteRange {
	if start >= end {
		return rs
	}
	if n := len(rs); n > 0 && rs[n-1].End == start {
		rs[n-1].End = end
		return rs
	}
	return append(rs, ByteRange{start, end})
}

// addMarkup appends to rs the template text of the str v, placed at offset at.
func addMarkup(rs []ByteRange, v Value, at int) []ByteRange {
	switch v.origin() {
	case originTemplate:
		return addRange(rs, at, at+len(v.str()))
	case originMixed:
		for _, r := range v.boxed().markup {
			rs = addRange(rs, at+r.Start, at+r.End)
		}
	}
	return rs
}

// Substr returns the bytes [i, j) of the str v's text, with their origin: what trim,
// strip and slicing give.
func Substr(v Value, i, j int) Value {
	s := v.str()
	switch v.origin() {
	case originTemplate:
		return templateStr(s[i:j])
	case originMixed:
		var rs []ByteRange
		for _, r := range v.boxed().markup {
			rs = addRange(rs, max(r.Start, i)-i, min(r.End, j)-i)
		}
		return mixedStr(s[i:j], rs)
	}
	return Str(s[i:j])
}

// tracking counts the tracked renders running. While there are any, a concatenation
// of template text and data records where each is (a mixed str, which costs an
// allocation); otherwise it makes data, which is all a render that is not tracked
// needs to know.
var tracking atomic.Int32

// ConcatStrs returns the concatenation of the strs parts, keeping their origins as a
// concatenation in a render does: what an engine's own concatenation builds its result
// with.
func ConcatStrs(parts ...Value) Value {
	switch len(parts) {
	case 0:
		return Str("")
	case 1:
		return parts[0]
	}
	n := 0
	for _, p := range parts[1:] {
		n += len(p.str())
	}
	return concatStrs(parts[0], parts[1:], n)
}

// concatOrigin returns c, the str first + parts... (all strs), with the origin its
// bytes have; a mix of template text and data records its ranges when exact (else it
// is data), a mix with a mixed str always.
func concatOrigin(c Value, first Value, parts []Value, exact bool) Value {
	f := first.strFlags()
	for _, p := range parts {
		f |= p.strFlags()
	}
	if f&(flagTemplate|flagBoxed) == 0 {
		return c // all data, the commonest case
	}
	o := first.origin()
	empty := first.str() == ""
	if empty {
		o = originTemplate // an empty str is neutral
	}
	allTemplate, anyTemplate := o == originTemplate, !empty && o != originData
	mixed := o == originMixed
	for _, p := range parts {
		if p.str() == "" {
			continue
		}
		switch p.origin() {
		case originTemplate:
			anyTemplate = true
		case originMixed:
			anyTemplate, mixed, allTemplate = true, true, false
		default:
			allTemplate = false
		}
	}
	switch {
	case allTemplate:
		c.w |= flagTemplate << flagsShift
		return c
	case !anyTemplate || !mixed && !exact:
		return c
	}
	rs := addMarkup(nil, first, 0)
	at := len(first.str())
	for _, p := range parts {
		rs = addMarkup(rs, p, at)
		at += len(p.str())
	}
	v := mixedStr(c.str(), rs)
	// its text is c's, in c's buffer: a later concatenation appends to it in place
	v.w |= uint64(c.strFlags()&flagAppendable) << flagsShift
	return v
}

// origins is what a tracked render's Writer keeps of where its output comes from.
// Every write of a tracked render goes through the Writer's methods, which keep the
// output in room's array.
type origins struct {
	// room is the Writer's buffer at its full capacity: the buffer's own capacity is
	// held at its length, so that every WriteString (an inlined append) calls grow,
	// which records the template text.
	room []byte
	// markup are the ranges of the output that are template text, in order.
	markup []ByteRange
}

// reserve makes room for the output buf, n bytes longer, up to limit: a new array
// when room's is full.
func (o *origins) reserve(buf []byte, n, limit int) {
	if len(buf)+n <= len(o.room) {
		return
	}
	nb := make([]byte, len(buf), min(max(2*len(o.room), len(buf)+n, 512), max(limit, len(buf)+n)))
	copy(nb, buf)
	o.room = nb[:cap(nb)]
}

// dataBuf returns the output to append data to (data costs no range): at its full
// capacity in a tracked render. setData takes it back.
func (w *Writer) dataBuf() []byte {
	if o := w.origins; o != nil {
		return o.room[:len(w.buf)]
	}
	return w.buf
}

// setData makes b, dataBuf's buffer with data appended, the output, and fails the
// render when it exceeds the output limit.
func (w *Writer) setData(b []byte) {
	if o := w.origins; o != nil {
		o.room = b[:cap(b)]
		b = b[:len(b):len(b)]
	}
	w.buf = b
	if len(b) > w.limits.MaxOutput {
		w.overflow()
	}
}

// AppendData writes the data appendTo appends to the bytes it is given, the output so
// far: for an engine's encoder that writes straight into the output (llama.cpp's tojson),
// as WriteJSON does.
func (w *Writer) AppendData(appendTo func([]byte) []byte) { w.setData(appendTo(w.dataBuf())) }

// WriteData writes s, text computed from values (a number's digits, a value's JSON):
// data in a tracked render.
func (w *Writer) WriteData(s string) {
	if w.origins == nil {
		if len(w.buf)+len(s) > cap(w.buf) {
			w.grow(len(s))
		}
		w.buf = append(w.buf, s...)
		return
	}
	w.setData(append(w.dataBuf(), s...))
}

// WriteText writes the text of the str v with its origin: template text where v is,
// data elsewhere. (The writing methods of this package write a str as it does, with
// WriteString inlined for a render that is not tracked.)
func (w *Writer) WriteText(v Value) {
	if w.origins != nil {
		w.writeTracked(v)
		return
	}
	w.WriteString(v.str())
}

// writeTracked is WriteText in a tracked render.
func (w *Writer) writeTracked(v Value) {
	s := v.str()
	at, need := len(w.buf), len(w.buf)+len(s)
	if need > w.limits.MaxOutput {
		w.overflow()
	}
	o := w.origins
	o.reserve(w.buf, len(s), w.limits.MaxOutput)
	copy(o.room[at:need], s)
	w.buf = o.room[:need:need]
	o.markup = addMarkup(o.markup, v, at)
}

// truncate removes the output after mark and returns the template text it had, its
// ranges relative to mark.
func (w *Writer) truncate(mark int) []ByteRange {
	o := w.origins
	if o == nil {
		w.buf = w.buf[:mark]
		return nil
	}
	w.buf = w.buf[:mark:mark]
	i := len(o.markup)
	for i > 0 && o.markup[i-1].End > mark {
		i--
	}
	var cut []ByteRange
	for _, r := range o.markup[i:] {
		cut = addRange(cut, max(r.Start, mark)-mark, r.End-mark)
	}
	if i < len(o.markup) && o.markup[i].Start < mark { // a range across mark keeps its start
		o.markup[i].End = mark
		i++
	}
	o.markup = o.markup[:i]
	return cut
}

// cutStr removes the output after mark and returns it as a str with its origin.
func (w *Writer) cutStr(mark int) Value {
	s := string(w.buf[mark:])
	markup := w.truncate(mark)
	if w.origins == nil {
		return Str(s)
	}
	return mixedStr(s, markup)
}

// SpliceMarkup returns the template-text ranges rs of a text after the text's bytes
// [at, at+del) are replaced by ins bytes, which are template text when markup says so
// (else data): a profile's edits of a rendered prompt (a removed BOS, an appended
// generation prompt, a cut) keep its origins exact.
func SpliceMarkup(rs []ByteRange, at, del, ins int, markup bool) []ByteRange {
	var out []ByteRange
	moved := ins - del
	for _, r := range rs {
		if r.End <= at { // before the edit
			out = addRange(out, r.Start, r.End)
			continue
		}
		if r.Start < at {
			out = addRange(out, r.Start, at)
		}
		if markup {
			out = addRange(out, at, at+ins)
			markup = false // once
		}
		if r.End > at+del {
			out = addRange(out, max(r.Start, at+del)+moved, r.End+moved)
		}
	}
	if markup {
		out = addRange(out, at, at+ins)
	}
	return out
}

// MarkupCovers reports whether the ranges rs cover the bytes [start, end).
func MarkupCovers(rs []ByteRange, start, end int) bool {
	for _, r := range rs {
		if r.Start <= start && end <= r.End {
			return true
		}
	}
	return false
}

// FromTemplate returns r, a str (or a list or tuple of strs) that an operation computed
// from the values ins alone, as template text when every one of them is a str of
// template text (else as it is): upper, replace, format, split and their kin keep
// template text.
func FromTemplate(r Value, ins ...Value) Value {
	for _, in := range ins {
		if in.origin() != originTemplate {
			return r
		}
	}
	return asTemplate(r)
}

// sameShape returns r, a str that a case change made of the str in, with in's origins
// where the change maps byte to byte (an ASCII in, as long as r).
func sameShape(r, in Value) Value {
	switch {
	case in.origin() != originMixed || r.kind() != KindString || len(r.str()) != len(in.str()) || !pystr.IsASCII(in.str()):
		return FromTemplate(r, in)
	case r.IsMarkup():
		return boxStr(KindString, flagMarkup, &boxedStr{s: r.str(), markup: in.boxed().markup})
	}
	return mixedStr(r.str(), in.boxed().markup)
}

// FromTemplateCall is FromTemplate of a method's result r: template text when its
// receiver and every argument are.
func FromTemplateCall(r, recv Value, args []Value, kwargs []Kwarg) Value {
	if recv.origin() != originTemplate {
		return r // the commonest case, decided at once
	}
	for _, kw := range kwargs {
		if kw.Value.origin() != originTemplate {
			return r
		}
	}
	return FromTemplate(r, args...)
}

// asTemplate returns the str r marked template text, or a list or tuple of r's items so
// marked (r itself is shared: it is not changed).
func asTemplate(r Value) Value {
	switch r.kind() {
	case KindString:
		if r.strFlags()&^(flagAppendable|flagPlainJSON) == 0 {
			r.w |= flagTemplate << flagsShift
		}
	case KindList, KindTuple:
		items := slices.Clone(r.list().items())
		for i, it := range items {
			items[i] = asTemplate(it)
		}
		return listValue(r.kind(), newListStorage(items))
	}
	return r
}

// joinOrigins is join's result, with origins: the str() of each item (a str keeps its
// origin, the text of another value is data) with sep (given or not) between them.
func joinOrigins(items []Value, sep Value) Value {
	switch {
	case !given(sep):
		sep = Str("")
	case sep.kind() != KindString:
		sep = Str(sep.String())
	}
	parts := make([]Value, 0, 2*len(items))
	for i, it := range items {
		if i > 0 {
			parts = append(parts, sep)
		}
		parts = append(parts, textValue(it))
	}
	return ConcatStrs(parts...)
}

// textValue returns the str v with its origin, or the str() of another value as data.
func textValue(v Value) Value {
	if v.kind() == KindString {
		return v
	}
	return Str(string(appendStr(nil, v)))
}

// percentOrigin is FromTemplate of a % operation: its operand b a tuple, a dict or one
// value.
func percentOrigin(r, format, b Value) Value {
	switch {
	case format.origin() != originTemplate:
		return r
	case b.kind() == KindTuple:
		return FromTemplate(r, b.list().items()...)
	case b.kind() == KindDict:
		return FromTemplate(r, b.dict().vals()...)
	}
	return FromTemplate(r, b)
}

// AppendRange appends to rs the range [start, end) of template text, at or after the
// end of rs's last range (nothing when start >= end): it extends a range it adjoins.
func AppendRange(rs []ByteRange, start, end int) []ByteRange { return addRange(rs, start, end) }

// markupSum is a + b of strs one of which is Markup (Markup.__add__: the other is
// escaped), with the origins of their bytes: an operand's escaped text has its origin
// when escaping left it as it was, or when it is all template text.
func markupSum(a, b Value) Value {
	sa, sb := escapeUnlessMarkup(a), escapeUnlessMarkup(b)
	s := sa + sb
	origin := func(v Value, escaped string) Value {
		switch {
		case v.origin() == originTemplate:
			return templateStr(escaped)
		case escaped == v.str():
			return v
		}
		return Str(escaped)
	}
	pa, pb := origin(a, sa), origin(b, sb)
	switch {
	case pa.origin() == originTemplate && pb.origin() == originTemplate:
		return makeStr(KindString, flagMarkup|flagTemplate, s)
	case pa.origin() == originData && pb.origin() == originData || tracking.Load() == 0:
		return Markup(s)
	}
	markup := addMarkup(addMarkup(nil, pa, 0), pb, len(sa))
	if len(markup) == 0 {
		return Markup(s)
	}
	return boxStr(KindString, flagMarkup, &boxedStr{s: s, markup: markup})
}
