package jinja2

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tmplgen/tmplgen/internal/pystr"
)

// formatPercent is Python's printf-style str % values.
func formatPercent(format Value, values Value) Value {
	markup := format.IsMarkup()
	var args []Value
	var mapping *Dict
	// a list is a mapping too to Python's % (PyMapping_Check: it has __getitem__),
	// which a format need not use up ("ab" % [] is "ab")
	subscriptable := false
	switch values.kind() {
	case KindTuple:
		args = values.list().items()
	case KindDict:
		mapping = values.dict()
		args = []Value{values}
	case KindList:
		args, subscriptable = []Value{values}, true
	default:
		args = []Value{values}
	}
	f := format.str()
	var b []byte
	next := 0
	usedMapping := false
	for i := 0; i < len(f); {
		c := f[i]
		if c != '%' {
			j := strings.IndexByte(f[i:], '%')
			if j < 0 {
				j = len(f) - i
			}
			b = append(b, f[i:i+j]...)
			i += j
			continue
		}
		i++
		if i >= len(f) {
			throw(ValueError, "incomplete format")
		}
		if f[i] == '%' {
			// only "%%" is a literal percent sign: with a key, flags or a width it is a
			// conversion that takes an argument and then fails
			b = append(b, '%')
			i++
			continue
		}
		var arg Value
		haveArg := false
		if f[i] == '(' {
			switch {
			case subscriptable:
				throw(TypeError, "list indices must be integers or slices, not str")
			case mapping == nil:
				throw(TypeError, "format requires a mapping")
			}
			depth, j := 1, i+1
			for j < len(f) && depth > 0 {
				switch f[j] {
				case '(':
					depth++
				case ')':
					depth--
				}
				j++
			}
			if depth > 0 {
				throw(ValueError, "incomplete format key")
			}
			key := f[i+1 : j-1]
			v, ok := mapping.GetStr(key)
			if !ok {
				throw(KeyError, "%s", Str(key).Repr())
			}
			arg, haveArg, usedMapping = v, true, true
			next = len(args) // a conversion without a key can no longer take the mapping
			i = j
		}
		var spec pctSpec
		for i < len(f) && strings.IndexByte("-+ #0", f[i]) >= 0 {
			spec.flags += string(f[i])
			i++
		}
		takeArg := func() Value {
			if next >= len(args) {
				throw(TypeError, "not enough arguments for format string")
			}
			next++
			return args[next-1]
		}
		if i < len(f) && f[i] == '*' {
			spec.width = intArg(takeArg(), 0)
			if spec.width < 0 {
				// a negative * width left-justifies
				spec.flags += "-"
				spec.width = -spec.width
			}
			i++
		} else {
			spec.width, i = readNum(f, i)
		}
		spec.prec = -1
		if i < len(f) && f[i] == '.' {
			i++
			if i < len(f) && f[i] == '*' {
				spec.prec = intArg(takeArg(), 0)
				i++
			} else {
				spec.prec, i = readNum(f, i)
			}
		}
		for i < len(f) && strings.IndexByte("hlL", f[i]) >= 0 {
			i++
		}
		if i >= len(f) {
			throw(ValueError, "incomplete format")
		}
		verb := f[i]
		i++
		if !haveArg {
			arg = takeArg()
		}
		if markup && (verb == 's' || verb == 'r' || verb == 'a') {
			if verb == 's' {
				arg = Markup(escapeUnlessMarkup(arg))
			} else {
				arg = Markup(pystr.EscapeHTML(arg.Repr()))
			}
			verb = 's'
		}
		b = append(b, pctOne(verb, spec, arg, f, i-1)...)
		checkSize(len(b))
	}
	if next < len(args) && mapping == nil && !subscriptable && !usedMapping {
		throw(TypeError, "not all arguments converted during string formatting")
	}
	if markup {
		return Markup(string(b))
	}
	return Str(string(b))
}

type pctSpec struct {
	flags string
	width int
	prec  int
}

func readNum(f string, i int) (int, int) {
	n := 0
	for i < len(f) && f[i] >= '0' && f[i] <= '9' {
		n = min(n*10+int(f[i]-'0'), MaxValueSize)
		i++
	}
	return n, i
}

