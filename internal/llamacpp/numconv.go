package llamacpp

import (
	"math"
	"strconv"
	"strings"

	"github.com/tmplgen/tmplgen/internal/jinja2"
)

// llamaStrInt is llama.cpp's int of a str, int(s, default=0, base=10): C++'s std::stoi,
// which reads what C's strtol reads at the start of s (spaces, a sign, digits of the
// base, a 0x prefix for base 16 or 0, a leading 0 meaning octal for base 0) into a C
// int (32 bits); when it reads no digit, or the number does not fit, the default.
func llamaStrInt(s string, args []jinja2.Value, kwargs []jinja2.Kwarg) jinja2.Value {
	def, _ := kwargOrPos(args, kwargs, "default", 0)
	base := int64(10)
	if b, ok := kwargOrPos(args, kwargs, "base", 1); ok && !b.IsUndefined() {
		base = asInt(b)
	}
	if base != 0 && (base < 2 || base > 36) {
		jinja2.Throw(EngineError, "int() base must be 0 or between 2 and 36")
	}
	if n, ok := cStrtol(s, int(base)); ok && n >= math.MinInt32 && n <= math.MaxInt32 {
		return jinja2.Int(n)
	}
	if def.IsUndefined() {
		return jinja2.Int(0)
	}
	return jinja2.Int(asInt(def))
}

// cInt64 is C++'s static_cast<int64_t> of a double, as x86-64 computes it (cvttsd2si,
// which llama-server's builds run): the value truncated toward zero, and for a NaN, an
// infinity or a value beyond int64, the "integer indefinite" value, INT64_MIN.
func cInt64(f float64) int64 {
	if math.IsNaN(f) || f >= 1<<63 || f < -(1<<63) {
		return math.MinInt64
	}
	return int64(f)
}

// cStrtol is C's strtol(s, NULL, base) for a base of 0 or 2 to 36 (glibc before C23: no
// 0b prefix); ok is false when it reads no digit or the number overflows a long.
func cStrtol(s string, base int) (n int64, ok bool) {
	i := 0
	for i < len(s) && isCSpace(s[i]) {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	hexPrefix := i+2 < len(s) && s[i] == '0' && s[i+1]|0x20 == 'x' && digitValue(s[i+2]) < 16
	switch {
	case (base == 0 || base == 16) && hexPrefix:
		base = 16
		i += 2
	case base == 0 && i < len(s) && s[i] == '0':
		base = 8
	case base == 0:
		base = 10
	}
	var u uint64
	start, overflow := i, false
	for ; i < len(s) && digitValue(s[i]) < base; i++ {
		next := u*uint64(base) + uint64(digitValue(s[i]))
		if next/uint64(base) != u || next > 1<<63 {
			overflow = true
		}
		u = next
	}
	if i == start || overflow || !neg && u == 1<<63 {
		return 0, false
	}
	if neg {
		return -int64(u), true
	}
	return int64(u), true
}

// digitValue is the value of the digit c in bases up to 36, or 36 for another byte.
func digitValue(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c|0x20 && c|0x20 <= 'z':
		return int(c|0x20-'a') + 10
	}
	return 36
}

// llamaStrFloat is llama.cpp's float of a str, float(s, default=0.0): C++'s std::stod,
// which reads what C's strtod reads at the start of s (spaces, a sign, a decimal number
// with an optional exponent, a hexadecimal one, inf, infinity or nan); when it reads no
// number, or the number overflows or underflows a double, the default.
func llamaStrFloat(s string, args []jinja2.Value, kwargs []jinja2.Kwarg) jinja2.Value {
	if f, ok := cStrtod(s); ok {
		return jinja2.Float(f)
	}
	def, _ := kwargOrPos(args, kwargs, "default", 0)
	if def.IsUndefined() {
		return jinja2.Float(0)
	}
	return jinja2.Float(asDouble(def))
}

// cStrtod is C's strtod(s, NULL) with std::stod's range check: ok is false when it reads
// no number, or the number is beyond a double's range or below its normal numbers.
func cStrtod(s string) (float64, bool) {
	i := 0
	for i < len(s) && isCSpace(s[i]) {
		i++
	}
	sign := ""
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		sign = s[i : i+1]
		i++
	}
	rest := strings.ToLower(s[i:])
	switch {
	case strings.HasPrefix(rest, "inf") && sign == "-":
		return math.Inf(-1), true
	case strings.HasPrefix(rest, "inf"):
		return math.Inf(1), true
	case strings.HasPrefix(rest, "nan"):
		return math.NaN(), true
	}
	hex := len(rest) > 2 && rest[0] == '0' && rest[1] == 'x' && (digitValue(rest[2]) < 16 || rest[2] == '.' && len(rest) > 3 && digitValue(rest[3]) < 16)
	digit := func(c byte) bool { return '0' <= c && c <= '9' }
	if hex {
		digit = func(c byte) bool { return digitValue(c) < 16 }
		rest = rest[2:]
	}
	// the mantissa: digits, a point and digits, at least one digit in all
	k, digits := 0, 0
	for ; k < len(rest) && digit(rest[k]); k++ {
		digits++
	}
	if k < len(rest) && rest[k] == '.' {
		for k++; k < len(rest) && digit(rest[k]); k++ {
			digits++
		}
	}
	if digits == 0 {
		return 0, false
	}
	mantissa := rest[:k]
	// the exponent, when a sign and digits follow its letter
	exp, mark := "p0", byte('p')
	if !hex {
		exp, mark = "", 'e'
	}
	if k < len(rest) && rest[k] == mark {
		e := k + 1
		if e < len(rest) && (rest[e] == '+' || rest[e] == '-') {
			e++
		}
		d := e
		for d < len(rest) && '0' <= rest[d] && rest[d] <= '9' {
			d++
		}
		if d > e {
			exp = rest[k:d]
		}
	}
	if hex {
		mantissa = "0x" + mantissa
	}
	f, err := strconv.ParseFloat(sign+mantissa+exp, 64)
	if err != nil || f != 0 && math.Abs(f) < 0x1p-1022 || f == 0 && strings.Trim(mantissa, "0x.") != "" {
		return 0, false // ERANGE: overflow, or underflow to a subnormal or zero
	}
	return f, true
}

// asInt is llama.cpp's as_int of a number (a float truncated as C converts it); another
// value is not an int.
func asInt(v jinja2.Value) int64 {
	if !isNumeric(v) {
		jinja2.Throw(EngineError, "%s is not an int value", llamaTypeName(v))
	}
	return valInt(v)
}
