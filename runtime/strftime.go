package runtime

import (
	"strconv"
	"strings"
	"time"
)

// StrftimeNow is transformers' strftime_now(format): the input's clock formatted as
// Python's datetime.now().strftime does on glibc (a naive time: %z and %Z are empty).
func StrftimeNow(in *Input, args []Value, kwargs []Kwarg) Value {
	a := bindArgs("strftime_now", args, kwargs, "format")
	if !given(a[0]) {
		throw(TypeError, "strftime_now() missing 1 required positional argument: 'format'")
	}
	if a[0].kind != KindString {
		throw(TypeError, "strftime() argument 1 must be str, not %s", a[0].TypeName())
	}
	return Str(Strftime(in.now(), a[0].s))
}

// Strftime formats t with C strftime directives as glibc implements them, including the
// flags - (no padding), _ (space padding) and 0.
func Strftime(t time.Time, format string) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 >= len(format) {
			b.WriteByte(c)
			continue
		}
		i++
		flag := byte(0)
		if strings.IndexByte("-_0^#", format[i]) >= 0 && i+1 < len(format) {
			flag = format[i]
			i++
		}
		num := func(v, width int, pad byte) {
			s := strconv.Itoa(v)
			switch flag {
			case '-':
				b.WriteString(s)
				return
			case '_':
				pad = ' '
			case '0':
				pad = '0'
			}
			for n := len(s); n < width; n++ {
				b.WriteByte(pad)
			}
			b.WriteString(s)
		}
		text := func(s string) {
			switch flag {
			case '^':
				s = strings.ToUpper(s)
			case '#':
				s = swapcase(s)
			}
			b.WriteString(s)
		}
		hour12 := t.Hour() % 12
		if hour12 == 0 {
			hour12 = 12
		}
		switch format[i] {
		case 'a':
			text(t.Weekday().String()[:3])
		case 'A':
			text(t.Weekday().String())
		case 'b', 'h':
			text(t.Month().String()[:3])
		case 'B':
			text(t.Month().String())
		case 'c':
			text(Strftime(t, "%a %b %e %H:%M:%S %Y"))
		case 'C':
			num(t.Year()/100, 2, '0')
		case 'd':
			num(t.Day(), 2, '0')
		case 'D':
			b.WriteString(Strftime(t, "%m/%d/%y"))
		case 'e':
			num(t.Day(), 2, ' ')
		case 'F':
			b.WriteString(Strftime(t, "%Y-%m-%d"))
		case 'f':
			num(t.Nanosecond()/1000, 6, '0')
		case 'G':
			y, _ := t.ISOWeek()
			num(y, 4, '0')
		case 'g':
			y, _ := t.ISOWeek()
			num(y%100, 2, '0')
		case 'H':
			num(t.Hour(), 2, '0')
		case 'I':
			num(hour12, 2, '0')
		case 'j':
			num(t.YearDay(), 3, '0')
		case 'k':
			num(t.Hour(), 2, ' ')
		case 'l':
			num(hour12, 2, ' ')
		case 'm':
			num(int(t.Month()), 2, '0')
		case 'M':
			num(t.Minute(), 2, '0')
		case 'n':
			b.WriteByte('\n')
		case 'p':
			if t.Hour() < 12 {
				text("AM")
			} else {
				text("PM")
			}
		case 'P':
			if t.Hour() < 12 {
				b.WriteString("am")
			} else {
				b.WriteString("pm")
			}
		case 'r':
			b.WriteString(Strftime(t, "%I:%M:%S %p"))
		case 'R':
			b.WriteString(Strftime(t, "%H:%M"))
		case 's':
			b.WriteString(strconv.FormatInt(t.Unix(), 10))
		case 'S':
			num(t.Second(), 2, '0')
		case 't':
			b.WriteByte('\t')
		case 'T', 'X':
			b.WriteString(Strftime(t, "%H:%M:%S"))
		case 'u':
			wd := int(t.Weekday())
			if wd == 0 {
				wd = 7
			}
			num(wd, 1, '0')
		case 'U':
			num((t.YearDay()+6-int(t.Weekday()))/7, 2, '0')
		case 'V':
			_, w := t.ISOWeek()
			num(w, 2, '0')
		case 'w':
			num(int(t.Weekday()), 1, '0')
		case 'W':
			num((t.YearDay()+6-(int(t.Weekday())+6)%7)/7, 2, '0')
		case 'x':
			b.WriteString(Strftime(t, "%m/%d/%y"))
		case 'y':
			num(t.Year()%100, 2, '0')
		case 'Y':
			num(t.Year(), 1, '0')
		case 'z', 'Z':
		case '%':
			b.WriteByte('%')
		default:
			b.WriteByte('%')
			if flag != 0 {
				b.WriteByte(flag)
			}
			b.WriteByte(format[i])
		}
	}
	return b.String()
}
