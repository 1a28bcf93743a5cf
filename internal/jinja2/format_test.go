package jinja2

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// TestFormatPython checks str % value and '{:spec}'.format(value) against Python's
// answers, recorded by testdata/format/record.py: the same text, or an error of the
// same kind.
func TestFormatPython(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "format", "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Kind, Fmt string
		Val       struct {
			V json.RawMessage // an int, bool, str or null
			F string          // a float, as repr writes it
		}
		Out      *string
		Err, Msg string
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("no cases")
	}
	for _, c := range cases {
		v, err := pythonValue(c.Val.V, c.Val.F)
		if err != nil {
			t.Fatalf("%s: %v", c.Fmt, err)
		}
		got, e := formatted(c.Kind, c.Fmt, v)
		switch {
		case c.Err != "" && (e == nil || string(e.Kind) != c.Err || e.Msg != c.Msg):
			t.Errorf("%s of %s: %q, %v; Python raises %s: %s", c.Fmt, v.Repr(), got, e, c.Err, c.Msg)
		case c.Err == "" && (e != nil || got != *c.Out):
			t.Errorf("%s of %s: %q, %v; Python gives %q", c.Fmt, v.Repr(), got, e, *c.Out)
		}
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

// raised returns what f returns, or the *Error it raised (another panic goes on).
func raised(f func() string) (out string, e *Error) {
	defer func() {
		if p := recover(); p != nil {
			if pe, ok := p.(error); !ok || !errors.As(pe, &e) {
				panic(p)
			}
		}
	}()
	return f(), nil
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