// pctOne formats one conversion of a printf-style format: verb is the conversion
// character, the byte at of the format f.
func pctOne(verb byte, spec pctSpec, arg Value, f string, at int) string {
	var body string
	numeric := false
	switch verb {
	case 's':
		body = arg.String()
		if spec.prec >= 0 {
			body = truncateRunes(body, spec.prec)
		}
	case 'r', 'a':
		body = arg.Repr()
		if verb == 'a' {
			body = asciiEscape(body)
		}
		if spec.prec >= 0 {
			body = truncateRunes(body, spec.prec)
		}
	case 'd', 'i', 'u':
		numeric = true
		if !arg.isNumber() {
			if arg.kind() == KindUndefined {
				arg.undefinedError() // its __int__
			}
			throw(TypeError, "%%%c format: a real number is required, not %s", verb, arg.TypeName())
		}
		i := arg
		if arg.kind() == KindFloat {
			i = floatToInt(arg.float())
		}
		body = pctInt(i.bigInt(), 10, spec, false)
	case 'x', 'X', 'o':
		numeric = true
		if !arg.isIntegral() {
			throw(TypeError, "%%%c format: an integer is required, not %s", verb, arg.TypeName())
		}
		base := 16
		if verb == 'o' {
			base = 8
		}
		body = pctInt(arg.bigInt(), base, spec, strings.Contains(spec.flags, "#"))
		if verb == 'X' {
			body = strings.ToUpper(body)
		}
	case 'e', 'E', 'f', 'F', 'g', 'G':
		numeric = true
		if !arg.isNumber() {
			if arg.kind() == KindUndefined {
				arg.undefinedError() // its __float__
			}
			throw(TypeError, "must be real number, not %s", arg.TypeName())
		}
		prec := spec.prec
		if prec < 0 {
			prec = 6
		}
		body = formatFloatVerb(toFloat(arg), verb, prec, strings.Contains(spec.flags, "#"))
		body = signed(body, spec.flags)
	case 'c':
		switch {
		case arg.kind() == KindString && utf8.RuneCountInString(arg.str()) == 1:
			body = arg.str()
		case arg.isIntegral():
			body = charOf(arg.bigInt(), charRange)
		default:
			throw(TypeError, "%%c requires int or char")
		}
	default:
		// Python names the character if it is printable ASCII, and counts characters
		r, _ := utf8.DecodeRuneInString(f[at:])
		shown := byte('?')
		if ' ' <= r && r <= '~' {
			shown = byte(r)
		}
		throw(ValueError, "unsupported format character '%c' (0x%x) at index %d", shown, r, utf8.RuneCountInString(f[:at]))
	}
	return padField(body, spec, numeric)
}

// charOf is the character of code point i, for %c and the c format type: an
// OverflowError beyond the code points, whose message is tooLarge for an int beyond 64
// bits, as Python's.
func charOf(i *big.Int, tooLarge string) string {
	if !i.IsInt64() {
		throw(OverflowError, "%s", tooLarge)
	}
	if n := i.Int64(); n < 0 || n > utf8.MaxRune {
		throw(OverflowError, "%s", charRange)
	}
	return string(rune(i.Int64()))
}

// charRange is Python's error for a code point out of range.
const charRange = "%c arg not in range(0x110000)"

func truncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

func pctInt(i *big.Int, base int, spec pctSpec, alt bool) string {
	var digits string
	if base == 10 {
		digits = string(appendDecimal(nil, new(big.Int).Abs(i)))
	} else {
		digits = new(big.Int).Abs(i).Text(base)
	}
	if spec.prec > len(digits) {
		digits = strings.Repeat("0", spec.prec-len(digits)) + digits
	}
	if alt {
		if base == 16 {
			digits = "0x" + digits
		} else if base == 8 {
			digits = "0o" + digits
		}
	}
	if i.Sign() < 0 {
		return "-" + digits
	}
	return signed(digits, spec.flags)
}

func signed(body, flags string) string {
	if strings.HasPrefix(body, "-") {
		return body
	}
	switch {
	case strings.Contains(flags, "+"):
		return "+" + body
	case strings.Contains(flags, " "):
		return " " + body
	}
	return body
}

