package jinja2

import (
	"strconv"
	"sync"
	"time"
)

// Limits bound the work one render may do; exceeding one fails the render with a
// LimitError. The zero value of a field means its default.
type Limits struct {
	MaxOutput     int // bytes of output, including text captured by macros and set blocks (default 64 MiB)
	MaxIterations int // loop iterations and macro calls in all (default 10,000,000)
	MaxDepth      int // nested macro calls (default 500)
	MaxRange      int // items of one range() (default 100,000: MAX_RANGE of Jinja2's sandbox)
}

// Default limits.
const (
	DefaultMaxOutput     = 64 << 20
	DefaultMaxIterations = 10_000_000
	DefaultMaxDepth      = 500
	DefaultMaxRange      = 100_000
)

func (l Limits) withDefaults() Limits {
	if l.MaxOutput <= 0 {
		l.MaxOutput = DefaultMaxOutput
	}
	if l.MaxIterations <= 0 {
		l.MaxIterations = DefaultMaxIterations
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultMaxDepth
	}
	if l.MaxRange <= 0 {
		l.MaxRange = DefaultMaxRange
	}
	return l
}

// Writer is what generated code writes the prompt into. It appends to a byte buffer
// that can be reused across renders and enforces the limits. Generated code does not
// tell it where it is (a compiled template's Spans say that); an interpreter does, with
// At.
type Writer struct {
	buf        []byte
	limits     Limits
	vars       Variables // the render's variables
	now        time.Time // its clock (zero: the current time)
	iterations int
	depth      int
	line, col  int    // the position an interpreter gave At
	construct  string // and the statement there
	// nonStr is the type of the first value that is not a str a {% filter %} block
	// gave since the render or the innermost capture started (WriteFilterBlock), or "".
	nonStr string
	// origins, in a tracked render, are where its output comes from (origin.go): tracked.
	origins *origins
	tracked origins
	// tail is 1 + the length of the output where the template's generation prompt
	// starts, once generated code has marked it (MarkGenerationPrompt); 0 before.
	tail int
	// lists are the Lists of the first slices of lists the render takes (SliceIn),
	// from listsPool on its first (a Writer kept between renders keeps them: Run.Append),
	// and listsUsed how many of them are taken: a render's slices live no longer than the
	// render. They are not in the Writer itself, so that a slice holds no reference to it
	// (see Run.Start).
	lists     *[2]List
	listsUsed int
}

// listsPool recycles the Lists of renders' slices.
var listsPool = sync.Pool{New: func() any { return new([2]List) }}

// listStorage returns a List holding items: one of w.lists while the render has one
// left, else a new one (also for a nil w).
func (w *Writer) listStorage(items []Value) *List {
	if w == nil || w.listsUsed == len(w.lists) {
		return newListStorage(items)
	}
	if w.lists == nil {
		w.lists = listsPool.Get().(*[2]List)
	}
	l := &w.lists[w.listsUsed]
	w.listsUsed++
	l.setItems(items)
	return l
}

// reset makes w, a Writer kept between renders (pooled, or the caller's), zero but for
// its Lists of slices, which it keeps, cleared.
func (w *Writer) reset() {
	lists := w.lists
	*w = Writer{}
	if lists != nil {
		*lists = [2]List{}
		w.lists = lists
	}
}

// releaseLists gives the render's Lists of slices back to the pool, once the render is
// over.
func (w *Writer) releaseLists() {
	if w.lists != nil {
		*w.lists = [2]List{}
		listsPool.Put(w.lists)
		w.lists, w.listsUsed = nil, 0
	}
}

// NewWriter returns a writer that appends to buf (which may be nil).
func NewWriter(buf []byte, limits Limits) *Writer {
	w := &Writer{limits: limits.withDefaults()}
	w.setBuffer(buf)
	return w
}

// Bytes returns what has been written.
func (w *Writer) Bytes() []byte { return w.buf }

// At records the template line and column of the statement about to run, and what
// statement it is ("if", "for", "{{ }}"...), for the error of a render that fails in
// it: what an interpreter calls (generated code has a position table instead, see
// Span).
func (w *Writer) At(line, col int, construct string) {
	w.line, w.col, w.construct = line, col, construct
}

// MarkGenerationPrompt records that the template's generation prompt starts here:
// before its last statement, {% if add_generation_prompt %}, when nothing before it
// depends on add_generation_prompt, or at its end when nothing reads the name
// (ir.GenerationPrompt). Generated render functions call it, for package llamaserver
// (see Run.GenerationPrompt).
func (w *Writer) MarkGenerationPrompt() { w.tail = len(w.buf) + 1 }

