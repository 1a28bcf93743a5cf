package jinja2

import (
	"encoding/json"
	"strconv"
	"testing"
)

// TestTestsPython checks the tests, the methods of list, dict, int and float, and the
// range global, on random values and arguments against Jinja2's answers recorded by
// testdata/tests/record.py.
func TestTestsPython(t *testing.T) {
	var cases struct {
		Tests []struct {
			T string
			V recordedValue
			A json.RawMessage
			answer
		}
		Methods []struct {
			M string
			V recordedValue
			A json.RawMessage
			answer
		}
		Ranges []struct {
			A   json.RawMessage
			Len string // the length of a long range, instead of Out
			answer
		}
	}
	readCases(t, "tests", &cases)
	for _, c := range cases.Tests {
		v, args := c.V.value(t), mustJSON(t, c.A)
		got, e := raised(func() string { return Bool(CallTest(c.T, v, args.Items(), nil)).String() })
		c.check(t, v.Repr()+" is "+c.T+args.Repr(), got, e)
	}
	for _, c := range cases.Methods {
		v, args := c.V.value(t), mustJSON(t, c.A)
		got, e := raised(func() string { return CallMethod(v, c.M, args.Items(), nil).String() })
		c.check(t, v.Repr()+"."+c.M+args.Repr(), got, e)
	}
	for _, c := range cases.Ranges {
		args := mustJSON(t, c.A).Items()
		w := NewWriter(nil, Limits{})
		w.vars = NewDict(0)
		got, e := raised(func() string {
			r := Range(w, args...)
			if c.Len != "" {
				return strconv.Itoa(Len(r))
			}
			return CallFilter("list", r, nil, nil).String()
		})
		if c.Len != "" {
			c.Out = &c.Len
		}
		c.check(t, "range"+string(c.A), got, e)
	}
}