// padField pads a converted value to the field width: left-justified with "-", with
// zeros after the sign for numbers with "0", otherwise with leading spaces.
func padField(body string, spec pctSpec, numeric bool) string {
	n := utf8.RuneCountInString(body)
	if spec.width <= n {
		return body
	}
	checkSize(spec.width)
	fill := spec.width - n
	switch {
	case strings.Contains(spec.flags, "-"):
		return body + strings.Repeat(" ", fill)
	case numeric && strings.Contains(spec.flags, "0"):
		sign := ""
		if len(body) > 0 && strings.IndexByte("+- ", body[0]) >= 0 {
			sign, body = body[:1], body[1:]
		}
		if strings.HasPrefix(body, "0x") || strings.HasPrefix(body, "0X") || strings.HasPrefix(body, "0o") {
			sign, body = sign+body[:2], body[2:]
		}
		return sign + strings.Repeat("0", fill) + body
	}
	return strings.Repeat(" ", fill) + body
}

// formatFloatVerb formats f as C's printf does for e, f and g (Python's % and format).
func formatFloatVerb(f float64, verb byte, prec int, alt bool) string {
	upperCase := verb == 'E' || verb == 'F' || verb == 'G'
	var s string
	switch {
	case math.IsInf(f, 0) || math.IsNaN(f):
		s = "inf"
		if math.IsNaN(f) {
			s = "nan"
		} else if f < 0 {
			s = "-inf"
		}
	case verb == 'e' || verb == 'E':
		s = strconv.FormatFloat(f, 'e', prec, 64)
	case verb == 'f' || verb == 'F':
		s = strconv.FormatFloat(f, 'f', prec, 64)
	default:
		if prec == 0 {
			prec = 1
		}
		s = formatG(f, prec, alt)
	}
	if alt && !math.IsInf(f, 0) && !math.IsNaN(f) {
		s = withPoint(s)
	}
	if upperCase {
		s = strings.ToUpper(s)
	}
	return s
}

// formatG is C's %g: precision significant digits, scientific notation when the
// exponent is below -4 or not below the precision, trailing zeros removed unless alt.
func formatG(f float64, prec int, alt bool) string { return formatGExp(f, prec, prec, alt) }

// formatGAddDot0 is formatG as Python formats a float for a precision without a type:
// scientific notation from an exponent of precision-1 on, and ".0" after a number that
// would look like an int.
func formatGAddDot0(f float64, prec int, alt bool) string {
	s := formatGExp(f, prec, prec-1, alt)
	switch {
	case alt:
		s = withPoint(s)
	case !strings.ContainsAny(s, ".e"):
		s += ".0"
	}
	return s
}

// withPoint gives the digits of a formatted number a decimal point, as the # flag
// keeps it: "1." and "1.e+00".
func withPoint(s string) string {
	if strings.Contains(s, ".") {
		return s
	}
	if k := strings.IndexByte(s, 'e'); k >= 0 {
		return s[:k] + "." + s[k:]
	}
	return s + "."
}

