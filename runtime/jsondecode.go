package runtime

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// MaxJSONSize is the largest JSON text ParseJSON decodes, in bytes (the limit of a GGUF
// string too).
const MaxJSONSize = 64 << 20

// maxIntDigits is the most digits Python converts a string of into an int
// (sys.int_info.default_max_str_digits); json.loads refuses a longer integer.
const maxIntDigits = 4300

// ParseJSON decodes JSON into a Value as Python's json.loads does: objects become dicts
// that keep the order of their keys (of duplicate keys the last value wins, at the
// place of the first), integers stay ints of any size (up to 4300 digits, Python's
// limit), numbers with a fraction or exponent become floats (1e400 is inf), and NaN,
// Infinity and -Infinity are accepted. Unlike Python, a lone surrogate escape (\ud800)
// and invalid UTF-8 in a string become U+FFFD, as encoding/json makes them.
//
// The input may be at most MaxJSONSize bytes and nest at most MaxNesting containers
// deep; decoding takes at most about 40 bytes of memory per byte of input (for a list of
// empty dicts), and the strs of the value share one copy of data. An error is a
// *JSONError.
func ParseJSON(data []byte) (Value, error) {
	v, err := decodeJSON(data, MaxJSONSize)
	if err != nil {
		return Value{}, err
	}
	return v, nil
}

// JSONError is what ParseJSON reports on input it cannot decode: a syntax error, or a
// limit exceeded.
type JSONError struct {
	// File names the input at the start of the message; ParseJSON leaves it empty, for
	// a caller that knows the file to set.
	File string
	// Offset is the position of the error in the input, in bytes from 0; Line and
	// Column are the same position from 1, the column counted in characters (as Python
	// counts them, lines end at "\n").
	Offset, Line, Column int
	// Path is where in the JSON value the error is, as messages[3].content or
	// tools[0]["my key"]; "" at the top level.
	Path string
	// Msg says what is wrong.
	Msg string
}

// Error returns "file: msg at line L, column C (path)", without the file and the path
// when they are empty.
func (e *JSONError) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteString(": ")
	}
	fmt.Fprintf(&b, "%s at line %d, column %d", e.Msg, e.Line, e.Column)
	if e.Path != "" {
		b.WriteString(" (")
		b.WriteString(e.Path)
		b.WriteString(")")
	}
	return b.String()
}

// decodeJSON is ParseJSON for input of at most limit bytes.
// ParseJSONLimit is ParseJSON for a text of at most limit bytes instead of MaxJSONSize
// (a model's tokenizer_config.json may be larger than any request).
func ParseJSONLimit(data []byte, limit int) (Value, error) {
	v, err := decodeJSON(data, limit)
	if err != nil {
		return Value{}, err
	}
	return v, nil
}

func decodeJSON(data []byte, limit int) (Value, *JSONError) {
	if len(data) > limit {
		e := &JSONError{Offset: limit, Msg: fmt.Sprintf("the JSON text of %d bytes exceeds the limit of %d bytes", len(data), limit)}
		e.locate(data)
		return Value{}, e
	}
	d := decoders.Get().(*decoder)
	defer d.release()
	d.buf = make([]byte, len(data))
	copy(d.buf, data)
	v := d.value()
	if d.err == nil {
		d.skipSpace()
		if d.pos < len(d.buf) {
			d.syntaxError(d.pos, "after top-level value")
		}
	}
	if e := d.err; e != nil {
		e.locate(data)
		e.Path = d.pathString()
		return Value{}, e
	}
	return v, nil
}

// A decoder decodes one JSON text in a single pass, with few allocations:
//   - It works on its own copy of the input, and the strs it returns are slices of
//     that copy. A str with escapes is decoded in place, over its own text, which is
//     never shorter (except where invalid bytes, each replaced with U+FFFD, make it
//     longer: such a str is allocated on its own).
//   - The items of each container are gathered on stacks shared by all levels, so that
//     the container's storage is taken once, at its exact size, from chunks of cells
//     (see take), which also hold the List and Dict structs.
type decoder struct {
	buf   []byte
	pos   int
	depth int        // containers open at pos
	items valueStack // the items of the open lists and the values of the open dicts
	keys  valueStack // the keys of the open dicts
	esc   []byte     // where a str with escapes is decoded before it is copied back
	cells []Value    // the rest of the last chunk of cells
	taken int        // cells taken so far
	err   *JSONError // the first error; then every level returns at once
	path  []pathStep // where the error is, innermost step first
}

