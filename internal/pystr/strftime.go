package pystr

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Strftime formats t as Python's datetime.strftime does on glibc: C strftime directives
// as glibc implements them, %[flags][width][E|O]conversion, with the flags _ (pad with
// spaces), - (no padding), 0 (pad with zeros), ^ (upper case) and # (swap the case of
// names), a width that pads the result, and a directive glibc does not know copied as
// it is; %f is the microseconds (Python's), %z and %Z are empty (a naive datetime).
func Strftime(t time.Time, format string) string { return strftime(t, format, false) }

// GlibcStrftime formats t as C's strftime of glibc does (for a program that calls it, as
// llama.cpp does): Strftime's directives, but %f is not one, and %z and %Z give t's zone.
func GlibcStrftime(t time.Time, format string) string { return strftime(t, format, true) }

func strftime(t time.Time, format string, glibc bool) string {
	var b strings.Builder
	b.Grow(2 * len(format))
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			b.WriteByte(format[i])
			continue
		}
		start := i
		d := strftimeDirective{width: -1, glibc: glibc}
		j := i + 1
		for ; j < len(format) && strings.IndexByte("_-0^#", format[j]) >= 0; j++ {
			switch format[j] {
			case '^':
				d.upper = true
			case '#':
				d.swap = true
			default:
				d.pad = format[j]
			}
		}
		if j < len(format) && format[j] >= '1' && format[j] <= '9' {
			d.width = 0
			for ; j < len(format) && format[j] >= '0' && format[j] <= '9'; j++ {
				d.width = min(d.width*10+int(format[j]-'0'), 1024)
			}
		}
		var modifier byte
		if j < len(format) && (format[j] == 'E' || format[j] == 'O') {
			modifier = format[j]
			j++
		}
		if j >= len(format) {
			// a % at the end: glibc copies what there is
			b.WriteString(format[start:])
			break
		}
		i = j
		if format[j] == 'f' && (j != start+1 || glibc) {
			// Python itself replaces a bare %f; glibc does not know it
			b.WriteString(d.padText(d.unknown(format[start : j+1])))
			continue
		}
		if format[j] == 'z' && !glibc {
			// a naive datetime's tm_isdst is -1, for which glibc writes no %z at all,
			// whatever its width (a %Z is empty, but padded)
			continue
		}
		out, ok := d.convert(t, format[j], modifier)
		if !ok {
			out = d.unknown(format[start : j+1])
		}
		b.WriteString(d.padText(out))
	}
	return b.String()
}

// strftimeDirective is the flags and width of one % directive.
type strftimeDirective struct {
	pad   byte // '_', '-', '0' or 0
	upper bool // ^
	swap  bool // #
	width int  // -1 when not given
	glibc bool // GlibcStrftime's, not Python's
}

// padText pads a converted directive to its width, as glibc's add() does: with zeros
// under the 0 flag, spaces otherwise.
func (d *strftimeDirective) padText(s string) string {
	if n := utf8.RuneCountInString(s); d.width > n {
		fill := " "
		if d.pad == '0' {
			fill = "0"
		}
		return strings.Repeat(fill, d.width-n) + s
	}
	return s
}

// num formats a number of at least digits digits (or the width), padded with zeros, or
// spaces when spacePad (for %e, %k, %l, %s) or the _ flag says so; - turns padding off.
func (d *strftimeDirective) num(v, digits int, spacePad bool) string {
	if v >= 0 && v < 100 && digits == 2 && d.width <= 2 && d.pad == 0 && !spacePad {
		// %d, %m, %H, %M, %S...: two digits, from a table
		return twoDigits[2*v : 2*v+2]
	}
	s := strconv.Itoa(v)
	pad := d.pad
	if spacePad && pad != '0' && pad != '-' {
		pad = '_'
	}
	if pad == '-' {
		return s
	}
	digits = max(digits, d.width)
	fill := "0"
	if pad == '_' {
		fill = " "
	}
	if n := len(s); n < digits {
		s = strings.Repeat(fill, digits-n) + s
	}
	return s
}

// twoDigits holds 00 to 99.
const twoDigits = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

// text applies the case flags to a name: ^ upper-cases, # upper-cases too (glibc's
// "swap case" of a name that starts with a capital).
func (d *strftimeDirective) text(s string) string {
	if d.upper || d.swap {
		return strings.ToUpper(s)
	}
	return s
}

// zoneOffset is glibc's %z of t: the sign, and hours and minutes as a number of four
// digits. Unlike other numbers, the width pads both: the sign is written as a text of
// that width, then the number as another number of that width.
func (d *strftimeDirective) zoneOffset(t time.Time) string {
	_, off := t.Zone()
	sign := "+"
	if off < 0 {
		sign, off = "-", -off
	}
	return d.padText(sign) + d.padText(d.num(off/3600*100+off/60%60, 4, false))
}