// formatGExp is formatG with scientific notation from the exponent sci on.
func formatGExp(f float64, prec, sci int, alt bool) string {
	e := strconv.FormatFloat(f, 'e', prec-1, 64)
	exp, _ := strconv.Atoi(e[strings.IndexByte(e, 'e')+1:])
	var s string
	if exp < -4 || exp >= sci {
		s = e
		if !alt {
			mant, rest := s[:strings.IndexByte(s, 'e')], s[strings.IndexByte(s, 'e'):]
			if strings.Contains(mant, ".") {
				mant = strings.TrimRight(strings.TrimRight(mant, "0"), ".")
			}
			s = mant + rest
		}
		return s
	}
	s = strconv.FormatFloat(f, 'f', max(prec-1-exp, 0), 64)
	if !alt && strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// strFormat is str.format(*args, **kwargs) as Jinja2's sandbox runs it (its
// SandboxedFormatter, a string.Formatter): fields are looked up with the sandbox's
// attribute and item rules. On Markup it is markupsafe's escaping formatter: every
// field that is not Markup is escaped.
func strFormat(r Value, args []Value, kwargs []Kwarg) Value {
	f := &formatter{args: args, kwargs: kwargs, markup: r.IsMarkup()}
	return FromTemplateCall(sameKind(r, f.vformat(r.str(), 2)), r, args, kwargs)
}

// strFormatMap is str.format_map(mapping): str.format with the fields named by the keys
// of mapping.
func strFormatMap(r Value, args []Value, kwargs []Kwarg) Value {
	if len(args) != 1 || len(kwargs) > 0 {
		throw(TypeError, "format_map() takes exactly one argument %d given", len(args)+len(kwargs))
	}
	f := &formatter{mapping: args[0], markup: r.IsMarkup()}
	return sameKind(r, f.vformat(r.str(), 2))
}

// formatter is Python's string.Formatter running one format call.
type formatter struct {
	args    []Value
	kwargs  []Kwarg
	mapping Value // format_map's mapping, when set
	markup  bool
	auto    int  // the next automatic field number
	manual  bool // a field was numbered by hand (no automatic numbering after)
}

// vformat is string.Formatter._vformat: literal text and replacement fields, whose
// format specs are themselves formatted (depth bounds that recursion).
func (f *formatter) vformat(s string, depth int) string {
	if depth < 0 {
		throw(ValueError, "Max string recursion exceeded")
	}
	if strings.IndexAny(s, "{}") < 0 {
		return s // no field and no escaped brace: the text as it is
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '{' && i+1 < len(s) && s[i+1] == '{':
			b.WriteByte('{')
			i += 2
			continue
		case c == '}' && i+1 < len(s) && s[i+1] == '}':
			b.WriteByte('}')
			i += 2
			continue
		case c == '}':
			throw(ValueError, "Single '}' encountered in format string")
		case c == '{' && i+1 == len(s):
			throw(ValueError, "Single '{' encountered in format string")
		case c != '{':
			// the literal text up to the next brace
			n := strings.IndexAny(s[i:], "{}")
			if n < 0 {
				n = len(s) - i
			}
			b.WriteString(s[i : i+n])
			i += n
			continue
		}
		// a replacement field: find its end as Python's formatter_parser does, counting
		// the braces of nested fields; in the field's name (up to a ':' or '!') a '['
		// hides all up to the next ']'
		count, j, inName := 1, i+1, true
		for j < len(s) && count > 0 {
			switch c := s[j]; {
			case inName && c == '[':
				if k := strings.IndexByte(s[j:], ']'); k >= 0 {
					j += k
				} else {
					j = len(s) - 1
				}
			case inName && (c == ':' || c == '!'):
				inName = false
			case inName && c == '{':
				throw(ValueError, "unexpected '{' in field name")
			case c == '{':
				count++
			case c == '}':
				count--
			}
			j++
		}
		if count > 0 {
			throw(ValueError, "expected '}' before end of string")
		}
		field := s[i+1 : j-1]
		i = j
		name, conv, spec := splitField(field)
		v := f.field(name)
		switch conv {
		case "":
		case "r":
			v = Str(v.Repr())
		case "s":
			v = Str(v.String())
		case "a":
			v = Str(asciiEscape(v.Repr()))
		default:
			throw(ValueError, "Unknown conversion specifier %s", conv)
		}
		spec = f.vformat(spec, depth-1)
		b.WriteString(f.formatField(v, spec))
		checkSize(b.Len())
	}
	return b.String()
}

// field looks up a field name: an argument by number (or the next one when the name is
// empty) or by keyword, then its .attr and [key] accessors.
func (f *formatter) field(name string) Value {
	first, rest := fieldHead(name)
	var v Value
	// string.Formatter numbers a field with an empty name and counts as manual only a
	// name of digits alone ({0[k]} is neither)
	if name == "" {
		if f.manual {
			throw(ValueError, "cannot switch from manual field specification to automatic field numbering")
		}
		first = strconv.Itoa(f.auto)
		f.auto++
	} else if isAllDigits(name) {
		if f.auto > 0 {
			// string.Formatter's words, the same both ways
			throw(ValueError, "cannot switch from manual field specification to automatic field numbering")
		}
		f.manual = true
	}
	if n, err := strconv.Atoi(first); err == nil && isAllDigits(first) {
		if f.mapping.kind() != KindUndefined || n >= len(f.args) {
			// string.Formatter's args[n], which the sandbox formats with
			throw(IndexError, "tuple index out of range")
		}
		v = f.args[n]
	} else if f.mapping.kind() != KindUndefined {
		d := f.mapping.AsDict()
		if d == nil {
			throw(TypeError, "'%s' object is not subscriptable", f.mapping.TypeName())
		}
		var ok bool
		if v, ok = d.GetStr(first); !ok {
			throw(KeyError, "%s", Str(first).Repr())
		}
	} else {
		k := kwargIndex(f.kwargs, first)
		if k < 0 {
			throw(KeyError, "%s", Str(first).Repr())
		}
		v = f.kwargs[k].Value
	}
	return fieldPath(v, rest)
}

