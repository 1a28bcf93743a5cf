package jinja2

import (
	"fmt"
	"testing"
)

// TestStrMethodsPython calls str methods with random arguments and checks the repr of
// what they return, or the error they raise, against Python's answers recorded by
// testdata/strmethods/record.py.
func TestStrMethodsPython(t *testing.T) {
	var cases []struct {
		S, M string
		A    []any
		answer
	}
	readCases(t, "strmethods", &cases)
	for _, c := range cases {
		args := make([]Value, len(c.A))
		for i, a := range c.A {
			args[i] = jsonArg(a, c.M == "startswith" || c.M == "endswith")
		}
		got, e := raised(func() string { return CallMethod(Str(c.S), c.M, args, nil).Repr() })
		c.check(t, fmt.Sprintf("%q.%s%v", c.S, c.M, c.A), got, e)
	}
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
