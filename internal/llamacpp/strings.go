package llamacpp

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/tmplgen/tmplgen/internal/jinja2"
	"github.com/tmplgen/tmplgen/internal/pystr"
)

// llama.cpp's str builtins and tojson where they differ from Jinja2's (value.cpp,
// string.cpp): upper, lower, title and capitalize map ASCII letters only (C's toupper
// and tolower byte by byte; title starts a word after C's isspace); split without a
// separator splits at each single space (so ''.split() is ['']); length counts bytes
// ('ü'|length is 2, as llama.cpp's strs are bytes); tojson writes floats
// as C++'s ostream does (six significant digits: 3.0 is 3, 0.1 + 0.2 is 0.3), undefined
// as null, escapes only quotes, backslashes and control characters, and indents as
// Jinja2's.

// llamaStrBuiltin runs the str builtins above on the str v, ok false for another.
func llamaStrBuiltin(id string, v jinja2.Value, args []jinja2.Value, kwargs []jinja2.Kwarg) (jinja2.Value, bool) {
	s := v.Text()
	switch id {
	case "upper":
		return jinja2.Str(mapASCII(s, func(i int, prev byte) bool { return true })), true
	case "lower":
		return jinja2.Str(mapASCII(s, func(i int, prev byte) bool { return false })), true
	case "capitalize":
		return jinja2.Str(mapASCII(s, func(i int, prev byte) bool { return i == 0 })), true
	case "title":
		return jinja2.Str(mapASCII(s, func(i int, prev byte) bool { return i == 0 || isCSpace(prev) })), true
	case "split", "rsplit":
		return llamaSplit(id, s, args, kwargs), true
	case "length":
		return jinja2.Int(int64(len(s))), true
	case "indent":
		return llamaIndent(s, args, kwargs), true
	case "int":
		return llamaStrInt(s, args, kwargs), true
	case "float":
		return llamaStrFloat(s, args, kwargs), true
	case "replace":
		if argCount(args, kwargs) > 2 {
			// a count: one that is not positive replaces every old, another is refused
			count, ok := int64(0), false
			if len(args) == 3 && len(kwargs) == 0 && args[2].Kind() == jinja2.KindInt {
				count, ok = args[2].AsInt()
			}
			if !ok || count > 0 {
				notImplemented("String replace with count argument not implemented")
			}
		}
		if len(args) >= 2 && args[0].Kind() == jinja2.KindString && args[1].Kind() == jinja2.KindString {
			return jinja2.Str(llamaReplace(s, args[0].Text(), args[1].Text())), true
		}
	case "strip", "lstrip", "rstrip":
		start, end := llamaStrip(s, id != "rstrip", id != "lstrip", args, kwargs)
		return jinja2.Substr(v, start, end), true
	}
	return jinja2.Value{}, false
}

// llamaReplace is llama.cpp's str replace: every old in s replaced by new, or with an
// empty old, new before and after each byte of s (Python's goes by characters).
func llamaReplace(s, old, new string) string {
	if old != "" {
		return strings.ReplaceAll(s, old, new)
	}
	var b strings.Builder
	b.Grow(len(s) + len(new)*(len(s)+1))
	b.WriteString(new)
	for i := 0; i < len(s); i++ {
		b.WriteByte(s[i])
		b.WriteString(new)
	}
	return b.String()
}

// llamaStrip is llama.cpp's strip, lstrip and rstrip (and the trim filter): the bytes
// that are C's isspace (ASCII whitespace only, where Python strips Unicode's), or the
// bytes of the argument chars (each byte of a multibyte character on its own), taken
// off the left and the right of s: what remains is s[start:end].
func llamaStrip(s string, left, right bool, args []jinja2.Value, kwargs []jinja2.Kwarg) (start, end int) {
	strip := isCSpace
	if chars, ok := kwargOrPos(args, kwargs, "chars", 0); ok && !chars.IsUndefined() {
		set := llamaString(chars)
		strip = func(c byte) bool { return strings.IndexByte(set, c) >= 0 }
	}
	start, end = 0, len(s)
	for left && start < end && strip(s[start]) {
		start++
	}
	for right && end > start && strip(s[end-1]) {
		end--
	}
	return start, end
}