// formatField is format(value, spec), escaped when formatting Markup (a Markup value
// is kept as it is, and takes no spec).
func (f *formatter) formatField(v Value, spec string) string {
	if !f.markup {
		return formatSpec(v, spec)
	}
	if v.IsMarkup() {
		if spec != "" {
			throw(ValueError, "Unsupported format specification for Markup.")
		}
		return v.str()
	}
	return pystr.EscapeHTML(formatSpec(v, spec))
}

// asciiEscape is what Python's ascii() does to a repr: every non-ASCII character
// becomes a \xhh, \uhhhh or \Uhhhhhhhh escape.
func asciiEscape(s string) string {
	if pystr.IsASCII(s) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < utf8.RuneSelf:
			b.WriteRune(r)
		case r < 0x100:
			fmt.Fprintf(&b, "\\x%02x", r)
		case r < 0x10000:
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			fmt.Fprintf(&b, "\\U%08x", r)
		}
	}
	return b.String()
}

// splitField splits a replacement field "name!conv:spec" as Python's parser does: the
// name ends at the first ':' or '!' outside [brackets], a conversion is one character
// followed by ':' or the end.
func splitField(field string) (name, conv, spec string) {
	i := 0
	for i < len(field) {
		c := field[i]
		if c == '[' {
			for i < len(field) && field[i] != ']' {
				i++
			}
			continue
		}
		if c == ':' || c == '!' {
			break
		}
		i++
	}
	name = field[:i]
	if i < len(field) && field[i] == '!' {
		if i+1 >= len(field) {
			throw(ValueError, "end of string while looking for conversion specifier")
		}
		_, size := utf8.DecodeRuneInString(field[i+1:])
		conv = field[i+1 : i+1+size]
		i += 1 + size
		if i < len(field) && field[i] != ':' {
			throw(ValueError, "expected ':' after conversion specifier")
		}
	}
	if i < len(field) {
		spec = field[i+1:]
	}
	return name, conv, spec
}

// fieldHead splits the first name of a field from its .attr and [key] accessors.
func fieldHead(name string) (string, string) {
	i := strings.IndexAny(name, ".[")
	if i < 0 {
		return name, ""
	}
	return name[:i], name[i:]
}

// fieldPath applies .attr and [key] accessors of a format field.
func fieldPath(v Value, path string) Value {
	for path != "" {
		switch path[0] {
		case '.':
			j := strings.IndexAny(path[1:], ".[")
			if j < 0 {
				j = len(path) - 1
			}
			if j == 0 {
				throw(ValueError, "Empty attribute in format string")
			}
			v = v.Attr(path[1 : 1+j])
			path = path[1+j:]
		case '[':
			j := strings.IndexByte(path, ']')
			if j < 0 {
				throw(ValueError, "Missing ']' in format string")
			}
			key := path[1:j]
			if n, err := strconv.Atoi(key); err == nil {
				v = v.Item(Int(int64(n)))
			} else {
				v = v.Item(Str(key))
			}
			path = path[j+1:]
		default:
			throw(ValueError, "Only '.' or '[' may follow ']' in format field specifier")
		}
	}
	return v
}

