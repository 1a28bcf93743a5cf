package jinja2

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestStrMethodsPython calls str methods with random arguments and checks the repr of
// what they return, or the error they raise, against Python's answers recorded by
// testdata/strmethods/record.py.
func TestStrMethodsPython(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "strmethods", "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		S, M     string
		A        []any
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
		args := make([]Value, len(c.A))
		for i, a := range c.A {
			args[i] = jsonArg(a, c.M == "startswith" || c.M == "endswith")
		}
		got, e := calledMethod(Str(c.S), c.M, args)
		switch {
		case c.Err != "" && (e == nil || string(e.Kind) != c.Err || e.Msg != c.Msg):
			t.Errorf("%q.%s%v: %s, %v; Python raises %s: %s", c.S, c.M, c.A, got, e, c.Err, c.Msg)
		case c.Err == "" && (e != nil || got != *c.Out):
			t.Errorf("%q.%s%v: %s, %v; Python gives %s", c.S, c.M, c.A, got, e, *c.Out)
		}
	}
}

// calledMethod calls the method name of recv and returns the repr of its result, or
// the error it raised.
func calledMethod(recv Value, name string, args []Value) (string, *Error) {
	return raised(func() string { return CallMethod(recv, name, args, nil).Repr() })
}

// jsonArg is the value of a JSON argument of record.py: a list is a tuple when tuple.
func jsonArg(x any, tuple bool) Value {
	switch x := x.(type) {
	case nil:
		return None()
	case bool:
		return Bool(x)
	case string:
		return Str(x)
	case float64:
		return Int(int64(x))
	case []any:
		items := make([]Value, len(x))
		for i, it := range x {
			items[i] = jsonArg(it, false)
		}
		if tuple {
			return NewTuple(items...)
		}
		return NewList(items...)
	}
	panic(fmt.Sprintf("record.py gave the argument %v", x))
}
