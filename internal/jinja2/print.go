package jinja2

import (
	"math"
	"math/big"
	"strconv"
	"unicode/utf8"

	"github.com/tmplgen/tmplgen/internal/pystr"
)

// maxReprDepth bounds how deeply nested containers are printed; deeper levels print as
// "..." (Python prints a self-containing object the same way).
const maxReprDepth = 200

// String returns Python's str(v): None, True, 1.0, a str as itself, lists and dicts as
// their repr. Undefined prints as the empty string.
func (v Value) String() string {
	switch v.kind() {
	case KindString:
		return v.str()
	case KindUndefined:
		return ""
	case KindInt:
		if v.ptr == nil {
			return strconv.FormatInt(v.num(), 10)
		}
	}
	return string(appendStr(nil, v))
}

// Repr returns Python's repr(v).
func (v Value) Repr() string { return string(appendRepr(nil, v, 0)) }

// appendStr appends Python's str(v).
func appendStr(b []byte, v Value) []byte {
	switch v.kind() {
	case KindUndefined:
		return b
	case KindString:
		return append(b, v.str()...)
	}
	return appendRepr(b, v, 0)
}

// maxStrDigits is Python's limit on the digits of an int converted to or from decimal
// text (sys.get_int_max_str_digits()).
const maxStrDigits = 4300

// appendDecimal appends the decimal digits of i, raising Python's ValueError for an int
// of more than maxStrDigits digits.
func appendDecimal(b []byte, i *big.Int) []byte {
	// an int of 14286 bits or more is at least 2**14285, which has 4301 digits
	if i.BitLen() < 14286 {
		n := len(b)
		b = i.Append(b, 10)
		digits := len(b) - n
		if i.Sign() < 0 {
			digits-- // the minus sign
		}
		if digits <= maxStrDigits {
			return b
		}
	}
	throw(ValueError, "Exceeds the limit (%d digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit", maxStrDigits)
	return nil
}

// appendRepr appends Python's repr(v).
func appendRepr(b []byte, v Value, depth int) []byte {
	if depth > maxReprDepth {
		return append(b, "..."...)
	}
	switch v.kind() {
	case KindUndefined:
		return append(b, "Undefined"...)
	case KindNone:
		return append(b, "None"...)
	case KindBool:
		if v.num() != 0 {
			return append(b, "True"...)
		}
		return append(b, "False"...)
	case KindInt:
		if v.ptr != nil {
			return appendDecimal(b, v.bigInt())
		}
		return strconv.AppendInt(b, v.num(), 10)
	case KindFloat:
		return appendFloatRepr(b, v.float())
	case KindString:
		if v.IsMarkup() {
			b = append(b, "Markup("...)
			return append(appendQuoted(b, v.str()), ')')
		}
		return appendQuoted(b, v.str())
	case KindList, KindTuple:
		if isRange(v) {
			return append(b, v.list().name...)
		}
		if v.kind() == KindList && v.list().name != "" {
			// a dict view: dict_items([...])
			b = append(b, v.list().name...)
			b = append(b, '(')
			return append(appendRepr(b, ListOf(v.list().items()), depth), ')')
		}
		items := v.list().items()
		open, close := byte('['), byte(']')
		if v.kind() == KindTuple {
			open, close = '(', ')'
		}
		b = append(b, open)
		for i, it := range items {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = appendRepr(b, it, depth+1)
		}
		if v.kind() == KindTuple && len(items) == 1 {
			b = append(b, ',')
		}
		return append(b, close)
	case KindDict:
		return appendDictRepr(b, v.dict(), depth)
	case KindNamespace:
		b = append(b, "<Namespace "...)
		return append(appendDictRepr(b, &v.namespace().attrs, depth), '>')
	case KindCallable:
		return append(b, v.callable().repr()...)
	case KindLoop:
		l := v.loop()
		b = append(b, "<LoopContext "...)
		b = strconv.AppendInt(b, int64(l.index+1), 10)
		b = append(b, '/')
		b = strconv.AppendInt(b, int64(l.length()), 10)
		return append(b, '>')
	case KindIterator:
		return append(b, "<"+v.iterator().typeName+" object>"...)
	case KindObject:
		if r, ok := v.object().(interface{ repr() string }); ok {
			return append(b, r.repr()...)
		}
		return append(b, "<"+v.TypeName()+" object>"...)
	}
	return b
}