// WriteString writes template text (only generated code calls it: see origin.go).
//
// Go inlines it at each of the thousands of places generated code writes text, so its
// body is what they all cost to compile and run: the test of room is written as
// append's own (unsigned), so that the compiler drops append's growth path, and the
// rare write that needs more room is one call (growWrite).
func (w *Writer) WriteString(s string) {
	if uint(len(w.buf)+len(s)) <= uint(cap(w.buf)) {
		w.buf = append(w.buf, s...)
	} else {
		w.growWrite(s)
	}
}

// Buffer returns the output written so far, for a run of writes that appends to it in
// a local variable and hands it back with SetBuffer: generated code writes
//
//	out := w.Buffer()
//	out = w.AppendString(out, "<|im_start|>")
//	out = jinja2.AppendStr(w, out, role)
//	w.SetBuffer(out)
//
// so that the writes of a run keep the buffer in registers where each WriteString
// loads it from the Writer and stores it back. Between the two, nothing else may
// write to w or capture its output (a macro, a set block): generated code ends a run
// before any call.
func (w *Writer) Buffer() []byte { return w.buf }

// SetBuffer ends a run of writes that Buffer began: out is the output.
func (w *Writer) SetBuffer(out []byte) { w.buf = out }

// Tracked reports whether the render records where its output comes from
// (Run.AppendTracked): a write in a run of writes then goes through the Writer.
func (w *Writer) Tracked() bool { return w.origins != nil }

// AppendString is WriteString in a run of writes (see Buffer): out with the text s.
func (w *Writer) AppendString(out []byte, s string) []byte {
	if uint(len(out)+len(s)) <= uint(cap(out)) {
		return append(out, s...)
	}
	return w.growAppend(out, s)
}

// growAppend is AppendString of text the buffer has no room for.
//
//go:noinline
func (w *Writer) growAppend(out []byte, s string) []byte {
	w.buf = out
	w.growWrite(s)
	return w.buf
}

// growWrite is WriteString of text the buffer has no room for.
//
//go:noinline
func (w *Writer) growWrite(s string) {
	w.grow(len(s))
	w.buf = append(w.buf, s...)
}

// grow makes room for n more bytes, or fails the render when they would exceed the
// output limit. The buffer's capacity never exceeds the limit (see setBuffer), so that
// WriteString need only compare with it.
//
//go:noinline
func (w *Writer) grow(n int) {
	need := len(w.buf) + n
	if need > w.limits.MaxOutput {
		w.overflow()
	}
	if o := w.origins; o != nil {
		o.markup = addRange(o.markup, len(w.buf), need)
		o.reserve(w.buf, n, w.limits.MaxOutput)
		w.buf = o.room[:len(w.buf):need]
		return
	}
	buf := make([]byte, len(w.buf), min(max(2*cap(w.buf), need, 512), w.limits.MaxOutput))
	copy(buf, w.buf)
	w.buf = buf
}

// setBuffer starts w writing after the contents of buf, with its capacity held to the
// output limit.
func (w *Writer) setBuffer(buf []byte) {
	w.buf = buf[:len(buf):max(len(buf), min(cap(buf), w.limits.MaxOutput))]
	if o := w.origins; o != nil {
		o.room, w.buf = w.buf[:cap(w.buf)], w.buf[:len(w.buf):len(w.buf)]
	}
}

// WriteFilterBlock writes what a {% filter %} block gives, which Jinja2 yields as it
// is: a str (or Markup) is written, and a value of another type fails the render, or
// the capture (a macro call, a set block) it is in, when that ends, as joining the
// output then does (after the rest has run: another error comes first).
func WriteFilterBlock(w *Writer, v Value) {
	if v.kind() != KindString {
		if w.nonStr == "" {
			w.nonStr = v.TypeName()
		}
		return
	}
	if w.origins == nil {
		w.WriteString(v.str())
	} else {
		w.writeTracked(v)
	}
}

// joinOutput fails as Python's "".join does when a {% filter %} block gave a value that
// is not a str (WriteFilterBlock).
func (w *Writer) joinOutput() {
	if w.nonStr != "" {
		throw(TypeError, "sequence item: expected str instance, %s found", w.nonStr)
	}
}

// Write writes a value as {{ value }} does: Python's str(value).
func (w *Writer) Write(v Value) {
	switch v.kind() {
	case KindString:
		if w.origins == nil {
			w.WriteString(v.str())
		} else {
			w.writeTracked(v)
		}
		return
	case KindUndefined:
		return
	case KindInt:
		if v.ptr == nil && w.origins == nil {
			w.buf = strconv.AppendInt(w.buf, v.num(), 10)
			return
		}
	}
	w.setData(appendStr(w.dataBuf(), v))
}

