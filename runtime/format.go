package runtime

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// formatPercent is Python's printf-style str % values.
func formatPercent(format Value, values Value) Value {
	markup := format.IsMarkup()
	var args []Value
	var mapping *Dict
	switch values.kind {
	case KindTuple:
		args = values.p.(*List).Items
	case KindDict:
		mapping = values.p.(*Dict)
		args = []Value{values}
	default:
		args = []Value{values}
	}
	f := format.s
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
		start := i
		i++
		if i >= len(f) {
			throw(ValueError, "incomplete format")
		}
		var arg Value
		haveArg := false
		if f[i] == '(' {
			if mapping == nil {
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
			spec.width = optInt(takeArg(), 0)
			i++
		} else {
			spec.width, i = readNum(f, i)
		}
		spec.prec = -1
		if i < len(f) && f[i] == '.' {
			i++
			if i < len(f) && f[i] == '*' {
				spec.prec = optInt(takeArg(), 0)
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
		if verb == '%' {
			b = append(b, '%')
			continue
		}
		if !haveArg {
			arg = takeArg()
		}
		if markup && (verb == 's' || verb == 'r' || verb == 'a') {
			if verb == 's' {
				arg = Markup(escapeUnlessMarkup(arg))
			} else {
				arg = Markup(escapeHTML(arg.Repr()))
			}
			verb = 's'
		}
		b = append(b, pctOne(verb, spec, arg, start, f)...)
		checkSize(len(b))
	}
	if next < len(args) && mapping == nil && !usedMapping {
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

// pctOne formats one conversion of a printf-style format.
func pctOne(verb byte, spec pctSpec, arg Value, at int, f string) string {
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
		if spec.prec >= 0 {
			body = truncateRunes(body, spec.prec)
		}
	case 'd', 'i', 'u':
		numeric = true
		if !arg.isNumber() {
			throw(TypeError, "%%%c format: a real number is required, not %s", verb, arg.TypeName())
		}
		i := arg
		if arg.kind == KindFloat {
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
		case arg.kind == KindString && utf8.RuneCountInString(arg.s) == 1:
			body = arg.s
		case arg.isIntegral() && !arg.isBig() && arg.n >= 0 && arg.n <= utf8.MaxRune:
			body = string(rune(arg.n))
		default:
			throw(TypeError, "%%c requires int or char")
		}
	default:
		throw(ValueError, "unsupported format character '%c' (0x%x) at index %d", verb, verb, at+1)
	}
	return padField(body, spec, numeric)
}

func truncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

func pctInt(i *big.Int, base int, spec pctSpec, alt bool) string {
	digits := new(big.Int).Abs(i).Text(base)
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
	if upperCase {
		s = strings.ToUpper(s)
	}
	return s
}

// formatG is C's %g: precision significant digits, scientific notation when the
// exponent is below -4 or not below the precision, trailing zeros removed unless alt.
func formatG(f float64, prec int, alt bool) string {
	e := strconv.FormatFloat(f, 'e', prec-1, 64)
	exp, _ := strconv.Atoi(e[strings.IndexByte(e, 'e')+1:])
	var s string
	if exp < -4 || exp >= prec {
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

// strFormat is str.format(*args, **kwargs) as Jinja2's sandbox runs it: fields are
// looked up with the sandbox's attribute and item rules.
func strFormat(r Value, args []Value, kwargs []Kwarg) Value {
	var b strings.Builder
	s := r.s
	auto, manual := 0, false
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
		case c != '{':
			b.WriteByte(c)
			i++
			continue
		}
		// a replacement field: find its end, allowing one level of nested braces in the spec
		depth, j := 1, i+1
		for j < len(s) && depth > 0 {
			switch s[j] {
			case '{':
				depth++
			case '}':
				depth--
			}
			j++
		}
		if depth > 0 {
			throw(ValueError, "expected '}' before end of string")
		}
		field := s[i+1 : j-1]
		i = j
		name, conv, spec := splitField(field)
		if strings.Contains(spec, "{") {
			spec = strFormat(Str(spec), args, kwargs).s
		}
		first, rest := fieldHead(name)
		var v Value
		if first == "" {
			if manual {
				throw(ValueError, "cannot switch from manual field specification to automatic field numbering")
			}
			if auto >= len(args) {
				throw(IndexError, "Replacement index %d out of range for positional args tuple", auto)
			}
			v = args[auto]
			auto++
		} else if n, err := strconv.Atoi(first); err == nil {
			if auto > 0 {
				throw(ValueError, "cannot switch from automatic field numbering to manual field specification")
			}
			manual = true
			if n >= len(args) {
				throw(IndexError, "Replacement index %d out of range for positional args tuple", n)
			}
			v = args[n]
		} else {
			k := kwargIndex(kwargs, first)
			if k < 0 {
				throw(KeyError, "%s", Str(first).Repr())
			}
			v = kwargs[k].Value
		}
		v = fieldPath(v, rest)
		switch conv {
		case "r", "a":
			v = Str(v.Repr())
		case "s":
			v = Str(v.String())
		case "":
		default:
			throw(ValueError, "Unknown conversion specifier %s", conv)
		}
		b.WriteString(formatSpec(v, spec))
		checkSize(b.Len())
	}
	return sameKind(r, b.String())
}

// splitField splits "name!conv:spec".
func splitField(field string) (name, conv, spec string) {
	name = field
	if i := strings.IndexByte(name, ':'); i >= 0 && !strings.Contains(name[:i], "[") {
		name, spec = name[:i], name[i+1:]
	} else if i := strings.IndexByte(name, ']'); i >= 0 {
		if k := strings.IndexByte(name[i:], ':'); k >= 0 {
			name, spec = name[:i+k], name[i+k+1:]
		}
	}
	if i := strings.IndexByte(name, '!'); i >= 0 {
		name, conv = name[:i], name[i+1:]
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

// formatSpec is Python's format(value, spec) for str, int and float values.
func formatSpec(v Value, spec string) string {
	if spec == "" {
		return v.String()
	}
	var fill rune = ' '
	var align byte
	p := 0
	if r, size := utf8.DecodeRuneInString(spec); len(spec) > size && strings.IndexByte("<>=^", spec[size]) >= 0 {
		fill, align, p = r, spec[size], size+1
	} else if len(spec) > 0 && strings.IndexByte("<>=^", spec[0]) >= 0 {
		align, p = spec[0], 1
	}
	sign := byte('-')
	if p < len(spec) && strings.IndexByte("+- ", spec[p]) >= 0 {
		sign = spec[p]
		p++
	}
	alt := false
	if p < len(spec) && spec[p] == '#' {
		alt = true
		p++
	}
	if p < len(spec) && spec[p] == '0' {
		if align == 0 {
			fill, align = '0', '='
		}
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
		typ = spec[p]
		p++
	}
	if p != len(spec) {
		throw(ValueError, "Invalid format specifier")
	}
	var body string
	numeric := v.isNumber()
	switch {
	case v.kind == KindString || (!numeric && typ == 0):
		if typ != 0 && typ != 's' {
			throw(ValueError, "Unknown format code '%c' for object of type '%s'", typ, v.TypeName())
		}
		body = v.String()
		if prec >= 0 {
			body = truncateRunes(body, prec)
		}
		if align == 0 {
			align = '<'
		}
	case numeric && (typ == 0 || strings.IndexByte("dbxXoc", typ) >= 0) && v.kind != KindFloat:
		i := v.bigInt()
		switch typ {
		case 'b':
			body = new(big.Int).Abs(i).Text(2)
		case 'o':
			body = new(big.Int).Abs(i).Text(8)
		case 'x':
			body = new(big.Int).Abs(i).Text(16)
		case 'X':
			body = strings.ToUpper(new(big.Int).Abs(i).Text(16))
		case 'c':
			body = string(rune(i.Int64()))
		default:
			body = new(big.Int).Abs(i).Text(10)
			body = groupDigits(body, group)
		}
		if alt && typ != 0 && typ != 'd' && typ != 'c' {
			body = "0" + string(typ) + body
		}
		body = applySign(body, i.Sign() < 0, sign)
	case numeric:
		f := toFloat(v)
		switch typ {
		case 0:
			if prec < 0 {
				body = string(appendFloatRepr(nil, math.Abs(f)))
			} else {
				body = formatG(math.Abs(f), max(prec, 1), alt)
				if !strings.ContainsAny(body, ".e") && !math.IsInf(f, 0) {
					body += ".0"
				}
			}
		case '%':
			if prec < 0 {
				prec = 6
			}
			body = formatFloatVerb(math.Abs(f)*100, 'f', prec, alt) + "%"
		case 'e', 'E', 'f', 'F', 'g', 'G':
			if prec < 0 {
				prec = 6
			}
			body = formatFloatVerb(math.Abs(f), typ, prec, alt)
		default:
			throw(ValueError, "Unknown format code '%c' for object of type '%s'", typ, v.TypeName())
		}
		if group != "" {
			intPart, frac := body, ""
			if k := strings.IndexAny(body, ".e%"); k >= 0 {
				intPart, frac = body[:k], body[k:]
			}
			body = groupDigits(intPart, group) + frac
		}
		body = applySign(body, math.Signbit(f) && !math.IsNaN(f), sign)
	default:
		throw(TypeError, "unsupported format string passed to %s.__format__", v.TypeName())
	}
	if align == 0 {
		align = '>'
	}
	n := utf8.RuneCountInString(body)
	if width <= n {
		return body
	}
	checkSize(width)
	pad := width - n
	f := string(fill)
	switch align {
	case '<':
		return body + strings.Repeat(f, pad)
	case '^':
		return strings.Repeat(f, pad/2) + body + strings.Repeat(f, pad-pad/2)
	case '=':
		sgn := ""
		if len(body) > 0 && strings.IndexByte("+- ", body[0]) >= 0 {
			sgn, body = body[:1], body[1:]
		}
		return sgn + strings.Repeat(f, pad) + body
	}
	return strings.Repeat(f, pad) + body
}

func applySign(body string, negative bool, sign byte) string {
	switch {
	case negative:
		return "-" + body
	case sign == '+':
		return "+" + body
	case sign == ' ':
		return " " + body
	}
	return body
}

func groupDigits(digits, sep string) string {
	if sep == "" || len(digits) <= 3 {
		return digits
	}
	var b strings.Builder
	lead := len(digits) % 3
	if lead > 0 {
		b.WriteString(digits[:lead])
	}
	for i := lead; i < len(digits); i += 3 {
		if b.Len() > 0 {
			b.WriteString(sep)
		}
		b.WriteString(digits[i : i+3])
	}
	return b.String()
}