func appendDictRepr(b []byte, d *Dict, depth int) []byte {
	b = append(b, '{')
	for i, k := range d.keys() {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = appendRepr(b, k, depth+1)
		b = append(b, ": "...)
		b = appendRepr(b, d.at(i), depth+1)
	}
	return append(b, '}')
}

// appendQuoted appends s quoted as Python's repr() of a str: single quotes unless the
// text has a single quote and no double quote; backslash escapes for the quote,
// backslash, \t \n \r and characters that are not printable.
func appendQuoted(b []byte, s string) []byte {
	q := byte('\'')
	if containsByte(s, '\'') && !containsByte(s, '"') {
		q = '"'
	}
	b = append(b, q)
	for _, r := range s {
		switch {
		case r == rune(q) || r == '\\':
			b = append(b, '\\', byte(r))
		case r == '\t':
			b = append(b, `\t`...)
		case r == '\n':
			b = append(b, `\n`...)
		case r == '\r':
			b = append(b, `\r`...)
		case r < ' ' || r == 0x7f:
			b = appendHexEscape(b, 'x', r, 2)
		case r < 0x80:
			b = append(b, byte(r))
		case pystr.IsPrintable(r):
			b = utf8.AppendRune(b, r)
		case r < 0x100:
			b = appendHexEscape(b, 'x', r, 2)
		case r < 0x10000:
			b = appendHexEscape(b, 'u', r, 4)
		default:
			b = appendHexEscape(b, 'U', r, 8)
		}
	}
	return append(b, q)
}

func appendHexEscape(b []byte, c byte, r rune, width int) []byte {
	b = append(b, '\\', c)
	const hex = "0123456789abcdef"
	for i := width - 1; i >= 0; i-- {
		b = append(b, hex[(r>>(4*i))&0xf])
	}
	return b
}

func containsByte(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}

// appendFloatRepr appends Python's repr of a float: the shortest digits that round-trip,
// in fixed notation for exponents from -5 to 15 (with ".0" when integral) and in
// scientific notation otherwise ("1e+16", "1.5e-07").
func appendFloatRepr(b []byte, f float64) []byte {
	switch {
	case math.IsInf(f, 1):
		return append(b, "inf"...)
	case math.IsInf(f, -1):
		return append(b, "-inf"...)
	case math.IsNaN(f):
		return append(b, "nan"...)
	}
	var tmp [32]byte
	e := strconv.AppendFloat(tmp[:0], f, 'e', -1, 64)
	if e[0] == '-' {
		b = append(b, '-')
		e = e[1:]
	}
	// e is d[.ddd]e±XX
	var digits []byte
	i := 0
	for ; e[i] != 'e'; i++ {
		if e[i] != '.' {
			digits = append(digits, e[i])
		}
	}
	exp, _ := strconv.Atoi(string(e[i+1:]))
	decpt := exp + 1
	if decpt <= -4 || decpt > 16 {
		b = append(b, digits[0])
		if len(digits) > 1 {
			b = append(b, '.')
			b = append(b, digits[1:]...)
		}
		b = append(b, 'e')
		if exp < 0 {
			b = append(b, '-')
			exp = -exp
		} else {
			b = append(b, '+')
		}
		if exp < 10 {
			b = append(b, '0')
		}
		return strconv.AppendInt(b, int64(exp), 10)
	}
	switch {
	case decpt <= 0:
		b = append(b, "0."...)
		for j := 0; j < -decpt; j++ {
			b = append(b, '0')
		}
		return append(b, digits...)
	case decpt >= len(digits):
		b = append(b, digits...)
		for j := len(digits); j < decpt; j++ {
			b = append(b, '0')
		}
		return append(b, ".0"...)
	}
	b = append(b, digits[:decpt]...)
	b = append(b, '.')
	return append(b, digits[decpt:]...)
}