// overflow fails the render; it is kept out of line so that the writing methods that
// call it stay small enough for the compiler to inline.
//
//go:noinline
func (w *Writer) overflow() {
	throw(LimitError, "output exceeds the limit of %d bytes", w.limits.MaxOutput)
}

// Capture runs body, which writes into w, and returns what it wrote as a str, removing
// it from the output: the text of a set block, filter block or macro.
func (w *Writer) Capture(body func()) Value { return w.capture(body) }

func (w *Writer) capture(body func()) Value {
	w.charge(1)
	w.depth++
	if w.depth > w.limits.MaxDepth {
		throw(LimitError, "macro calls nest more than %d deep", w.limits.MaxDepth)
	}
	line, col, construct := w.line, w.col, w.construct
	mark, nonStr := len(w.buf), w.nonStr
	w.nonStr = ""
	body()
	w.joinOutput()
	w.nonStr = nonStr
	s := w.cutStr(mark)
	w.depth--
	w.line, w.col, w.construct = line, col, construct
	return s
}

// charge counts n loop iterations or macro calls against the budget (a macro that calls
// itself twice nests only as deep as its argument, but runs 2**n times).
func (w *Writer) charge(n int) {
	w.iterations += n
	if w.iterations > w.limits.MaxIterations {
		w.overIterations()
	}
}

// overIterations fails the render that ran out of iterations; it is kept out of line so
// that charge is inlined.
//
//go:noinline
func (w *Writer) overIterations() {
	throw(LimitError, "loops and macro calls ran more than %d iterations", w.limits.MaxIterations)
}

// Mark returns the current length of the output, to Cut the text written after it.
func (w *Writer) Mark() int { return len(w.buf) }

// Cut removes the output written since mark and returns it as a str: the text of a set
// block or filter block.
func (w *Writer) Cut(mark int) Value { return w.cutStr(mark) }

// Drop removes the output written since mark: the text of a set block or filter block
// that a break or continue leaves, which Jinja2 drops with the block.
func (w *Writer) Drop(mark int) { w.truncate(mark) }

// WriteAdd writes a + b + ... as {{ a + b + ... }} does, without building the sum when
// every operand is a plain str (otherwise it adds as Python does, raising its errors).
func (w *Writer) WriteAdd(operands ...Value) {
	for _, v := range operands {
		if v.kind() != KindString || v.strFlags()&flagMarkup != 0 {
			sum := operands[0]
			for _, x := range operands[1:] {
				sum = Add(sum, x)
			}
			w.Write(sum)
			return
		}
	}
	for _, v := range operands {
		if w.origins == nil {
			w.WriteString(v.str())
		} else {
			w.writeTracked(v)
		}
	}
}

// WriteStr writes an operand of a sum of strs ('...' + v + ...) as {{ }} does, where the
// sum cannot involve Markup: v must be a str, as Python's + requires.
func (w *Writer) WriteStr(v Value) {
	switch v.kind() {
	case KindString:
		if w.origins == nil {
			w.WriteString(v.str())
		} else {
			w.writeTracked(v)
		}
	case KindUndefined:
		v.undefinedError()
	default:
		throw(TypeError, "can only concatenate str (not \"%s\") to str", v.TypeName())
	}
}

// AppendStr is WriteStr in a run of writes (see Writer.Buffer): out with the str v,
// which Python's + requires.
func AppendStr(w *Writer, out []byte, v Value) []byte {
	if v.kind() == KindString && w.origins == nil {
		return w.AppendString(out, v.str())
	}
	w.buf = out
	w.WriteStr(v)
	return w.buf
}

// Append is Write in a run of writes (see Writer.Buffer): out with the str() of v.
func Append(w *Writer, out []byte, v Value) []byte {
	if v.kind() == KindString && w.origins == nil {
		return w.AppendString(out, v.str())
	}
	w.buf = out
	w.Write(v)
	return w.buf
}

// Write, WriteStr, WriteAdd and WriteJSON are w.Write, w.WriteStr, w.WriteAdd and
// w.WriteJSON in the form generated code calls them: a template's llama.cpp render
// function calls package llamacpp's functions of the same names at the same places.

// Write is w.Write(v).
func Write(w *Writer, v Value) { w.Write(v) }

// WriteStr is w.WriteStr(v).
func WriteStr(w *Writer, v Value) { w.WriteStr(v) }

// WriteAdd is w.WriteAdd(operands...).
func WriteAdd(w *Writer, operands ...Value) { w.WriteAdd(operands...) }

// WriteJSON is w.WriteJSON(v, args, kwargs).
func WriteJSON(w *Writer, v Value, args []Value, kwargs []Kwarg) { w.WriteJSON(v, args, kwargs) }
