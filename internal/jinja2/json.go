package jinja2

import (
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// MaxNesting bounds how deeply input values and JSON may nest.
const MaxNesting = 1000

// internStr returns a str of parsed JSON; one of plainWords is returned as the string
// constant of the table. Go's linker keeps one copy of equal string constants, so these
// are the very bytes of the literals generated code looks up or compares with
// (message['role'] == 'user'): Dict.findStr then matches a key by address, without
// comparing bytes. The str carries the word's index in its flags, with flagPlainJSON, for
// tojson to copy its ready-made JSON text (plainWordJSON) without looking for
// characters to escape.
func internStr(s string) Value { return internHead(s, headOf(s)) }

// headOf returns the first eight bytes of s (as many as it has, the others zero) as a
// little-endian word.
func headOf(s string) uint64 {
	var head [8]byte
	copy(head[:], s)
	return binary.LittleEndian.Uint64(head[:])
}

// internHead is internStr for a str whose first eight bytes (as many as it has, the
// others zero) are head, a little-endian word: the decoder has it at hand.
func internHead(s string, head uint64) Value {
	if n := len(s); n >= 2 && n <= maxPlainWord {
		i := int(plainWordSlots[plainWordHash(head, n)]) - 1
		if i >= 0 && plainWordHeads[i] == head && len(plainWords[i]) == n && (n <= 8 || s[8:] == plainWords[i][8:]) {
			return plainWordStr(i)
		}
	}
	return Str(s)
}

// plainWordStr returns plainWords[i] as a str that says which word it is.
func plainWordStr(i int) Value {
	return makeStr(KindString, flagPlainJSON|uint32(i)<<plainWordShift, plainWords[i])
}

// lowBytes returns the mask of the n low bytes of a word, n at most 8.
func lowBytes(n int) uint64 { return ^uint64(0) >> (64 - 8*n) }

// plainWords are the common keys and values of chat requests: message fields and roles,
// the keywords and types of JSON Schema tools. None needs escaping in JSON.
// The first NumKeys are the Keys, in their order.
var plainWords = [...]string{
	"role", "content", "type", "text", "name", "id", "function", "arguments", "tool_calls",
	"tool_call_id", "reasoning_content", "description", "parameters", "properties",
	"required", "enum", "system", "user", "assistant", "tool", "object", "string", "integer",
	"number", "boolean", "array", "null", "default", "items", "title", "format",
	"minimum", "maximum", "pattern", "const", "anyOf", "oneOf", "allOf",
	"additionalProperties", "examples", "nullable",
}

// plainWordShift is where the flags of a str from plainWords hold its index (the bits an
// undefined value uses for its hint).
const plainWordShift = hintShift

// maxPlainWord is the length of the longest of plainWords.
const maxPlainWord = len("additionalProperties")

// plainWordSlots finds a word in plainWords by its hash (plainWordHash): its slot holds
// its index plus one, the slots of no word 0. The hash multiplier, plainWordMul, is the
// first of a sequence for which the words' slots differ (init finds it). plainWordHeads
// holds each word's first eight bytes as a little-endian word (zero where it is shorter).
var (
	plainWordSlots [256]uint8
	plainWordMul   uint64
	plainWordHeads [len(plainWords)]uint64
)

// plainWordHash hashes a str of length n whose first eight bytes are head.
func plainWordHash(head uint64, n int) uint8 {
	return uint8((head ^ uint64(n)<<56) * plainWordMul >> 56)
}

// setPlainWordSlots fills plainWordSlots with multiplier mul and reports whether no two
// words share a slot.
func setPlainWordSlots(mul uint64) bool {
	plainWordMul, plainWordSlots = mul, [len(plainWordSlots)]uint8{}
	for i, w := range plainWords {
		h := plainWordHash(plainWordHeads[i], len(w))
		if plainWordSlots[h] != 0 {
			return false
		}
		plainWordSlots[h] = uint8(i + 1)
	}
	return true
}

// plainWordJSON holds each of plainWords as tojson writes it with the default
// separators: as a dict's first key (`"role": `), as a later key (`, "role": `) and as a
// value (`"role"`).
var plainWordJSON [len(plainWords)]struct{ first, later, value jsonWord }

// jsonWord is a short JSON text padded to a fixed size, which appendJSONWord copies
// without a call.
type jsonWord struct {
	text [32]byte
	n    int // the length of the text
}

func init() {
	for i, w := range plainWords {
		if len(w) < 2 || len(w) > maxPlainWord {
			panic("runtime: plain word of a length internStr does not look up: " + w)
		}
		plainWordHeads[i] = headOf(w)
	}
	for k := uint64(1); !setPlainWordSlots(k * 0x9e3779b97f4a7c15); k++ {
	}
	for i, w := range plainWords {
		forms := &plainWordJSON[i]
		forms.first.set(`"` + w + `": `)
		forms.later.set(`, "` + w + `": `)
		forms.value.set(`"` + w + `"`)
	}
}

// set makes text the text of w; plainWords are short enough for every form.
func (w *jsonWord) set(text string) {
	if len(text) > len(w.text) {
		panic("runtime: plain word too long: " + text)
	}
	w.n = copy(w.text[:], text)
}

// appendJSONWord appends the text of w: it copies all of w.text into the spare capacity of
// b, then keeps w.n bytes.
func appendJSONWord(b []byte, w *jsonWord) []byte {
	n := len(b)
	if cap(b)-n < len(w.text) {
		b = slices.Grow(b, len(w.text))
	}
	*(*[len(w.text)]byte)(b[n : n+len(w.text)]) = w.text
	return b[:n+w.n]
}

// jsonOptions are the arguments of json.dumps that tojson passes on.
type jsonOptions struct {
	ensureASCII bool
	indent      string
	pretty      bool // indent is not None
	itemSep     string
	keySep      string
	sortKeys    bool
	// badSeps are the separators when one is not a str (itemSep and keySep are
	// unset then): json.dumps fails when it uses them (badSeparators)
	badSeps []Value
}

// ToJSON is transformers' tojson filter: json.dumps(value, ensure_ascii=False,
// indent=None, separators=None, sort_keys=False), arguments in that order.
func ToJSON(v Value, args []Value, kwargs []Kwarg) Value {
	var given jsonOptions
	o := jsonOptionsFor(v, args, kwargs, &given)
	buf := jsonBuffers.Get().(*[]byte)
	*buf = appendJSON((*buf)[:0], v, o, 0)
	s := string(*buf)
	if cap(*buf) <= maxPooledJSON {
		jsonBuffers.Put(buf)
	}
	return Str(s)
}

// jsonBuffers recycles the buffers ToJSON encodes into before it copies the text into a
// str: the str is then the only allocation of a call.
var jsonBuffers = sync.Pool{New: func() any { return new([]byte) }}

// maxPooledJSON is the largest buffer jsonBuffers keeps.
const maxPooledJSON = 64 << 10

// WriteJSON writes value | tojson(args) into the output, without building the string
// first.
func (w *Writer) WriteJSON(v Value, args []Value, kwargs []Kwarg) {
	var given jsonOptions
	at := len(w.buf)
	w.setData(appendJSON(w.dataBuf(), v, jsonOptionsFor(v, args, kwargs, &given), 0))
	if o := w.origins; o != nil && v.origin() == originTemplate {
		o.markup = addRange(o.markup, at, len(w.buf)) // the JSON of template text
	}
}

// defaultJSON are tojson's options when it is given no argument.
var defaultJSON = jsonOptions{itemSep: ", ", keySep: ": "}

// jsonOptionsFor returns the options of v|tojson(args): &defaultJSON when it has no
// argument (dicts then write their common keys ready-made, see plainWordJSON), else given,
// set by jsonArgs.
func jsonOptionsFor(v Value, args []Value, kwargs []Kwarg, given *jsonOptions) *jsonOptions {
	if len(args) == 0 && len(kwargs) == 0 {
		return &defaultJSON
	}
	*given = jsonArgs(args, kwargs)
	if given.badSeps != nil {
		badSeparators(v, given)
	}
	return given
}

// badSeparators raises what json.dumps raises writing v with separators that are not
// both strs (o.badSeps), if it uses them: a str is written without them; else, without
// indent, C's encoder checks their types (the key separator is its argument 5, the item
// separator 6); with one, the item separator is joined to a line break for the first
// list or dict with items, and the key separator written into the text.
func badSeparators(v Value, o *jsonOptions) {
	item, key := o.badSeps[0], o.badSeps[1]
	switch {
	case v.kind() == KindString:
	case !o.pretty && key.kind() != KindString:
		throw(TypeError, "make_encoder() argument 5 must be str, not %s", clinicTypeName(key))
	case !o.pretty:
		throw(TypeError, "make_encoder() argument 6 must be str, not %s", clinicTypeName(item))
	case item.kind() != KindString && (v.kind() == KindList || v.kind() == KindTuple || v.kind() == KindDict) && Len(v) > 0:
		throw(TypeError, "unsupported operand type(s) for +: '%s' and 'str'", item.TypeName())
	case key.kind() != KindString:
		if n := 0; keySeparatorChunk(v, 0, &n) {
			throw(TypeError, "sequence item %d: expected str instance, %s found", n, key.TypeName())
		}
	}
}

// keySeparatorChunk reports whether json.dumps with an indent writes a key separator
// for v, at most MaxNesting deep; n counts the pieces of text its encoder yields before
// (Python's _iterencode_list and _iterencode_dict), which str.join names when the
// separator is not a str.
func keySeparatorChunk(v Value, depth int, n *int) bool {
	if depth > MaxNesting {
		return false
	}
	switch v.kind() {
	case KindDict:
		if v.dict().Len() == 0 {
			*n++ // {}
			return false
		}
		*n += 3 // {, the line break, the first key
		return true
	case KindList, KindTuple:
		items := v.list().items()
		if len(items) == 0 {
			*n++ // []
			return false
		}
		for _, it := range items {
			*n++ // the opening or separator, with the item when it is a scalar
			switch it.kind() {
			case KindList, KindTuple, KindDict:
				if keySeparatorChunk(it, depth+1, n) {
					return true
				}
			}
		}
		*n += 2 // the line break, ]
	}
	return false
}

// tojsonFunc is the signature of transformers' tojson(x, ensure_ascii=False,
// indent=None, separators=None, sort_keys=False).
var tojsonFunc = &pyFunc{name: "tojson", added: []string{"x"}, params: []string{"ensure_ascii", "indent", "separators", "sort_keys"}}

// jsonArgs binds tojson's arguments: ensure_ascii=False, indent=None, separators=None,
// sort_keys=False, in that order.
func jsonArgs(args []Value, kwargs []Kwarg) jsonOptions {
	o := defaultJSON
	a := tojsonFunc.bind(args, kwargs)
	o.ensureASCII = given(a[0]) && a[0].Truthy()
	if given(a[1]) && a[1].kind() != KindNone {
		o.pretty = true
		o.itemSep = ","
		ind := a[1]
		n, isInt := ind.AsInt()
		switch {
		case ind.kind() == KindString:
			o.indent = ind.str()
		case isInt:
			o.indent = strings.Repeat(" ", int(max(min(n, 1000), 0)))
		default:
			throw(TypeError, "can't multiply sequence by non-int of type '%s'", ind.TypeName())
		}
	}
	if given(a[2]) && a[2].kind() != KindNone {
		seps := Unpack(a[2], 2) // item_separator, key_separator = separators
		if seps[0].kind() != KindString || seps[1].kind() != KindString {
			o.badSeps = seps
		} else {
			o.itemSep, o.keySep = seps[0].str(), seps[1].str()
		}
	}
	o.sortKeys = given(a[3]) && a[3].Truthy()
	return o
}

// AppendJSON appends json.dumps(v) with Python's default options (", " and ": "
// separators, non-ASCII kept).
func AppendJSON(b []byte, v Value) []byte {
	return appendJSON(b, v, &defaultJSON, 0)
}

// appendJSON writes json.dumps(v) for a value nested depth containers deep.
func appendJSON(b []byte, v Value, o *jsonOptions, depth int) []byte {
	switch v.kind() {
	case KindString:
		if v.strFlags()&flagPlainJSON != 0 {
			return appendJSONWord(b, &plainWordJSON[v.strFlags()>>plainWordShift].value)
		}
		return appendJSONString(b, v.str(), o.ensureASCII)
	case KindDict:
		return appendJSONDict(b, v.dict(), o, depth)
	case KindList, KindTuple:
		if v.kind() == KindTuple || v.list().name == "" { // range and dict views are not serializable
			return appendJSONList(b, v.list().items(), o, depth)
		}
	}
	return appendJSONScalar(b, v)
}

// appendJSONScalar writes None, a bool or a number; other values are not serializable.
func appendJSONScalar(b []byte, v Value) []byte {
	switch v.kind() {
	case KindNone:
		return append(b, "null"...)
	case KindBool:
		if v.num() != 0 {
			return append(b, "true"...)
		}
		return append(b, "false"...)
	case KindInt:
		if v.ptr != nil {
			return appendDecimal(b, v.bigInt())
		}
		return strconv.AppendInt(b, v.num(), 10)
	case KindFloat:
		return appendJSONFloat(b, v.float())
	}
	name := v.TypeName()
	if v.kind() == KindList && v.list().name != "" {
		name = strings.SplitN(v.list().name, "(", 2)[0]
	}
	throw(TypeError, "Object of type %s is not JSON serializable", name)
	return b
}

// checkJSONDepth refuses a container nested deeper than any input can be: a list or dict
// that contains itself.
func checkJSONDepth(depth int) {
	if depth > MaxNesting {
		throw(ValueError, "Circular reference detected")
	}
}

func appendJSONList(b []byte, items []Value, o *jsonOptions, depth int) []byte {
	checkJSONDepth(depth)
	if len(items) == 0 {
		return append(b, "[]"...)
	}
	b = append(b, '[')
	for i := range items {
		if i > 0 {
			b = appendSep(b, o.itemSep)
		}
		if o.pretty {
			b = o.newline(b, depth+1)
		}
		b = appendJSON(b, items[i], o, depth+1)
	}
	if o.pretty {
		b = o.newline(b, depth)
	}
	return append(b, ']')
}

// appendSep appends a separator; the default ones (", " and ": ") without a copy call.
func appendSep(b []byte, sep string) []byte {
	if len(sep) == 2 {
		return append(b, sep[0], sep[1])
	}
	return append(b, sep...)
}

// newline starts a line at the indentation of depth (with indent only).
func (o *jsonOptions) newline(b []byte, depth int) []byte {
	b = append(b, '\n')
	for i := 0; i < depth; i++ {
		b = append(b, o.indent...)
	}
	return b
}

func appendJSONDict(b []byte, d *Dict, o *jsonOptions, depth int) []byte {
	checkJSONDepth(depth)
	keys, vals := d.keys(), d.vals()
	if len(keys) == 0 {
		return append(b, "{}"...)
	}
	if o.sortKeys {
		keys, vals = sortedEntries(keys, vals)
	}
	b = append(b, '{')
	for i := range keys {
		if k := &keys[i]; k.flags()&flagPlainJSON != 0 && o == &defaultJSON {
			forms := &plainWordJSON[k.strFlags()>>plainWordShift]
			if i == 0 {
				b = appendJSONWord(b, &forms.first)
			} else {
				b = appendJSONWord(b, &forms.later)
			}
		} else {
			b = appendJSONEntryKey(b, i, k, o, depth)
		}
		// The commonest values are dispatched here, as appendJSON would: a call less per
		// entry (measured: 5% of the Qwen3 tools' render).
		switch v := &vals[i]; {
		case v.flags()&flagPlainJSON != 0:
			b = appendJSONWord(b, &plainWordJSON[v.strFlags()>>plainWordShift].value)
		case v.kind() == KindString:
			b = appendJSONString(b, v.str(), o.ensureASCII)
		case v.kind() == KindDict:
			b = appendJSONDict(b, v.dict(), o, depth+1)
		default:
			b = appendJSON(b, *v, o, depth+1)
		}
	}
	if o.pretty {
		b = o.newline(b, depth)
	}
	return append(b, '}')
}

// appendJSONEntryKey writes the key of a dict's entry i with the separators before and
// after it.
func appendJSONEntryKey(b []byte, i int, k *Value, o *jsonOptions, depth int) []byte {
	if i > 0 {
		b = appendSep(b, o.itemSep)
	}
	if o.pretty {
		b = o.newline(b, depth+1)
	}
	switch {
	case k.flags()&flagPlainJSON != 0:
		b = appendJSONPlain(b, k.str())
	case k.kind() == KindString:
		b = appendJSONString(b, k.str(), o.ensureASCII)
	default:
		b = appendJSONKey(b, *k)
	}
	return appendSep(b, o.keySep)
}

// sortedEntries returns copies of a dict's keys and values in sort_keys order.
func sortedEntries(keys, vals []Value) ([]Value, []Value) {
	order := sortOrder(keys, false)
	sortedKeys, sortedVals := make([]Value, len(keys)), make([]Value, len(keys))
	for n, i := range order {
		sortedKeys[n], sortedVals[n] = keys[i], vals[i]
	}
	return sortedKeys, sortedVals
}

// appendJSONKey writes a dict key that is not a str as json.dumps does: quoted.
func appendJSONKey(b []byte, k Value) []byte {
	switch k.kind() {
	case KindInt, KindBool, KindNone:
		b = append(b, '"')
		b = appendJSONScalar(b, k)
	case KindFloat:
		b = append(b, '"')
		b = appendJSONFloat(b, k.float())
	default:
		throw(TypeError, "keys must be str, int, float, bool or None, not %s", k.TypeName())
	}
	return append(b, '"')
}

func appendJSONFloat(b []byte, f float64) []byte {
	switch {
	case math.IsInf(f, 1):
		return append(b, "Infinity"...)
	case math.IsInf(f, -1):
		return append(b, "-Infinity"...)
	case math.IsNaN(f):
		return append(b, "NaN"...)
	}
	return appendFloatRepr(b, f)
}

// appendJSONString writes s as Python's json module does: quotes, backslashes and
// control characters escaped; with ensureASCII also every non-ASCII character.
//
// Most strings need no escape, and it tells them eight bytes at a time: a string shorter
// than eight bytes is packed into one word (overlapping reads, padded with a plain byte),
// and so is the tail of a longer one (its last eight bytes, which may overlap the word
// before them).
func appendJSONString(b []byte, s string, ensureASCII bool) []byte {
	const pad = 0x6161616161 // "aaaaa", the five bytes above a short string's three
	n := len(s)
	var x uint64
	switch {
	case n >= 8:
		for i := 0; i < n-8; i += 8 {
			if jsonEscapeIn8(load8(s[i:]), ensureASCII) {
				return appendJSONEscaped(b, s, ensureASCII)
			}
		}
		x = load8(s[n-8:])
	case n >= 4:
		x = uint64(load4(s)) | uint64(load4(s[n-4:]))<<32
	case n > 0:
		x = uint64(s[0]) | uint64(s[n/2])<<8 | uint64(s[n-1])<<16 | pad<<24
	}
	if jsonEscapeIn8(x, ensureASCII) {
		return appendJSONEscaped(b, s, ensureASCII)
	}
	return appendJSONPlain(b, s)
}

// appendJSONPlain writes a str that needs no escape: between double quotes, as it is.
func appendJSONPlain(b []byte, s string) []byte {
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendJSONEscaped is appendJSONString for a string with something to escape: it
// copies the runs between escapes whole.
func appendJSONEscaped(b []byte, s string, ensureASCII bool) []byte {
	b = append(b, '"')
	for {
		plain := jsonPlainPrefix(s, ensureASCII)
		b = append(b, s[:plain]...)
		if plain == len(s) {
			return append(b, '"')
		}
		c, size := s[plain], 1
		switch c {
		case '"':
			b = append(b, '\\', '"')
		case '\\':
			b = append(b, '\\', '\\')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		default:
			if c < utf8.RuneSelf { // another control character, or DEL with ensure_ascii
				b = appendHexEscape(b, 'u', rune(c), 4)
				break
			}
			// a non-ASCII character with ensure_ascii: UTF-16, as a surrogate pair
			// beyond the Basic Multilingual Plane
			var r rune
			r, size = utf8.DecodeRuneInString(s[plain:])
			if r >= 0x10000 {
				r -= 0x10000
				b = appendHexEscape(b, 'u', 0xd800+(r>>10), 4)
				r = 0xdc00 + (r & 0x3ff)
			}
			b = appendHexEscape(b, 'u', r, 4)
		}
		s = s[plain+size:]
	}
}

// jsonPlainPrefix returns the length of the longest prefix of s that json.dumps writes
// as it is.
func jsonPlainPrefix(s string, ensureASCII bool) int {
	return jsonPlainEnd(bytesOf(s), 0, ensureASCII)
}

// jsonPlainEnd returns the position of the first byte of b from i on that json.dumps
// escapes, or len(b), testing eight bytes at a time.
func jsonPlainEnd(b []byte, i int, ensureASCII bool) int {
	for ; i+8 <= len(b); i += 8 {
		if m := jsonEscapeMask(binary.LittleEndian.Uint64(b[i:]), ensureASCII); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i < len(b); i++ {
		if c := b[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x7f && ensureASCII {
			break
		}
	}
	return i
}

// jsonEscapeIn8 reports whether one of the 8 bytes of x (a little-endian word) needs
// escaping: a control character, a quote or a backslash, and with ensureASCII also DEL
// and every byte of a non-ASCII character.
func jsonEscapeIn8(x uint64, ensureASCII bool) bool {
	return jsonEscapeMask(x, ensureASCII) != 0
}

// jsonEscapeMask tests the 8 bytes of x at once for jsonEscapeIn8 (the "has a byte less
// than n" and "has a zero byte" tricks): it returns a word whose lowest set bit is the top
// bit of the first byte that needs escaping, 0 when none does. (A byte after that one may
// be marked too, by a borrow.)
func jsonEscapeMask(x uint64, ensureASCII bool) uint64 {
	const ones, tops = 0x0101010101010101, 0x8080808080808080
	m := quoteOrBackslash(x) | (x-ones*0x20)&^x
	if ensureASCII {
		del := x ^ (ones * 0x7f)
		m |= x | (del-ones)&^del
	}
	return m & tops
}

// jsonSpecialMask marks, as jsonEscapeMask does, the bytes of x that end the plain text
// of a JSON string: a quote, a backslash, a control character and every byte of a
// non-ASCII character (what json.dumps escapes with ensure_ascii, but DEL).
func jsonSpecialMask(x uint64) uint64 {
	const ones, tops = 0x0101010101010101, 0x8080808080808080
	return (quoteOrBackslash(x) | (x - ones*0x20) | x) & tops
}

// quoteOrBackslash sets the top bit of the bytes of x that are a quote or a backslash
// (and maybe of a byte after one).
func quoteOrBackslash(x uint64) uint64 {
	const ones = 0x0101010101010101
	quote, backslash := x^(ones*'"'), x^(ones*'\\')
	return (quote-ones)&^quote | (backslash-ones)&^backslash
}

// CopyJSON copies the lists and dicts of a JSON value, so that a render that changes
// the copy never changes (nor shares) the caller's value.
func CopyJSON(v Value) Value {
	switch v.kind() {
	case KindList, KindTuple:
		items := v.Items()
		out := make([]Value, len(items))
		for i, it := range items {
			out[i] = CopyJSON(it)
		}
		return listValue(v.kind(), newListNamed(out, v.list().name))
	case KindDict:
		d := v.AsDict()
		out := NewDict(d.Len())
		for i, k := range d.keys() {
			out.Set(k, CopyJSON(d.at(i)))
		}
		return DictValue(out)
	}
	return v
}

// CompactJSON is v as nlohmann::json's dump() writes it, as llama.cpp shows values in
// its errors: compact JSON (no spaces), non-ASCII kept; a value JSON cannot hold is
// shown by its repr.
func CompactJSON(v Value) (s string) {
	defer func() {
		if recover() != nil {
			s = v.Repr()
		}
	}()
	// the string is the bytes written, which nothing else holds: one allocation for
	// most values
	return view(appendJSON(make([]byte, 0, 128), v, &jsonOptions{itemSep: ",", keySep: ":"}, 0))
}
