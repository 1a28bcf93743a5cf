package jinja2

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// llama.cpp's str builtins and tojson where they differ from Jinja2's (value.cpp,
// string.cpp): upper, lower, title and capitalize map ASCII letters only (C's toupper
// and tolower byte by byte; title starts a word after C's isspace); split without a
// separator splits at each single space (so ''.split() is ['']); length counts bytes
// ('ü'|length is 2, as llama.cpp's strs are bytes); tojson writes floats
// as C++'s ostream does (six significant digits: 3.0 is 3, 0.1 + 0.2 is 0.3), undefined
// as null, escapes only quotes, backslashes and control characters, and indents as
// Jinja2's.

// llamaStrBuiltin runs the str builtins above, ok false for another.
func llamaStrBuiltin(id string, s string, args []Value, kwargs []Kwarg) (Value, bool) {
	switch id {
	case "upper":
		return Str(mapASCII(s, func(i int, prev byte) bool { return true })), true
	case "lower":
		return Str(mapASCII(s, func(i int, prev byte) bool { return false })), true
	case "capitalize":
		return Str(mapASCII(s, func(i int, prev byte) bool { return i == 0 })), true
	case "title":
		return Str(mapASCII(s, func(i int, prev byte) bool { return i == 0 || isCSpace(prev) })), true
	case "split":
		if len(args) == 0 && len(kwargs) == 0 {
			return llamaSplit(s), true
		}
	case "length":
		return Int(int64(len(s))), true
	}
	return Value{}, false
}

// mapASCII is s with each ASCII letter upper-cased where upper says so (given the
// letter's index and the byte before it), lower-cased elsewhere.
func mapASCII(s string, upper func(i int, prev byte) bool) string {
	b := []byte(s)
	var prev byte
	for i, c := range b {
		switch {
		case 'a' <= c && c <= 'z' && upper(i, prev):
			b[i] = c - 'a' + 'A'
		case 'A' <= c && c <= 'Z' && !upper(i, prev):
			b[i] = c - 'A' + 'a'
		}
		prev = c
	}
	return string(b)
}

// isCSpace is C's isspace.
func isCSpace(c byte) bool { return c == ' ' || '\t' <= c && c <= '\r' }

// llamaSplit is split(" ").
func llamaSplit(s string) Value {
	parts := strings.Split(s, " ")
	items := make([]Value, len(parts))
	for i, p := range parts {
		items[i] = Str(p)
	}
	return ListOf(items)
}

// llamaToJSON is llama.cpp's tojson(indent, separators): value_to_json.
func llamaToJSON(v Value, args []Value, kwargs []Kwarg) Value {
	indent := -1
	var seps Value
	arg := func(name string, pos int) (Value, bool) {
		for _, kw := range kwargs {
			if kw.Name == name {
				return kw.Value, true
			}
		}
		if pos < len(args) {
			return args[pos], true
		}
		return Value{}, false
	}
	if n, ok := arg("indent", 1); ok && n.kind() == KindInt {
		i, _ := n.AsInt()
		indent = int(i)
	}
	if s, ok := arg("separators", 2); ok {
		seps = s
	}
	itemSep, keySep := ", ", ": "
	if indent >= 0 {
		itemSep = ","
	}
	if seps.kind() == KindList || seps.kind() == KindTuple {
		if items := seps.Items(); len(items) > 0 {
			itemSep = llamaString(items[0])
			if len(items) > 1 {
				keySep = llamaString(items[1])
			}
		}
	}
	var b strings.Builder
	writeLlamaJSON(&b, v, 0, indent, itemSep, keySep)
	checkSize(b.Len())
	if a, ok := arg("ensure_ascii", 0); ok && a.Truthy() {
		return Str(llamaEnsureASCII(b.String()))
	}
	return Str(b.String())
}

// llamaEnsureASCII is json_ensure_ascii_preserving_format: each non-ASCII character of
// the JSON text's strings as \uxxxx (a surrogate pair beyond the BMP; \ufffd for a
// byte that is not UTF-8).
func llamaEnsureASCII(js string) string {
	var b strings.Builder
	u16 := func(v rune) {
		b.WriteString(`\u`)
		b.WriteString(fmt.Sprintf("%04x", v))
	}
	inString, escaped := false, false
	for i := 0; i < len(js); {
		c := js[i]
		switch {
		case !inString || escaped || c < 0x80:
			b.WriteByte(c)
			switch {
			case escaped:
				escaped = false
			case c == '"':
				inString = !inString
			case c == '\\' && inString:
				escaped = true
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(js[i:])
		if r == utf8.RuneError && n <= 1 {
			b.WriteString(`\ufffd`)
			i++
			continue
		}
		if r <= 0xFFFF {
			u16(r)
		} else {
			r -= 0x10000
			u16(0xD800 + (r>>10)&0x3FF)
			u16(0xDC00 + r&0x3FF)
		}
		i += n
	}
	return b.String()
}

func writeLlamaJSON(b *strings.Builder, v Value, level, indent int, itemSep, keySep string) {
	pad := func(n int) {
		if indent > 0 {
			b.WriteString(strings.Repeat(" ", n*indent))
		}
	}
	newline := func() {
		if indent >= 0 {
			b.WriteByte('\n')
		}
	}
	switch v.kind() {
	case KindBool:
		b.WriteString(strconv.FormatBool(v.Truthy()))
	case KindInt:
		b.WriteString(v.String())
	case KindFloat:
		b.WriteString(ostreamDouble(v.float()))
	case KindString:
		b.WriteByte('"')
		for i := 0; i < len(v.str()); i++ {
			switch c := v.str()[i]; c {
			case '"':
				b.WriteString(`\"`)
			case '\\':
				b.WriteString(`\\`)
			case '\b':
				b.WriteString(`\b`)
			case '\f':
				b.WriteString(`\f`)
			case '\n':
				b.WriteString(`\n`)
			case '\r':
				b.WriteString(`\r`)
			case '\t':
				b.WriteString(`\t`)
			default:
				if c < 0x20 {
					b.WriteString(`\u00`)
					b.WriteByte("0123456789abcdef"[c>>4])
					b.WriteByte("0123456789abcdef"[c&15])
				} else {
					b.WriteByte(c)
				}
			}
		}
		b.WriteByte('"')
	case KindList, KindTuple, KindIterator:
		items := v.Items()
		if v.kind() == KindIterator {
			items = FilterList(v).Items()
		}
		b.WriteByte('[')
		if len(items) > 0 {
			newline()
			for i, it := range items {
				pad(level + 1)
				writeLlamaJSON(b, it, level+1, indent, itemSep, keySep)
				if i < len(items)-1 {
					b.WriteString(itemSep)
				}
				newline()
			}
			pad(level)
		}
		b.WriteByte(']')
	case KindDict:
		d := v.dict()
		b.WriteByte('{')
		if d.Len() > 0 {
			newline()
			for i, k := range d.keys() {
				pad(level + 1)
				writeLlamaJSON(b, Str(llamaString(k)), level+1, indent, itemSep, keySep)
				b.WriteString(keySep)
				writeLlamaJSON(b, d.at(i), level+1, indent, itemSep, keySep)
				if i < d.Len()-1 {
					b.WriteString(itemSep)
				}
				newline()
			}
			pad(level)
		}
		b.WriteByte('}')
	default: // none, undefined and what is no JSON
		b.WriteString("null")
	}
}

// ostreamDouble is a double as C++'s ostream writes it by default (%g, six digits).
func ostreamDouble(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	return strconv.FormatFloat(f, 'g', 6, 64) // %g's digits, exponent and trimmed zeros
}