// A pathStep is a key of a dict or an index in a list.
type pathStep struct {
	key   string
	index int // -1 for a key
}

// decoders keeps decoders' stacks and buffers for reuse.
var decoders = sync.Pool{New: func() any { return new(decoder) }}

// Sizes of what a decoder keeps for the next decode.
const (
	maxPooledStack = 4 << 10
	maxPooledEsc   = 64 << 10
)

// release drops what the decoded value holds and returns d to the pool.
func (d *decoder) release() {
	d.items.reset()
	d.keys.reset()
	if cap(d.esc) > maxPooledEsc {
		d.esc = nil
	}
	clear(d.path)
	d.buf, d.pos, d.depth, d.cells, d.taken, d.err, d.path = nil, 0, 0, nil, 0, nil, d.path[:0]
	decoders.Put(d)
}

// A valueStack gathers the items of open containers. The items it pops stay in its
// storage until reset, which clears them all at once.
type valueStack struct {
	s    []Value
	peak int // the most items it held since reset
}

// push adds v on top.
func (st *valueStack) push(v Value) { st.s = append(st.s, v) }

// pop removes the items from base up and returns them, valid until the next push.
func (st *valueStack) pop(base int) []Value {
	items := st.s[base:]
	st.peak = max(st.peak, len(st.s))
	st.s = st.s[:base]
	return items
}

// reset empties the stack and clears what it held; its storage is dropped when large.
func (st *valueStack) reset() {
	clear(st.s[:max(st.peak, len(st.s))])
	st.s, st.peak = st.s[:0], 0
	if cap(st.s) > maxPooledStack {
		st.s = nil
	}
}

// Chunks of cells are sized for what the input is likely to need: chat requests take a
// cell for every 5 to 12 bytes. A container takes its cells when it closes, after its
// items, so the outer containers of a nested text come last, when few bytes are left: a
// chunk holds what the whole text is likely to need less what was taken, or what the rest
// of it is likely to need if that is more, and a few cells to spare.
const (
	bytesPerCell  = 5
	spareCells    = 4
	maxChunkCells = 64 << 10
)

// take returns n new cells, capped at n so that appending to them reallocates. A
// request for more than half a chunk is allocated on its own.
func (d *decoder) take(n int) []Value {
	if n > len(d.cells) {
		need := max(len(d.buf)/bytesPerCell-d.taken, (len(d.buf)-d.pos)/bytesPerCell)
		size := min(need+spareCells, maxChunkCells)
		if n > size/2 {
			d.taken += n
			return make([]Value, n)
		}
		d.cells = make([]Value, size)
	}
	d.taken += n
	cells := d.cells[:n:n]
	d.cells = d.cells[n:]
	return cells
}

// A List takes two cells and a Dict three. The words of a Value are a pointer and two
// scalars, and the pointers of a List (of its items and name) and of a Dict (of its keys,
// values and index) fall on the cells' pointer words, so that the memory holds what the
// garbage collector takes it for. Each index below is 0 exactly when the layout this
// needs holds: a change of the types that breaks it fails to compile.
const (
	listCells = 2
	dictCells = 3
	wordSize  = unsafe.Sizeof(uintptr(0))
	cell      = unsafe.Sizeof(Value{})
)

var (
	_ = [1]int{}[cell-3*wordSize]                      // a Value is three words,
	_ = [1]int{}[unsafe.Offsetof(Value{}.ptr)]         // its pointer first;
	_ = [1]int{}[unsafe.Sizeof(List{})-5*wordSize]     // a List is a slice and a string,
	_ = [1]int{}[unsafe.Offsetof(List{}.name)-cell]    // the string on the second cell;
	_ = [1]int{}[unsafe.Sizeof(Dict{})-7*wordSize]     // a Dict is two slices and a map,
	_ = [1]int{}[unsafe.Offsetof(Dict{}.vals)-cell]    // the second slice on the second cell,
	_ = [1]int{}[unsafe.Offsetof(Dict{}.index)-2*cell] // the map on the third.
)

// newList returns a list of items, copied into new storage.
func (d *decoder) newList(items []Value) Value {
	cells := d.take(listCells + len(items))
	l := (*List)(unsafe.Pointer(&cells[0]))
	l.Items = cells[listCells:]
	copy(l.Items, items)
	return listValue(KindList, l)
}

// newDict returns an empty dict with room for n entries.
func (d *decoder) newDict(n int) *Dict {
	cells := d.take(dictCells + 2*n)
	dict := (*Dict)(unsafe.Pointer(&cells[0]))
	kv := cells[dictCells:]
	dict.keys, dict.vals = kv[:0:n], kv[n:n]
	return dict
}