// unknown is what glibc writes for a directive it does not know: the directive as it
// is, its ASCII letters upper-cased under the ^ flag (as its other text is).
func (d *strftimeDirective) unknown(directive string) string {
	if !d.upper {
		return directive
	}
	b := []byte(directive)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - ('a' - 'A')
		}
	}
	return string(b)
}

// convert formats one conversion; ok is false for one glibc does not know (or a
// modifier it does not take).
func (d *strftimeDirective) convert(t time.Time, c, modifier byte) (string, bool) {
	// the conversions glibc (2.36) takes an E or O modifier on, which it ignores: any
	// other with one is a directive it does not know
	switch modifier {
	case 'E':
		if strings.IndexByte("cCnpPrRstTuxXyYzZ%", c) < 0 {
			return "", false
		}
	case 'O':
		if strings.IndexByte("bBCdeghGHIjklmMnpPrRsStTuUVwWyzZ%", c) < 0 {
			return "", false
		}
	}
	sub := func(f string) string {
		s := Strftime(t, f)
		if d.upper {
			s = strings.ToUpper(s)
		}
		return s
	}
	hour12 := t.Hour() % 12
	if hour12 == 0 {
		hour12 = 12
	}
	switch c {
	case 'a':
		return d.text(t.Weekday().String()[:3]), true
	case 'A':
		return d.text(t.Weekday().String()), true
	case 'b', 'h':
		return d.text(t.Month().String()[:3]), true
	case 'B':
		return d.text(t.Month().String()), true
	case 'c':
		return sub("%a %b %e %H:%M:%S %Y"), true
	case 'C':
		// a year's digits, as %Y: glibc pads neither to two digits ("9" in 999)
		return d.num(t.Year()/100, 1, false), true
	case 'd':
		return d.num(t.Day(), 2, false), true
	case 'D', 'x':
		return sub("%m/%d/%y"), true
	case 'e':
		return d.num(t.Day(), 2, true), true
	case 'F':
		return sub("%Y-%m-%d"), true
	case 'f':
		return d.num(t.Nanosecond()/1000, 6, false), true
	case 'G':
		y, _ := t.ISOWeek()
		return d.num(y, 1, false), true
	case 'g':
		y, _ := t.ISOWeek()
		return d.num(y%100, 2, false), true
	case 'H':
		return d.num(t.Hour(), 2, false), true
	case 'I':
		return d.num(hour12, 2, false), true
	case 'j':
		return d.num(t.YearDay(), 3, false), true
	case 'k':
		return d.num(t.Hour(), 2, true), true
	case 'l':
		return d.num(hour12, 2, true), true
	case 'm':
		return d.num(int(t.Month()), 2, false), true
	case 'M':
		return d.num(t.Minute(), 2, false), true
	case 'n':
		return "\n", true
	case 'p', 'P':
		s := "AM"
		if t.Hour() >= 12 {
			s = "PM"
		}
		if c == 'P' || d.swap {
			return strings.ToLower(s), true
		}
		return s, true
	case 'r':
		return sub("%I:%M:%S %p"), true
	case 'R':
		return sub("%H:%M"), true
	case 's':
		return d.num(int(t.Unix()), 1, true), true // glibc pads it with spaces
	case 'S':
		return d.num(t.Second(), 2, false), true
	case 't':
		return "\t", true
	case 'T', 'X':
		return sub("%H:%M:%S"), true
	case 'u':
		wd := int(t.Weekday())
		if wd == 0 {
			wd = 7
		}
		return d.num(wd, 1, false), true
	case 'U':
		return d.num((t.YearDay()+6-int(t.Weekday()))/7, 2, false), true
	case 'V':
		_, w := t.ISOWeek()
		return d.num(w, 2, false), true
	case 'w':
		return d.num(int(t.Weekday()), 1, false), true
	case 'W':
		return d.num((t.YearDay()+6-(int(t.Weekday())+6)%7)/7, 2, false), true
	case 'y':
		return d.num(t.Year()%100, 2, false), true
	case 'Y':
		return d.num(t.Year(), 1, false), true
	case 'z', 'Z':
		switch {
		case !d.glibc:
			return "", true // a naive datetime has no zone (its %z is not converted)
		case c == 'z':
			return d.zoneOffset(t), true
		}
		zone, _ := t.Zone()
		switch {
		case d.swap: // glibc lowers a zone's name under #, even with ^
			return strings.ToLower(zone), true
		case d.upper:
			return strings.ToUpper(zone), true
		}
		return zone, true
	case '%':
		return "%", true
	}
	return "", false
}
