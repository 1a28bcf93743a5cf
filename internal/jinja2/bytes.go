package jinja2

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// pyBytes is a Python bytes value: what str.encode returns. Templates print it (its
// repr, b'...'), take its length and truth, compare it, iterate over its ints and decode
// it back, as Python does; its other methods are not supported.
type pyBytes struct{ b string }

func (p *pyBytes) typeName() string { return "bytes" }

// bytesValue returns the bytes b.
func bytesValue(b string) Value { return objectValue(&pyBytes{b}) }

// asBytes returns the bytes of v, and whether v is a bytes value.
func asBytes(v Value) (string, bool) {
	if v.kind() != KindObject {
		return "", false
	}
	p, ok := v.object().(*pyBytes)
	if !ok {
		return "", false
	}
	return p.b, true
}

// repr is Python's bytes_repr: single quotes unless the bytes hold a single quote and no
// double one; \t, \n, \r, the quote and the backslash escaped; other bytes outside
// printable ASCII as \xhh.
func (p *pyBytes) repr() string {
	quote := byte('\'')
	if strings.IndexByte(p.b, '\'') >= 0 && strings.IndexByte(p.b, '"') < 0 {
		quote = '"'
	}
	const hex = "0123456789abcdef"
	b := make([]byte, 0, len(p.b)+3)
	b = append(b, 'b', quote)
	for i := 0; i < len(p.b); i++ {
		switch c := p.b[i]; {
		case c == quote || c == '\\':
			b = append(b, '\\', c)
		case c == '\t':
			b = append(b, `\t`...)
		case c == '\n':
			b = append(b, `\n`...)
		case c == '\r':
			b = append(b, `\r`...)
		case c < ' ' || c >= 0x7f:
			b = append(b, '\\', 'x', hex[c>>4], hex[c&15])
		default:
			b = append(b, c)
		}
	}
	return string(append(b, quote))
}

func (p *pyBytes) attr(string) (Value, bool) { return Value{}, false }

// callMethod is decode(encoding='utf-8', errors='strict').
func (p *pyBytes) callMethod(name string, args []Value, kwargs []Kwarg) (Value, bool) {
	if name != "decode" {
		return Value{}, false
	}
	a := bindArgs("decode", args, kwargs, "encoding", "errors")
	codec, errs := codecArgs("decode", a[0], a[1])
	return Str(decodeBytes(p.b, codec, errs)), true
}

// items returns the bytes as ints, as iterating over them gives.
func (p *pyBytes) items() []Value {
	out := make([]Value, len(p.b))
	for i := range len(p.b) {
		out[i] = SmallInt(int64(p.b[i]))
	}
	return out
}

// strEncode is str.encode(encoding='utf-8', errors='strict').
func strEncode(r Value, args []Value, kwargs []Kwarg) Value {
	a := bindArgs("encode", args, kwargs, "encoding", "errors")
	codec, errs := codecArgs("encode", a[0], a[1])
	s := r.str()
	if codec == "utf-8" {
		return bytesValue(s)
	}
	limit := rune(0x7f)
	if codec == "latin-1" {
		limit = 0xff
	}
	var b strings.Builder
	pos := 0
	for i, c := range s {
		switch {
		case c <= limit:
			b.WriteByte(byte(c))
		case errs == "ignore":
		case errs == "replace":
			b.WriteByte('?')
		default:
			encodeError(codec, s[i:], pos, limit)
		}
		pos++
	}
	return bytesValue(b.String())
}

// encodeError raises Python's UnicodeEncodeError for the character at position pos,
// the first of rest, beyond limit: the error covers the run of such characters it starts,
// naming a lone one by its escape.
func encodeError(codec, rest string, pos int, limit rune) {
	n := 0
	for _, c := range rest {
		if c <= limit {
			break
		}
		n++
	}
	if n > 1 {
		throw(UnicodeEncode, "'%s' codec can't encode characters in position %d-%d: ordinal not in range(%d)", codec, pos, pos+n-1, limit+1)
	}
	c, _ := utf8.DecodeRuneInString(rest)
	escape := fmt.Sprintf(`\U%08x`, c)
	switch {
	case c < 0x100:
		escape = fmt.Sprintf(`\x%02x`, c)
	case c < 0x10000:
		escape = fmt.Sprintf(`\u%04x`, c)
	}
	throw(UnicodeEncode, "'%s' codec can't encode character '%s' in position %d: ordinal not in range(%d)", codec, escape, pos, limit+1)
}