// fail records an error at offset off, unless there is one already. (Errors are rare:
// their formatting stays out of the callers' code.)
//
//go:noinline
func (d *decoder) fail(off int, format string, args ...any) {
	if d.err == nil {
		d.err = &JSONError{Offset: off, Msg: fmt.Sprintf(format, args...)}
	}
}

// syntaxError records that the input ends at off, or that the character there cannot be
// there: where says where it is ("after array element").
//
//go:noinline
func (d *decoder) syntaxError(off int, where string) {
	if off >= len(d.buf) {
		d.fail(len(d.buf), "unexpected end of JSON input")
		return
	}
	r, size := utf8.DecodeRune(d.buf[off:])
	if r == utf8.RuneError && size == 1 {
		d.fail(off, "invalid byte 0x%02x %s", d.buf[off], where)
		return
	}
	d.fail(off, "invalid character %s %s", strconv.QuoteRune(r), where)
}

// locate sets the line and column of e.Offset in data.
func (e *JSONError) locate(data []byte) {
	before := data[:e.Offset]
	e.Line = bytes.Count(before, []byte{'\n'}) + 1
	e.Column = utf8.RuneCount(before[bytes.LastIndexByte(before, '\n')+1:]) + 1
}

// pathString writes d.path outermost step first: messages[3].content.
func (d *decoder) pathString() string {
	var b strings.Builder
	for i := len(d.path) - 1; i >= 0; i-- {
		switch st := d.path[i]; {
		case st.index >= 0:
			fmt.Fprintf(&b, "[%d]", st.index)
		case isIdentifier(st.key):
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(st.key)
		default:
			fmt.Fprintf(&b, "[%s]", strconv.Quote(st.key))
		}
	}
	return b.String()
}

// skipSpace moves past JSON whitespace: space, tab, newline and carriage return.
func (d *decoder) skipSpace() {
	for d.pos < len(d.buf) && isJSONSpace(d.buf[d.pos]) {
		d.pos++
	}
}

// isJSONSpace reports whether c is JSON whitespace. Every byte that can start or end a
// token is above the space: one comparison tells it in compact JSON.
func isJSONSpace(c byte) bool {
	return c <= ' ' && (c == ' ' || c == '\t' || c == '\n' || c == '\r')
}

// value decodes the value at d.pos, after any whitespace.
func (d *decoder) value() Value {
	d.skipSpace()
	if d.pos < len(d.buf) {
		switch d.buf[d.pos] {
		case '"':
			return internStr(d.str())
		case '{':
			return d.object()
		case '[':
			return d.array()
		case 't':
			return d.literal("true", Bool(true))
		case 'f':
			return d.literal("false", Bool(false))
		case 'n':
			return d.literal("null", None())
		case 'N':
			return d.literal("NaN", Float(math.NaN()))
		case 'I':
			return d.literal("Infinity", Float(math.Inf(1)))
		case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			return d.number()
		}
	}
	d.syntaxError(d.pos, "looking for beginning of value")
	return Value{}
}

// literal decodes the word at d.pos, which must be word, as v.
func (d *decoder) literal(word string, v Value) Value {
	for i := 0; i < len(word); i++ {
		if d.pos >= len(d.buf) || d.buf[d.pos] != word[i] {
			d.syntaxError(d.pos, "in literal "+word)
			return Value{}
		}
		d.pos++
	}
	return v
}

// open enters the container whose bracket is at d.pos and reports whether items follow:
// false when its closing bracket is next (and passed), or when it nests too deep.
func (d *decoder) open(closing byte) bool {
	if d.depth++; d.depth > MaxNesting {
		d.fail(d.pos, "nests more than the limit of %d levels", MaxNesting)
		return false
	}
	d.pos++
	d.skipSpace()
	if d.pos < len(d.buf) && d.buf[d.pos] == closing {
		d.pos++
		return false
	}
	return true
}

// next moves past the comma or the closing bracket after a container's item and
// returns it, or 0 on an error (where says where, for its message).
func (d *decoder) next(closing byte, where string) byte {
	d.skipSpace()
	if d.pos < len(d.buf) {
		if c := d.buf[d.pos]; c == ',' || c == closing {
			d.pos++
			return c
		}
	}
	d.syntaxError(d.pos, where)
	return 0
}

