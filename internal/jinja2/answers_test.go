package jinja2

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
)

// An answer is what Python gave for one case a testdata/*/record.py recorded: Out, or
// the name and message of the exception it raised.
type answer struct {
	Out      *string
	Err, Msg string
}

// check fails the test when got, or the error e, is not the answer; what says what
// was computed.
func (a answer) check(t *testing.T, what, got string, e *Error) {
	t.Helper()
	switch {
	case a.Err != "" && (e == nil || string(e.Kind) != a.Err || e.Msg != a.Msg):
		t.Errorf("%s: %q, %v; Python raises %s: %s", what, got, e, a.Err, a.Msg)
	case a.Err == "" && (e != nil || got != *a.Out):
		t.Errorf("%s: %q, %v; Python gives %q", what, got, e, *a.Out)
	}
}

// readCases reads testdata/dir/cases.json into cases, a pointer to a slice or to a
// struct of slices, none of which may be empty.
func readCases(t *testing.T, dir string, cases any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", dir, "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, cases); err != nil {
		t.Fatalf("testdata/%s/cases.json: %v", dir, err)
	}
	lists := []reflect.Value{reflect.ValueOf(cases).Elem()}
	if lists[0].Kind() == reflect.Struct {
		s := lists[0]
		lists = lists[:0]
		for i := range s.NumField() {
			lists = append(lists, s.Field(i))
		}
	}
	for _, l := range lists {
		if l.Len() == 0 {
			t.Fatalf("testdata/%s/cases.json lacks cases", dir)
		}
	}
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

// A recorded value is a value a record.py gives: the JSON value V, or the float F as
// repr writes it (nan, inf and -inf too).
type recordedValue struct {
	V json.RawMessage
	F string
}

// value returns the recorded value.
func (r recordedValue) value(t *testing.T) Value {
	t.Helper()
	if len(r.V) > 0 {
		v, err := ParseJSON(r.V)
		if err != nil {
			t.Fatalf("%s: %v", r.V, err)
		}
		return v
	}
	switch r.F {
	case "nan":
		return Float(math.NaN())
	case "inf":
		return Float(math.Inf(1))
	case "-inf":
		return Float(math.Inf(-1))
	}
	f, err := strconv.ParseFloat(r.F, 64)
	if err != nil {
		t.Fatalf("%q: %v", r.F, err)
	}
	return Float(f)
}

// kwargsOf are the entries of the JSON object raw as keyword arguments.
func kwargsOf(t *testing.T, raw json.RawMessage) []Kwarg {
	t.Helper()
	d := mustJSON(t, raw).AsDict()
	var kwargs []Kwarg
	for i, name := range d.Keys() {
		kwargs = append(kwargs, Kwarg{Name: name.Text(), Value: d.Values()[i]})
	}
	return kwargs
}

// mustJSON is the value of the JSON text raw.
func mustJSON(t *testing.T, raw json.RawMessage) Value {
	t.Helper()
	v, err := ParseJSON(raw)
	if err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	return v
}