// decodeBytes returns b decoded from codec ("utf-8", "ascii" or "latin-1") with the
// error handler errs ("strict", "ignore" or "replace"). An invalid UTF-8 sequence is
// replaced or ignored as a whole (its maximal subpart, as Python and Unicode count it).
func decodeBytes(b, codec, errs string) string {
	var out strings.Builder
	for i := 0; i < len(b); {
		c, size := rune(b[i]), 1
		reason := ""
		switch codec {
		case "utf-8":
			if c, size = utf8.DecodeRuneInString(b[i:]); c == utf8.RuneError && size == 1 {
				size, reason = utf8Invalid(b[i:])
			}
		case "ascii":
			if c >= 0x80 {
				reason = "ordinal not in range(128)"
			}
		}
		if reason != "" {
			switch errs {
			case "ignore":
			case "replace":
				out.WriteRune(utf8.RuneError)
			default:
				throw(UnicodeDecode, "'%s' codec can't decode byte 0x%02x in position %d: %s", codec, b[i], i, reason)
			}
		} else {
			out.WriteRune(c)
		}
		i += size
	}
	return out.String()
}

// utf8Invalid returns the length of the maximal subpart of the invalid UTF-8 sequence at
// the start of b (its lead byte and the continuation bytes that could still have made a
// character of it), and Python's reason for refusing it.
func utf8Invalid(b string) (int, string) {
	lead := b[0]
	lo, hi, need := byte(0x80), byte(0xbf), 0
	switch {
	case lead >= 0xc2 && lead <= 0xdf:
		need = 1
	case lead == 0xe0:
		lo, need = 0xa0, 2
	case lead == 0xed:
		hi, need = 0x9f, 2
	case lead >= 0xe1 && lead <= 0xef:
		need = 2
	case lead == 0xf0:
		lo, need = 0x90, 3
	case lead == 0xf4:
		hi, need = 0x8f, 3
	case lead >= 0xf1 && lead <= 0xf3:
		need = 3
	default:
		return 1, "invalid start byte"
	}
	n := 1
	for n <= need && n < len(b) && b[n] >= lo && b[n] <= hi {
		lo, hi = 0x80, 0xbf
		n++
	}
	if n == len(b) {
		return n, "unexpected end of data"
	}
	return n, "invalid continuation byte"
}

// codecArgs checks the encoding and errors arguments of encode or decode and returns the
// codec's canonical name and the error handler. tmplgen has the codecs UTF-8, ASCII and
// Latin-1 (under Python's names for them) and the handlers strict, ignore and replace.
func codecArgs(method string, encoding, errors Value) (codec, errs string) {
	codec, errs = "utf-8", "strict"
	if given(encoding) {
		if encoding.kind() != KindString {
			throw(TypeError, "%s() argument 'encoding' must be str, not %s", method, encoding.TypeName())
		}
		// Python's normalize_encoding and the aliases of the three codecs
		name := strings.ToLower(strings.NewReplacer("-", "_", " ", "_").Replace(encoding.str()))
		switch name {
		case "utf_8", "utf8", "u8", "utf", "cp65001":
			codec = "utf-8"
		case "ascii", "us_ascii", "646", "us":
			codec = "ascii"
		case "latin_1", "latin1", "latin", "l1", "iso_8859_1", "iso8859_1", "8859", "cp819", "iso_ir_100":
			codec = "latin-1"
		default:
			throw(NotImplemented_, "%s() with the encoding %s is not supported: tmplgen has utf-8, ascii and latin-1", method, encoding.Repr())
		}
	}
	if given(errors) {
		if errors.kind() != KindString {
			throw(TypeError, "%s() argument 'errors' must be str, not %s", method, errors.TypeName())
		}
		switch errs = errors.str(); errs {
		case "strict", "ignore", "replace":
		default:
			throw(NotImplemented_, "%s() with the error handler %s is not supported: tmplgen has strict, ignore and replace", method, errors.Repr())
		}
	}
	return codec, errs
}