// mapASCII is s with each ASCII letter upper-cased where upper says so (given the
// letter's index and the byte before it), lower-cased elsewhere: s itself when that
// changes no letter.
func mapASCII(s string, upper func(i int, prev byte) bool) string {
	var b []byte // a copy of s, from its first changed letter on
	var room [32]byte
	var prev byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z' && upper(i, prev):
			c = c - 'a' + 'A'
		case 'A' <= c && c <= 'Z' && !upper(i, prev):
			c = c - 'A' + 'a'
		}
		if c != s[i] {
			if b == nil {
				b = append(room[:0], s...) // on the stack when short: the string is the one allocation
			}
			b[i] = c
		}
		prev = s[i]
	}
	switch {
	case b == nil:
		return s
	case len(b) == 1: // message['role'][:1] | upper and the like
		return pystr.ASCIIChar(b[0])
	}
	return string(b)
}

// isCSpace is C's isspace.
func isCSpace(c byte) bool { return c == ' ' || '\t' <= c && c <= '\r' }

// llamaSplit is llama.cpp's split(sep=" ", maxsplit=-1) and rsplit of the str s: the
// separator is the string form of any value (none splits at "None"), spaces are no
// special case, and keyword arguments are not read (one in the place of an argument is
// an error).
func llamaSplit(id, s string, args []jinja2.Value, kwargs []jinja2.Kwarg) jinja2.Value {
	if n := 1 + argCount(args, kwargs); n > 3 {
		jinja2.Throw(EngineError, "Function '%s' expected between 1 and 3 arguments, got %d", id, n)
	}
	sep, maxsplit := " ", int64(-1)
	if n := argCount(args, kwargs); n > 0 {
		switch {
		case len(args) == 0:
			jinja2.Throw(EngineError, "KwArg is not a string value")
		case args[0].Kind() == jinja2.KindUndefined:
			jinja2.Throw(EngineError, "Undefined is not a string value")
		}
		sep = llamaString(args[0])
		if n > 1 {
			if len(args) < 2 {
				jinja2.Throw(EngineError, "KwArg is not an int value")
			}
			maxsplit = asInt(args[1])
		}
	}
	if sep == "" {
		jinja2.Throw(EngineError, "empty separator")
	}
	var room [8]jinja2.Value
	items := room[:0] // on the stack for up to 8 parts: NewList copies them
	for ; maxsplit != 0; maxsplit-- {
		i := strings.Index(s, sep)
		if id == "rsplit" {
			i = strings.LastIndex(s, sep)
		}
		if i < 0 {
			break
		}
		if id == "rsplit" {
			items = append(items, jinja2.Str(s[i+len(sep):]))
			s = s[:i]
		} else {
			items = append(items, jinja2.Str(s[:i]))
			s = s[i+len(sep):]
		}
	}
	items = append(items, jinja2.Str(s))
	if id == "rsplit" {
		slices.Reverse(items)
	}
	return jinja2.NewList(items...)
}

// llamaToJSON is llama.cpp's tojson(indent, separators): value_to_json.
func llamaToJSON(v jinja2.Value, args []jinja2.Value, kwargs []jinja2.Kwarg) jinja2.Value {
	o := jsonOptionsOf(args, kwargs)
	buf := jsonBuffers.Get().(*[]byte)
	b := o.append((*buf)[:0], v)
	js := string(b)
	if cap(b) <= maxPooledJSON {
		*buf = b
		jsonBuffers.Put(buf)
	}
	return jinja2.Str(js)
}

// jsonOptions are the arguments of llama.cpp's tojson: the indent (-1 for none), the
// separators and ensure_ascii.
type jsonOptions struct {
	indent          int
	itemSep, keySep string
	ensureASCII     bool
}