// array decodes the list at d.pos.
func (d *decoder) array() Value {
	base := len(d.items.s)
	if d.open(']') {
		for c, n := byte(','), 0; c == ','; c, n = d.next(']', "after array element"), n+1 {
			v := d.value()
			if d.err != nil {
				d.path = append(d.path, pathStep{index: n})
				return Value{}
			}
			d.items.push(v)
		}
	}
	if d.err != nil {
		return Value{}
	}
	d.depth--
	return d.newList(d.items.pop(base))
}

// object decodes the dict at d.pos.
func (d *decoder) object() Value {
	base := len(d.keys.s)
	if d.open('}') {
		for c := byte(','); c == ','; c = d.next('}', "after object key:value pair") {
			key := d.key()
			if d.err != nil {
				return Value{}
			}
			v := d.value()
			if d.err != nil {
				d.path = append(d.path, pathStep{key: key, index: -1})
				return Value{}
			}
			d.keys.push(internStr(key))
			d.items.push(v)
		}
	}
	if d.err != nil {
		return Value{}
	}
	d.depth--
	keys := d.keys.pop(base)
	vals := d.items.pop(len(d.items.s) - len(keys))
	dict := d.newDict(len(keys))
	if len(keys) < indexThreshold && distinctStrs(keys) {
		dict.keys = append(dict.keys, keys...)
		dict.vals = append(dict.vals, vals...)
	} else {
		// Set keeps the first place and the last value of a key given twice, as
		// Python does, and builds the index of a large dict.
		for i := range keys {
			dict.Set(keys[i], vals[i])
		}
	}
	return DictValue(dict)
}

// distinctStrs reports whether no two of keys, which are strs, are equal.
func distinctStrs(keys []Value) bool {
	for i := 1; i < len(keys); i++ {
		for j := range i {
			if keys[i].n == keys[j].n && keys[i].str() == keys[j].str() {
				return false
			}
		}
	}
	return true
}

// key decodes an object's key and the colon after it.
func (d *decoder) key() string {
	d.skipSpace()
	if d.pos >= len(d.buf) || d.buf[d.pos] != '"' {
		d.syntaxError(d.pos, "looking for beginning of object key string")
		return ""
	}
	key := d.str()
	if d.err != nil {
		return ""
	}
	d.skipSpace()
	if d.pos >= len(d.buf) || d.buf[d.pos] != ':' {
		d.syntaxError(d.pos, "after object key")
		return ""
	}
	d.pos++
	return key
}

// str decodes the str whose opening quote is at d.pos. Most strs are plain ASCII text,
// found eight bytes at a time (jsonSpecialMask): they are the input's bytes as they are.
// The others, and the last bytes of the input, are decodeStr's.
func (d *decoder) str() string {
	b, start := d.buf, d.pos+1
	i := start
	for i+8 <= len(b) {
		if m := jsonSpecialMask(binary.LittleEndian.Uint64(b[i:])); m != 0 {
			i += bits.TrailingZeros64(m) / 8
			if b[i] == '"' {
				d.pos = i + 1
				return unsafe.String(&b[start], i-start)
			}
			return d.decodeStr(start, i)
		}
		i += 8
	}
	return d.decodeStr(start, jsonPlainEnd(b, i, true))
}

