package jinja2

import (
	"encoding/json"
	"fmt"
	"testing"
)

// TestOpsPython checks the binary operators on random operands, slices with random
// bounds, and repr and str of chosen values, against Python's answers recorded by
// testdata/ops/record.py.
func TestOpsPython(t *testing.T) {
	var cases struct {
		Ops []struct {
			Op   string
			A, B recordedValue
			answer
		}
		Slices []struct {
			S, Slice json.RawMessage
			answer
		}
		Reprs []struct {
			V         recordedValue
			Repr, Str string
		}
	}
	readCases(t, "ops", &cases)
	compare := func(less func(a, b Value) bool) func(a, b Value) Value {
		return func(a, b Value) Value { return Bool(less(a, b)) }
	}
	ops := map[string]func(a, b Value) Value{
		"+": Add, "-": Sub, "*": Mul, "/": Div, "//": FloorDiv, "%": Mod,
		"<": compare(Lt), "<=": compare(Le), ">": compare(Gt), ">=": compare(Ge), "==": compare(Eq),
		"in": compare(In),
	}
	for _, c := range cases.Ops {
		a, b := c.A.value(t), c.B.value(t)
		op, ok := ops[c.Op]
		if !ok {
			t.Fatalf("record.py's operator %q", c.Op)
		}
		got, e := raised(func() string { return op(a, b).Repr() })
		c.check(t, a.Repr()+" "+c.Op+" "+b.Repr(), got, e)
	}
	for _, c := range cases.Slices {
		s, b := mustJSON(t, c.S), mustJSON(t, c.Slice).Items()
		got, e := raised(func() string { return s.Slice(b[0], b[1], b[2]).Repr() })
		c.check(t, fmt.Sprintf("%s[%s:%s:%s]", s.Repr(), b[0].Repr(), b[1].Repr(), b[2].Repr()), got, e)
	}
	for _, c := range cases.Reprs {
		v := c.V.value(t)
		if v.Repr() != c.Repr || v.String() != c.Str {
			t.Errorf("repr %q and str %q; Python's %q and %q", v.Repr(), v.String(), c.Repr, c.Str)
		}
	}
}