// jsonOptionsOf reads the arguments of tojson (indent, separators, ensure_ascii, by
// name or place).
func jsonOptionsOf(args []jinja2.Value, kwargs []jinja2.Kwarg) jsonOptions {
	o := jsonOptions{indent: -1, itemSep: ", ", keySep: ": "}
	var seps jinja2.Value
	if n, ok := kwargOrPos(args, kwargs, "indent", 1); ok && n.Kind() == jinja2.KindInt {
		i, _ := n.AsInt()
		o.indent = int(i)
	}
	if s, ok := kwargOrPos(args, kwargs, "separators", 2); ok {
		seps = s
	}
	if o.indent >= 0 {
		o.itemSep = ","
	}
	if seps.Kind() == jinja2.KindList || seps.Kind() == jinja2.KindTuple {
		if items := seps.Items(); len(items) > 0 {
			o.itemSep = llamaAsString(items[0])
			if len(items) > 1 {
				o.keySep = llamaAsString(items[1])
			}
		}
	}
	if a, ok := kwargOrPos(args, kwargs, "ensure_ascii", 0); ok && a.Truthy() {
		o.ensureASCII = true
	}
	return o
}

// append appends the JSON of v, as tojson with the options o gives it, to b.
func (o jsonOptions) append(b []byte, v jinja2.Value) []byte {
	start := len(b)
	b = appendLlamaJSON(b, v, 0, o.indent, o.itemSep, o.keySep)
	jinja2.CheckSize(len(b) - start)
	if o.ensureASCII && !isASCII(b[start:]) {
		b = appendLlamaEnsureASCII(b[:start], string(b[start:]))
	}
	return b
}

// jsonBuffers recycles the buffers llamaToJSON encodes into.
var jsonBuffers = sync.Pool{New: func() any { return new([]byte) }}

// isASCII reports whether b has no byte beyond ASCII.
func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// maxPooledJSON is the largest buffer jsonBuffers keeps.
const maxPooledJSON = 64 << 10