// formatSpec is Python's format(value, spec) for str, int and float values; other
// values accept only the empty spec.
func formatSpec(v Value, spec string) string {
	if spec == "" {
		return v.String()
	}
	numeric := v.isNumber()
	if !numeric && v.kind() != KindString {
		throw(TypeError, "unsupported format string passed to %s.__format__", v.TypeName())
	}
	var fill rune = ' '
	var align byte
	fillGiven := false
	p := 0
	if r, size := utf8.DecodeRuneInString(spec); len(spec) > size && strings.IndexByte("<>=^", spec[size]) >= 0 {
		fill, align, p, fillGiven = r, spec[size], size+1, true
	} else if len(spec) > 0 && strings.IndexByte("<>=^", spec[0]) >= 0 {
		align, p = spec[0], 1
	}
	var sign byte // '+', '-', ' ', or 0 when the spec gives none
	if p < len(spec) && strings.IndexByte("+- ", spec[p]) >= 0 {
		sign = spec[p]
		p++
	}
	alt := false
	if p < len(spec) && spec[p] == '#' {
		alt = true
		p++
	}
	zero := false
	if p < len(spec) && spec[p] == '0' {
		zero = true
		p++
	}
	width, p := readNum(spec, p)
	group := ""
	if p < len(spec) && (spec[p] == ',' || spec[p] == '_') {
		group = spec[p : p+1]
		p++
	}
	prec := -1
	if p < len(spec) && spec[p] == '.' {
		prec, p = readNum(spec, p+1)
	}
	typ := byte(0)
	if p < len(spec) {
		if r, size := utf8.DecodeRuneInString(spec[p:]); r >= utf8.RuneSelf && p+size == len(spec) {
			unknownFormatCode(r, v) // a type beyond ASCII is none Python knows
		}
		typ = spec[p]
		p++
	}
	if p != len(spec) {
		throw(ValueError, "Invalid format specifier '%s' for object of type '%s'", spec, v.TypeName())
	}
	checkGrouping(v, group, typ)
	if zero {
		// the 0 flag: zero fill unless a fill is given, sign-aware unless aligned
		if !fillGiven {
			fill = '0'
		}
		if align == 0 {
			align = '='
			if v.kind() == KindString {
				align = '<'
			}
		}
	}
	if v.kind() == KindString {
		switch {
		case typ != 0 && typ != 's':
			unknownFormatCode(rune(typ), v)
		case sign == ' ':
			throw(ValueError, "Space not allowed in string format specifier")
		case sign != 0:
			throw(ValueError, "Sign not allowed in string format specifier")
		case alt:
			throw(ValueError, "Alternate form (#) not allowed in string format specifier")
		case align == '=':
			throw(ValueError, "'=' alignment not allowed in string format specifier")
		}
		body := v.str()
		if prec >= 0 {
			body = truncateRunes(body, prec)
		}
		if align == 0 {
			align = '<'
		}
		return padFormatted("", body, width, fill, align)
	}
	// a number: sign, prefix, digits (grouped) and the rest (fraction, exponent, %)
	var prefix, digits, rest string
	negative := false
	interval := 3
	if v.kind() != KindFloat && (typ == 0 || strings.IndexByte("dbxXocn", typ) >= 0) {
		if prec >= 0 {
			throw(ValueError, "Precision not allowed in integer format specifier")
		}
		i := v.bigInt()
		negative = i.Sign() < 0
		abs := new(big.Int).Abs(i)
		switch typ {
		case 'b', 'o', 'x', 'X':
			base := map[byte]int{'b': 2, 'o': 8, 'x': 16, 'X': 16}[typ]
			digits = abs.Text(base)
			if typ == 'X' {
				digits = strings.ToUpper(digits)
			}
			if alt {
				prefix = "0" + string(typ)
			}
			interval = 4 // "_" groups hex, octal and binary digits by four
		case 'c':
			switch {
			case sign != 0:
				throw(ValueError, "Sign not allowed with integer format specifier 'c'")
			case alt:
				throw(ValueError, "Alternate form (#) not allowed with integer format specifier 'c'")
			}
			digits, negative = charOf(i, "Python int too large to convert to C long"), false
		default:
			digits = string(appendDecimal(nil, abs))
		}
		return padNumber(negative, sign, prefix, digits, rest, group, interval, width, fill, align)
	}
	f := toFloat(v)
	var body string
	switch typ {
	case 0:
		// no type: repr without a precision, else a 'g' that keeps a ".0" and so turns
		// to an exponent one digit sooner (CPython's 'r' with Py_DTSF_ADD_DOT_0)
		switch {
		case math.IsInf(f, 0) || math.IsNaN(f):
			body = formatFloatVerb(math.Abs(f), 'g', 1, false)
		case prec < 0:
			body = string(appendFloatRepr(nil, math.Abs(f)))
			if alt {
				body = withPoint(body)
			}
		default:
			body = formatGAddDot0(math.Abs(f), max(prec, 1), alt)
		}
	case '%':
		if prec < 0 {
			prec = 6
		}
		body = formatFloatVerb(math.Abs(f)*100, 'f', prec, alt) + "%"
	case 'e', 'E', 'f', 'F', 'g', 'G', 'n':
		if prec < 0 {
			prec = 6
		}
		verb := typ
		if verb == 'n' {
			verb = 'g' // 'n' is 'g' with the C locale's separators: none
		}
		body = formatFloatVerb(math.Abs(f), verb, prec, alt)
	default:
		unknownFormatCode(rune(typ), v)
	}
	negative = math.Signbit(f) && !math.IsNaN(f)
	digits = body
	if k := strings.IndexFunc(body, func(r rune) bool { return r < '0' || r > '9' }); k >= 0 {
		digits, rest = body[:k], body[k:]
	}
	return padNumber(negative, sign, "", digits, rest, group, 3, width, fill, align)
}