// view returns b as a string for a call that does not keep it: the bytes of b must not
// change while the string is in use.
func view(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// decodeStr decodes the rest of the str that starts at start, whose bytes before i are
// plain ASCII text: a str with other characters, escapes or bytes that are not UTF-8
// (each becomes U+FFFD), or one in the last bytes of the input. It decodes into d.esc,
// then over the str's own text, which is never shorter unless invalid bytes make it
// longer: such a str is allocated on its own.
func (d *decoder) decodeStr(start, i int) string {
	b := d.buf
	out := append(d.esc[:0], b[start:i]...)
	for i < len(b) {
		c := b[i]
		switch {
		case c == '"':
			d.pos = i + 1
			d.esc = out
			if len(out) > i-start {
				return string(out)
			}
			return unsafe.String(&b[start], copy(b[start:], out))
		case c == '\\':
			if out, i = d.escape(out, i+1); d.err != nil {
				return ""
			}
		case c < ' ':
			d.syntaxError(i, "in string literal")
			return ""
		case c < utf8.RuneSelf: // DEL, or plain text up to the next special byte
			n := max(jsonPlainEnd(b, i, true), i+1)
			out = append(out, b[i:n]...)
			i = n
		default:
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size == 1 {
				out = utf8.AppendRune(out, r)
			} else {
				out = append(out, b[i:i+size]...)
			}
			i += size
		}
	}
	d.syntaxError(i, "in string literal")
	return ""
}

// escape appends the character of the escape whose backslash is before i and returns
// the position after it. A \u escape of a surrogate half that is not followed by the
// other half gives U+FFFD.
func (d *decoder) escape(out []byte, i int) ([]byte, int) {
	b := d.buf
	if i >= len(b) {
		d.syntaxError(i, "in string escape code")
		return out, i
	}
	switch c := b[i]; c {
	case '"', '\\', '/':
		return append(out, c), i + 1
	case 'b':
		return append(out, '\b'), i + 1
	case 'f':
		return append(out, '\f'), i + 1
	case 'n':
		return append(out, '\n'), i + 1
	case 'r':
		return append(out, '\r'), i + 1
	case 't':
		return append(out, '\t'), i + 1
	case 'u':
		r := d.hex4(i + 1)
		i += 5
		if d.err == nil && utf16.IsSurrogate(r) {
			// the first half of a pair takes the second with it; any other half is
			// left alone
			half := r
			r = utf8.RuneError
			if i+1 < len(b) && b[i] == '\\' && b[i+1] == 'u' {
				if pair := utf16.DecodeRune(half, d.hex4(i+2)); d.err == nil && pair != utf8.RuneError {
					r = pair
					i += 6
				}
			}
		}
		return utf8.AppendRune(out, r), i
	}
	d.syntaxError(i, "in string escape code")
	return out, i
}

// hex4 decodes the four hexadecimal digits at i.
func (d *decoder) hex4(i int) rune {
	if i+4 > len(d.buf) {
		d.syntaxError(len(d.buf), "")
		return 0
	}
	var r rune
	for j, c := range d.buf[i : i+4] {
		v := hexDigits[c]
		if v > 0xf {
			d.syntaxError(i+j, "in \\u hexadecimal character escape")
			return 0
		}
		r = r<<4 | rune(v)
	}
	return r
}

// hexDigits holds the value of each hexadecimal digit, and 0xff for other bytes.
var hexDigits = func() (t [256]byte) {
	for c := range t {
		switch {
		case '0' <= c && c <= '9':
			t[c] = byte(c - '0')
		case 'a' <= c && c <= 'f':
			t[c] = byte(c - 'a' + 10)
		case 'A' <= c && c <= 'F':
			t[c] = byte(c - 'A' + 10)
		default:
			t[c] = 0xff
		}
	}
	return t
}()

// number decodes the number at d.pos, or -Infinity: an int when it has neither fraction
// nor exponent, else a float.
func (d *decoder) number() Value {
	b := d.buf
	start := d.pos
	i := start
	if b[i] == '-' {
		i++
		if i < len(b) && b[i] == 'I' {
			d.pos = i
			return d.literal("Infinity", Float(math.Inf(-1)))
		}
	}
	// the integer part, and its value while it has at most 18 digits
	var n int64
	digits := i
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		for ; i < len(b) && isDigit(b[i]); i++ {
			n = n*10 + int64(b[i]-'0')
		}
	default:
		d.syntaxError(i, "in numeric literal")
		return Value{}
	}
	digits = i - digits
	isFloat := false
	if i < len(b) && b[i] == '.' {
		isFloat = true
		if i = d.digits(i+1, "after decimal point in numeric literal"); d.err != nil {
			return Value{}
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		isFloat = true
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i = d.digits(i, "in exponent of numeric literal"); d.err != nil {
			return Value{}
		}
	}
	d.pos = i
	switch {
	case isFloat:
		// The grammar is checked: the only error left is a range error, for which
		// ParseFloat returns ±Inf or 0, as Python's float() does.
		f, _ := strconv.ParseFloat(view(b[start:i]), 64)
		return Float(f)
	case digits <= 18:
		if b[start] == '-' {
			n = -n
		}
		return Int(n)
	case digits > maxIntDigits:
		d.fail(start, "Exceeds the limit (%d digits) for integer string conversion: value has %d digits", maxIntDigits, digits)
		return Value{}
	}
	text := view(b[start:i])
	if n, err := strconv.ParseInt(text, 10, 64); err == nil {
		return Int(n)
	}
	big, _ := new(big.Int).SetString(text, 10)
	return BigInt(big)
}

// digits moves past the one or more digits at i (where says where for an error) and
// returns the position after them.
func (d *decoder) digits(i int, where string) int {
	b := d.buf
	if i >= len(b) || !isDigit(b[i]) {
		d.syntaxError(i, where)
		return i
	}
	for i < len(b) && isDigit(b[i]) {
		i++
	}
	return i
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