// appendLlamaEnsureASCII appends the JSON text js as json_ensure_ascii_preserving_format
// gives it: each non-ASCII character of its strings as \uxxxx (a surrogate pair beyond
// the BMP; \ufffd for a byte that is not UTF-8).
func appendLlamaEnsureASCII(b []byte, js string) []byte {
	const hex = "0123456789abcdef"
	u16 := func(v rune) {
		b = append(b, '\\', 'u', hex[v>>12&0xF], hex[v>>8&0xF], hex[v>>4&0xF], hex[v&0xF])
	}
	inString, escaped := false, false
	for i := 0; i < len(js); {
		c := js[i]
		switch {
		case !inString || escaped || c < 0x80:
			b = append(b, c)
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
			b = append(b, `\ufffd`...)
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
	return b
}

// appendLlamaJSON appends v as llama.cpp's tojson writes it (nlohmann::json's dump):
// indent spaces a level (none on one line when indent is negative), itemSep and keySep
// between items and after keys, a float as its ostream writes it, what is no JSON null.
func appendLlamaJSON(b []byte, v jinja2.Value, level, indent int, itemSep, keySep string) []byte {
	switch v.Kind() {
	case jinja2.KindBool:
		return strconv.AppendBool(b, v.Truthy())
	case jinja2.KindInt:
		return append(b, v.String()...)
	case jinja2.KindFloat:
		return append(b, ostreamDouble(floatOf(v))...)
	case jinja2.KindString:
		return jinja2.AppendJSONStr(b, v)
	case jinja2.KindList, jinja2.KindTuple, jinja2.KindIterator:
		items := v.Items()
		if v.Kind() == jinja2.KindIterator {
			items = jinja2.FilterList(v).Items()
		}
		b = append(b, '[')
		for i, it := range items {
			if i > 0 {
				b = append(b, itemSep...)
			}
			b = jsonLine(b, level+1, indent)
			b = appendLlamaJSON(b, it, level+1, indent, itemSep, keySep)
		}
		if len(items) > 0 {
			b = jsonLine(b, level, indent)
		}
		return append(b, ']')
	case jinja2.KindDict, jinja2.KindNamespace:
		d := object(v)
		b = append(b, '{')
		vals := d.Values()
		for i, k := range d.Keys() {
			if i > 0 {
				b = append(b, itemSep...)
			}
			b = jsonLine(b, level+1, indent)
			if k.Kind() == jinja2.KindString {
				b = jinja2.AppendJSONStr(b, k)
			} else {
				b = appendLlamaJSONString(b, llamaString(k))
			}
			b = append(b, keySep...)
			b = appendLlamaJSON(b, vals[i], level+1, indent, itemSep, keySep)
		}
		if len(vals) > 0 {
			b = jsonLine(b, level, indent)
		}
		return append(b, '}')
	}
	return append(b, "null"...) // none, undefined and what is no JSON
}

// jsonLine starts a line of appendLlamaJSON's at the indentation of level: nothing on one
// line (indent negative).
func jsonLine(b []byte, level, indent int) []byte {
	if indent < 0 {
		return b
	}
	b = append(b, '\n')
	for range level * indent {
		b = append(b, ' ')
	}
	return b
}

// appendLlamaJSONString appends the JSON string of s as nlohmann::json dumps it: ", \\,
// and the control characters escaped (\b \f \n \r \t, the others \u00xx), other bytes
// as they are, which is json.dumps's escaping without ensure_ascii.
func appendLlamaJSONString(b []byte, s string) []byte { return jinja2.AppendJSONString(b, s, false) }

// ostreamDouble is a double as C++'s ostream writes it by default (%g, six digits).
func ostreamDouble(f float64) string {
	switch {
	case math.IsNaN(f):
		return cNaN(f)
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	return strconv.FormatFloat(f, 'g', 6, 64) // %g's digits, exponent and trimmed zeros
}

// maxIndent bounds the width of llamaIndent's indentation (llama.cpp takes any).
const maxIndent = 1 << 16

// llamaIndent is llama.cpp's indent(s, width=4, first=false, blank=false): s's lines
// (getline's: split at \n, no empty line after a final one) joined with \n, each but the
// first (with first, every one) prefixed with width spaces (or the str width), the empty
// ones too only with blank. Its test of the first line is whether nothing was written
// yet, so that an empty first line and the newline after it vanish unless first is set.
func llamaIndent(s string, args []jinja2.Value, kwargs []jinja2.Kwarg) jinja2.Value {
	if n := 1 + argCount(args, kwargs); n > 4 {
		jinja2.Throw(EngineError, "Function 'indent' expected between 1 and 4 arguments, got %d", n)
	}
	indent := "    "
	switch width, _ := kwargOrPos(args, kwargs, "width", 0); width.Kind() {
	case jinja2.KindInt:
		n := asInt(width)
		if n < 0 || n > maxIndent {
			jinja2.Throw(EngineError, "indent() width %d is out of range", n)
		}
		indent = strings.Repeat(" ", int(n))
	case jinja2.KindString:
		indent = width.Text()
	}
	first, _ := kwargOrPos(args, kwargs, "first", 1)
	blank, _ := kwargOrPos(args, kwargs, "blank", 2)
	var b strings.Builder
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	if s == "" {
		lines = nil
	}
	for _, line := range lines {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		if b.Len() == 0 && first.Truthy() || b.Len() > 0 && (line != "" || blank.Truthy()) {
			b.WriteString(indent)
		}
		b.WriteString(line)
	}
	if strings.HasSuffix(s, "\n") {
		b.WriteByte('\n')
		if blank.Truthy() {
			b.WriteString(indent)
		}
	}
	return jinja2.Str(b.String())
}
