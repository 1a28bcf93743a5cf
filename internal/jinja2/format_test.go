package jinja2

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"strconv"
	"testing"
)

// TestFormatPython checks str % value and '{:spec}'.format(value) against Python's
// answers, recorded by testdata/format/record.py: the same text, or an error of the
// same kind.
func TestFormatPython(t *testing.T) {
	var cases []struct {
		Kind, Fmt string
		Val       struct {
			V json.RawMessage // an int, bool, str or null
			F string          // a float, as repr writes it
		}
		answer
	}
	readCases(t, "format", &cases)
	for _, c := range cases {
		v, err := pythonValue(c.Val.V, c.Val.F)
		if err != nil {
			t.Fatalf("%s: %v", c.Fmt, err)
		}
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

// pythonValue is the value a case of record.py names: the JSON value raw, or the float
// of repr f when raw is empty.
func pythonValue(raw json.RawMessage, f string) (Value, error) {
	if len(raw) == 0 {
		switch f {
		case "nan":
			return Float(math.NaN()), nil
		case "inf":
			return Float(math.Inf(1)), nil
		case "-inf":
			return Float(math.Inf(-1)), nil
		}
		x, err := strconv.ParseFloat(f, 64)
		return Float(x), err
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var x any
	if err := d.Decode(&x); err != nil {
		return Value{}, err
	}
	switch x := x.(type) {
	case nil:
		return None(), nil
	case bool:
		return Bool(x), nil
	case string:
		return Str(x), nil
	case json.Number:
		i, ok := new(big.Int).SetString(string(x), 10)
		if !ok {
			return Value{}, errors.New("not an int: " + string(x))
		}
		if i.IsInt64() {
			return Int(i.Int64()), nil
		}
		return BigInt(i), nil
	}
	return Value{}, errors.New("not a value: " + string(raw))
}
