package jinja2

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
// Infinity and -Infinity are accepted. Text that is not UTF-8 is refused, as Python
// refuses to decode the bytes, and so is a lone surrogate escape (\ud800), which Python
// keeps in its str but no UTF-8 text can hold: the servers' own parsers refuse both
// (llama-server's nlohmann::json; vLLM's json.loads of the body's bytes), where
// encoding/json makes them U+FFFD.
//
// The input may be at most MaxJSONSize bytes and nest at most MaxNesting containers
// deep; the decoded value takes at most about 24 bytes of memory per byte of input (for
// a list of empty dicts), and the strs of the value share one copy of data. An error is
// a *JSONError.
func ParseJSON(data []byte) (Value, error) {
	v, err := decodeJSON(view(data), MaxJSONSize)
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

// ParseJSONLimit is ParseJSON for a text of at most limit bytes instead of MaxJSONSize
// (a model's tokenizer_config.json may be larger than any request).
func ParseJSONLimit(data []byte, limit int) (Value, error) {
	v, err := decodeJSON(view(data), limit)
	if err != nil {
		return Value{}, err
	}
	return v, nil
}

// decodeJSON is ParseJSON for input of at most limit bytes.
func decodeJSON(data string, limit int) (Value, *JSONError) {
	v, _, err := decodeJSONFacts(data, limit, nil)
	return v, err
}

// JSONFacts are what a JSON text ParseJSONFacts decodes holds that not every JSON
// parser reads as Python's json.loads does.
type JSONFacts struct {
	// BigInts: an int beyond int64.
	BigInts bool
	// NonFinite: NaN, Infinity or -Infinity, or a number with a fraction or exponent
	// beyond a float's range (1e400, inf), which json.loads reads and C++'s
	// nlohmann::json refuses.
	NonFinite bool
}

// ParseJSONFacts is ParseJSON, and says what the text holds that other parsers read
// otherwise.
func ParseJSONFacts(data []byte) (v Value, facts JSONFacts, err error) {
	v, facts, jerr := decodeJSONFacts(view(data), MaxJSONSize, nil)
	if jerr != nil {
		return Value{}, JSONFacts{}, jerr
	}
	return v, facts, nil
}

// ParseJSONFacts decodes the JSON text s as the function ParseJSONFacts does, its lists
// and dicts made in a (the strs share one copy of s).
func (a *Arena) ParseJSONFacts(s string) (v Value, facts JSONFacts, err error) {
	v, facts, jerr := decodeJSONFacts(s, MaxJSONSize, &a.cells)
	if jerr != nil {
		return Value{}, JSONFacts{}, jerr
	}
	return v, facts, nil
}

// decodeJSONFacts is decodeJSON, and says what the text holds that other parsers read
// otherwise. Its lists and dicts are made in cells, when not nil, else in chunks of
// its own. (data is only read, and may be a view of the caller's bytes.)
func decodeJSONFacts(data string, limit int, cells *cellChunks) (Value, JSONFacts, *JSONError) {
	if len(data) > limit {
		e := &JSONError{Offset: limit, Msg: fmt.Sprintf("the JSON text of %d bytes exceeds the limit of %d bytes", len(data), limit)}
		e.locate(data)
		return Value{}, JSONFacts{}, e
	}
	d := decoders.Get().(*decoder)
	defer d.release()
	d.buf = make([]byte, len(data), len(data)+strPadding)
	copy(d.buf, data)
	if cells != nil {
		d.cells = *cells
	}
	d.cells.bound = d.cells.taken + cellBound(d.buf)
	v, i := d.value(skipSpace(d.buf, 0))
	if d.err == nil {
		if i = skipSpace(d.buf, i); i < len(d.buf) {
			d.syntaxError(i, "after top-level value")
		}
	}
	if cells != nil {
		*cells = d.cells
	}
	if e := d.err; e != nil {
		e.locate(data)
		e.Path = d.pathString()
		return Value{}, JSONFacts{}, e
	}
	return v, d.facts, nil
}

// A decoder decodes one JSON text in a single pass, with few allocations:
//   - It works on its own copy of the input, and the strs it returns are slices of
//     that copy. A str with escapes is decoded in place, over its own text, which is
//     never shorter.
//   - The items of each container are gathered on stacks shared by all levels, so that
//     the container's storage is taken once, at its exact size, from chunks of cells
//     (cellChunks), which also hold the List and Dict structs: sized by cellBound, a
//     request takes one chunk.
type decoder struct {
	buf   []byte
	depth int        // containers open where the decoder is
	items valueStack // the items of the open lists, and the keys and values of the open dicts
	cells cellChunks // where the containers are stored (bound: cellBound of the input)
	err   *JSONError // the first error; then every level returns at once
	// facts are what the decoded text holds that other parsers read otherwise
	facts JSONFacts
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
)

// release drops what the decoded value holds and returns d to the pool.
func (d *decoder) release() {
	d.items.reset()
	clear(d.path)
	d.buf, d.depth, d.cells, d.err, d.path, d.facts = nil, 0, cellChunks{}, nil, d.path[:0], JSONFacts{}
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

// push2 adds v and w on top.
func (st *valueStack) push2(v, w Value) { st.s = append(st.s, v, w) }

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

// cellBound returns at least as many cells as the containers of a JSON text b take
// (listCells and dictCells of each, one for each item of a list, two for each entry of
// a dict), counting its brackets, colons and commas. A dict of n > 0 entries has n colons
// and n-1 commas, a list of n > 0 items n-1 commas, so each container takes at most
// listCells+1 or dictCells+1 cells more than its bracket, colons and commas count
// (counted in strs too, which only makes the bound larger).
func cellBound(b []byte) int {
	return (dictCells+1)*bytes.Count(b, []byte{'{'}) + (listCells+1)*bytes.Count(b, []byte{'['}) +
		bytes.Count(b, []byte{':'}) + bytes.Count(b, []byte{','})
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
func (e *JSONError) locate(data string) {
	before := data[:e.Offset]
	e.Line = strings.Count(before, "\n") + 1
	e.Column = utf8.RuneCountInString(before[strings.LastIndexByte(before, '\n')+1:]) + 1
}

// A path names at most pathEnds steps at each end, and at most pathKeyBytes bytes of a
// key: an error in JSON nested a thousand deep, or under a key of a megabyte, says where
// in a line.
const (
	pathEnds     = 4
	pathKeyBytes = 40
)

// pathString writes d.path outermost step first: messages[3].content. A deeper path
// keeps its pathEnds outermost and innermost steps around "[…N steps…]", and a long key
// its first pathKeyBytes bytes and "…".
func (d *decoder) pathString() string {
	var b strings.Builder
	n := len(d.path)
	for i := n - 1; i >= 0; i-- {
		if n > 2*pathEnds+1 && i == n-1-pathEnds {
			fmt.Fprintf(&b, "[…%d steps…]", n-2*pathEnds)
			i = pathEnds - 1
		}
		switch st := d.path[i]; {
		case st.index >= 0:
			fmt.Fprintf(&b, "[%d]", st.index)
		case isIdentifier(st.key) && len(st.key) <= pathKeyBytes:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(st.key)
		default:
			key := st.key
			if len(key) > pathKeyBytes {
				cut := pathKeyBytes
				for cut > 0 && !utf8.RuneStart(key[cut]) {
					cut--
				}
				key = key[:cut] + "…"
			}
			fmt.Fprintf(&b, "[%s]", strconv.Quote(key))
		}
	}
	return b.String()
}

// skipSpace returns the position of the first byte at or after i that is not JSON
// whitespace (space, tab, newline, carriage return). Every byte that can start or end a
// token is above the space: one comparison passes it in compact JSON.
func skipSpace(b []byte, i int) int {
	for i < len(b) && b[i] <= ' ' && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// value decodes the value that starts at i (whitespace before it passed) and returns it
// and the position after it. On an error it records it in d.err, and what it returns
// does not count.
func (d *decoder) value(i int) (Value, int) {
	b := d.buf
	if i < len(b) {
		switch b[i] {
		case '"':
			return d.str(i)
		case '{':
			return d.object(i)
		case '[':
			return d.array(i)
		case 't':
			return d.literal(i, "true", Bool(true))
		case 'f':
			return d.literal(i, "false", Bool(false))
		case 'n':
			return d.literal(i, "null", None())
		case 'N':
			d.facts.NonFinite = true
			return d.literal(i, "NaN", Float(math.NaN()))
		case 'I':
			d.facts.NonFinite = true
			return d.literal(i, "Infinity", Float(math.Inf(1)))
		case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			return d.number(i)
		}
	}
	d.syntaxError(i, "looking for beginning of value")
	return Value{}, i
}

// literal decodes the word at i, which must be word, as v.
func (d *decoder) literal(i int, word string, v Value) (Value, int) {
	b := d.buf
	if len(b)-i >= len(word) && view(b[i:i+len(word)]) == word {
		return v, i + len(word)
	}
	for j := 0; i < len(b) && b[i] == word[j]; j++ {
		i++
	}
	d.syntaxError(i, "in literal "+word)
	return Value{}, i
}

// enter counts a container opened at i, and reports whether it nests too deep.
func (d *decoder) enter(i int) bool {
	if d.depth++; d.depth > MaxNesting {
		d.fail(i, "nests more than the limit of %d levels", MaxNesting)
		return false
	}
	return true
}

// array decodes the list whose bracket is at i.
func (d *decoder) array(i int) (Value, int) {
	if !d.enter(i) {
		return Value{}, i
	}
	b := d.buf
	base := len(d.items.s)
	if i = skipSpace(b, i+1); i < len(b) && b[i] == ']' {
		i++
	} else {
		for n := 0; ; n++ {
			v, j := d.value(i)
			if d.err != nil {
				d.path = append(d.path, pathStep{index: n})
				return Value{}, j
			}
			d.items.push(v)
			if i = skipSpace(b, j); i < len(b) && b[i] == ',' {
				i = skipSpace(b, i+1)
				continue
			}
			if i < len(b) && b[i] == ']' {
				i++
				break
			}
			d.syntaxError(i, "after array element")
			return Value{}, i
		}
	}
	d.depth--
	return d.cells.newList(d.items.pop(base)), i
}

// object decodes the dict whose brace is at i.
func (d *decoder) object(i int) (Value, int) {
	if !d.enter(i) {
		return Value{}, i
	}
	b := d.buf
	base := len(d.items.s)
	if i = skipSpace(b, i+1); i < len(b) && b[i] == '}' {
		i++
	} else {
		for {
			if i >= len(b) || b[i] != '"' {
				d.syntaxError(i, "looking for beginning of object key string")
				return Value{}, i
			}
			key, j := d.str(i)
			if d.err != nil {
				return Value{}, j
			}
			if i = skipSpace(b, j); i >= len(b) || b[i] != ':' {
				d.syntaxError(i, "after object key")
				return Value{}, i
			}
			v, j := d.value(skipSpace(b, i+1))
			if d.err != nil {
				d.path = append(d.path, pathStep{key: key.str(), index: -1})
				return Value{}, j
			}
			d.items.push2(key, v)
			if i = skipSpace(b, j); i < len(b) && b[i] == ',' {
				i = skipSpace(b, i+1)
				continue
			}
			if i < len(b) && b[i] == '}' {
				i++
				break
			}
			d.syntaxError(i, "after object key:value pair")
			return Value{}, i
		}
	}
	d.depth--
	entries := d.items.pop(base)
	return d.cells.dictOf(entries, len(entries) < 2*indexThreshold && distinctKeys(entries), true), i
}

// distinctKeys reports whether no two of the keys of entries (key, value, key, value...),
// which are strs of the decoder (never boxed), are equal. Equal words of plainWords share
// their bytes.
func distinctKeys(entries []Value) bool {
	for i := 2; i < len(entries); i += 2 {
		a := entries[i]
		for j := 0; j < i; j += 2 {
			b := entries[j]
			if n := a.length(); n == b.length() && (a.ptr == b.ptr || n == 0 || a.text() == b.text()) {
				return false
			}
		}
	}
	return true
}

// str decodes the str whose opening quote is at i and returns it (internStr's: one of
// plainWords is the word's str) and the position after its closing quote. Most strs are
// plain ASCII text, found eight bytes at a time (jsonSpecialMask; the zero bytes of
// padding after the input stop the search): they are the input's bytes as they are. A
// str of fewer than eight such bytes, most keys, takes one load; the others are
// longStr's.
func (d *decoder) str(i int) (Value, int) {
	start := i + 1
	first := (*[8]byte)(d.buf[start : start+8]) // in the padding at worst
	x := binary.LittleEndian.Uint64(first[:])
	if m := jsonSpecialMask(x); m != 0 {
		if n := bits.TrailingZeros64(m) / 8; first[n] == '"' {
			s := view(first[:n])
			if head := x & lowBytes(n); n >= 2 {
				if k := int(plainWordSlots[plainWordHash(head, n)]) - 1; k >= 0 && plainWordHeads[k] == head && len(plainWords[k]) == n {
					return plainWordStr(k), start + n + 1
				}
			}
			return Str(s), start + n + 1
		}
	}
	return d.longStr(start, x)
}

// longStr is str for the str whose text starts at start and whose first eight bytes are
// x: a str of eight bytes or more, or one with escapes or other characters.
func (d *decoder) longStr(start int, x uint64) (Value, int) {
	b := d.buf
	padded := b[:len(b)+strPadding]
	head := x
	for i := start; ; {
		if m := jsonSpecialMask(x); m != 0 {
			i += bits.TrailingZeros64(m) / 8
			if i >= len(b) || b[i] != '"' {
				s, j := d.decodeStr(start, min(i, len(b)))
				return internStr(s), j
			}
			return internHead(view(b[start:i]), head), i + 1
		}
		i += 8
		x = binary.LittleEndian.Uint64(padded[i:])
	}
}

// strPadding is how many zero bytes follow the decoder's copy of the input: eight bytes
// can be read from any position in the input, up to its end, and a search for the end of
// a str eight bytes at a time stops in them.
const strPadding = 8

// decodeStr decodes the rest of the str that starts at start, whose bytes before i are
// plain ASCII text: a str with other characters or escapes. It decodes in place, over the
// str's own text, which an escape never makes longer; text that is not UTF-8 is an
// error.
func (d *decoder) decodeStr(start, i int) (string, int) {
	b := d.buf
	padded := b[:len(b)+strPadding]
	w := i // where the next decoded byte goes
	for i < len(b) {
		switch c := b[i]; {
		case c == '"':
			return view(b[start:w]), i + 1
		case c == '\\':
			if e := simpleEscapes[padded[i+1]]; e != 0 {
				b[w] = e
				w, i = w+1, i+2
				break
			}
			r, j := d.escape(i + 1)
			if d.err != nil {
				return "", j
			}
			if r < utf8.RuneSelf {
				b[w] = byte(r)
				w++
			} else {
				w += utf8.EncodeRune(b[w:], r)
			}
			i = j
		case c < ' ':
			d.syntaxError(i, "in string literal")
			return "", i
		case c < utf8.RuneSelf:
			// plain ASCII text, eight bytes at a time while no byte of the eight is
			// special (the padding's zero bytes are), then a byte at a time
			for {
				x := binary.LittleEndian.Uint64(padded[i:])
				m := jsonSpecialMask(x)
				if m == 0 {
					// the eight bytes are read before they are written over
					binary.LittleEndian.PutUint64(b[w:], x)
					w, i = w+8, i+8
					continue
				}
				for end := i + bits.TrailingZeros64(m)/8; i < end; i++ {
					b[w] = b[i]
					w++
				}
				break
			}
		default: // text with other characters, up to the next quote, backslash or control
			n := jsonPlainEnd(b, i, false)
			if !utf8.Valid(b[i:n]) {
				d.invalidUTF8(i)
				return "", i
			}
			w += copy(b[w:], b[i:n])
			i = n
		}
	}
	d.syntaxError(i, "in string literal")
	return "", i
}

// simpleEscapes holds the character of each one-letter escape (\n is a newline), 0 for
// the others.
var simpleEscapes = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// invalidUTF8 records the error of the first byte at or after i that is not UTF-8.
//
//go:noinline
func (d *decoder) invalidUTF8(i int) {
	for i < len(d.buf) {
		r, size := utf8.DecodeRune(d.buf[i:])
		if r == utf8.RuneError && size == 1 {
			break
		}
		i += size
	}
	d.fail(i, "invalid UTF-8 byte 0x%02x in string literal", d.buf[i])
}

// escape decodes the escape whose backslash is before i and returns its character and
// the position after it. A \u escape of a surrogate half that is not followed by the
// other half is an error.
func (d *decoder) escape(i int) (rune, int) {
	b := d.buf
	if i >= len(b) {
		d.syntaxError(i, "in string escape code")
		return 0, i
	}
	if e := simpleEscapes[b[i]]; e != 0 {
		return rune(e), i + 1
	}
	if b[i] != 'u' {
		d.syntaxError(i, "in string escape code")
		return 0, i
	}
	r := d.hex4(i + 1)
	i += 5
	if d.err != nil || !utf16.IsSurrogate(r) {
		return r, i
	}
	// the first half of a pair takes the second with it; any other half is alone
	if i+1 < len(b) && b[i] == '\\' && b[i+1] == 'u' {
		if pair := utf16.DecodeRune(r, d.hex4(i+2)); d.err == nil && pair != utf8.RuneError {
			return pair, i + 6
		}
	}
	if d.err == nil {
		d.fail(i-6, "lone surrogate \\u%04x in string literal (no UTF-8 text holds it)", r)
	}
	return 0, i
}

// hex4 decodes the four hexadecimal digits at i.
func (d *decoder) hex4(i int) rune {
	b := d.buf
	if i+4 > len(b) {
		d.syntaxError(len(b), "")
		return 0
	}
	h0, h1, h2, h3 := hexDigits[b[i]], hexDigits[b[i+1]], hexDigits[b[i+2]], hexDigits[b[i+3]]
	if h0|h1|h2|h3 > 0xf {
		for j := i; ; j++ {
			if hexDigits[b[j]] > 0xf {
				d.syntaxError(j, "in \\u hexadecimal character escape")
				return 0
			}
		}
	}
	return rune(h0)<<12 | rune(h1)<<8 | rune(h2)<<4 | rune(h3)
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

// number decodes the number at i, or -Infinity: an int when it has neither fraction nor
// exponent, else a float.
func (d *decoder) number(i int) (Value, int) {
	b := d.buf
	start := i
	if b[i] == '-' {
		i++
		if i < len(b) && b[i] == 'I' {
			d.facts.NonFinite = true
			return d.literal(i, "Infinity", Float(math.Inf(-1)))
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
		return Value{}, i
	}
	digits = i - digits
	isFloat := false
	if i < len(b) && b[i] == '.' {
		isFloat = true
		if i = d.digits(i+1, "after decimal point in numeric literal"); d.err != nil {
			return Value{}, i
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		isFloat = true
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i = d.digits(i, "in exponent of numeric literal"); d.err != nil {
			return Value{}, i
		}
	}
	switch {
	case isFloat:
		// The grammar is checked: the only error left is a range error, for which
		// ParseFloat returns ±Inf or 0, as Python's float() does.
		f, _ := strconv.ParseFloat(view(b[start:i]), 64)
		if math.IsInf(f, 0) {
			d.facts.NonFinite = true
		}
		return d.cells.float(f), i
	case digits <= 18:
		if b[start] == '-' {
			n = -n
		}
		return Int(n), i
	case digits > maxIntDigits:
		d.fail(start, "Exceeds the limit (%d digits) for integer string conversion: value has %d digits", maxIntDigits, digits)
		return Value{}, i
	}
	text := view(b[start:i])
	if n, err := strconv.ParseInt(text, 10, 64); err == nil {
		return Int(n), i
	}
	big, _ := new(big.Int).SetString(text, 10)
	d.facts.BigInts = true
	return BigInt(big), i
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

// JSONTypeName names the JSON type of a value decoded from JSON ("an object", "an
// array", "a string", "null", "a boolean", "a number"), for errors about a request's or
// a model file's fields.
func JSONTypeName(v Value) string {
	switch v.kind() {
	case KindDict:
		return "an object"
	case KindList:
		return "an array"
	case KindString:
		return "a string"
	case KindNone:
		return "null"
	case KindBool:
		return "a boolean"
	}
	return "a number"
}