// unknownFormatCode is Python's error for a format type it does not know for v: the
// character itself when it is printable ASCII, else its code in hexadecimal.
func unknownFormatCode(typ rune, v Value) {
	code := string(typ)
	if typ <= ' ' || typ >= 0x7f {
		code = fmt.Sprintf(`\x%x`, typ)
	}
	throw(ValueError, "Unknown format code '%s' for object of type '%s'", code, v.TypeName())
}

// checkGrouping refuses a thousands separator (group) with a format type that takes
// none, as Python's format spec parser does: v's type when typ is not given (s for a
// str, d for an int, none for a float).
func checkGrouping(v Value, group string, typ byte) {
	if group == "" {
		return
	}
	if typ == 0 {
		switch v.kind() {
		case KindString:
			typ = 's'
		case KindFloat:
			return
		default:
			typ = 'd'
		}
	}
	if strings.IndexByte("defgEG%F", typ) >= 0 || group == "_" && strings.IndexByte("boxX", typ) >= 0 {
		return
	}
	throw(ValueError, "Cannot specify '%s' with '%c'.", group, typ)
}

// padNumber assembles a formatted number: the sign, the prefix (0x), the digits grouped
// every interval with sep (with zero padding grouped too, as Python does when the fill
// is 0 and the alignment =), the rest (fraction, exponent) and the padding.
func padNumber(negative bool, sign byte, prefix, digits, rest, sep string, interval, width int, fill rune, align byte) string {
	signStr := ""
	switch {
	case negative:
		signStr = "-"
	case sign == '+':
		signStr = "+"
	case sign == ' ':
		signStr = " "
	}
	if sep != "" && digits != "" {
		minWidth := 0
		if fill == '0' && align == '=' {
			minWidth = width - len(signStr) - len(prefix) - utf8.RuneCountInString(rest)
		}
		digits = groupDigitsMin(digits, sep, interval, minWidth)
	}
	if align == 0 {
		align = '>'
	}
	return padFormatted(signStr+prefix, digits+rest, width, fill, align)
}

// padFormatted pads lead+body to width: lead is the sign and prefix of a number, which
// the = alignment keeps before the padding.
func padFormatted(lead, body string, width int, fill rune, align byte) string {
	n := utf8.RuneCountInString(lead) + utf8.RuneCountInString(body)
	if width <= n {
		return lead + body
	}
	checkSize(width)
	pad := width - n
	f := string(fill)
	switch align {
	case '<':
		return lead + body + strings.Repeat(f, pad)
	case '^':
		return strings.Repeat(f, pad/2) + lead + body + strings.Repeat(f, pad-pad/2)
	case '=':
		return lead + strings.Repeat(f, pad) + body
	}
	return strings.Repeat(f, pad) + lead + body
}

// groupDigitsMin inserts sep every interval digits from the right, as CPython's
// _PyUnicode_InsertThousandsGrouping does: with minWidth > 0, leading zeros (grouped
// too) are added until the result is at least that wide.
func groupDigitsMin(digits, sep string, interval, minWidth int) string {
	var groups []string // from the right
	remaining := len(digits)
	for {
		l := min(interval, max(remaining, minWidth, 1))
		zeros := max(0, l-remaining)
		chars := max(0, min(remaining, l))
		g := strings.Repeat("0", zeros) + digits[remaining-chars:remaining]
		if len(groups) > 0 {
			g += sep
		}
		groups = append(groups, g)
		remaining -= chars
		minWidth -= l
		if remaining <= 0 && minWidth <= 0 {
			break
		}
		minWidth -= len(sep)
	}
	var b strings.Builder
	for i := len(groups) - 1; i >= 0; i-- {
		b.WriteString(groups[i])
	}
	return b.String()
}
