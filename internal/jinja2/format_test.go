package jinja2

import "testing"

// TestFormatPython checks str % value and '{:spec}'.format(value) against Python's
// answers, recorded by testdata/format/record.py: the same text, or an error of the
// same kind.
func TestFormatPython(t *testing.T) {
	var cases []struct {
		Kind, Fmt string
		Val       recordedValue
		answer
	}
	readCases(t, "format", &cases)
	for _, c := range cases {
		v := c.Val.value(t)
		got, e := formatted(c.Kind, c.Fmt, v)
		c.check(t, c.Fmt+" of "+v.Repr(), got, e)
	}
}

// formatted formats v by the %-format or format string f (kind percent or format), and
// returns the text, or the error it raised.
func formatted(kind, f string, v Value) (string, *Error) {
	return raised(func() string {
		if kind == "percent" {
			return formatPercent(Str(f), v).str()
		}
		return strFormat(Str(f), []Value{v}, nil).str()
	})
}
