package jinja2

import "testing"

// TestSmallInt checks that SmallInt makes the ints Int makes within 56 bits, at the
// edges, and that FitsSmallInt says where those edges are.
func TestSmallInt(t *testing.T) {
	for _, i := range []int64{0, 1, -1, 1<<55 - 1, -1 << 55, 42, -42} {
		if !FitsSmallInt(i) {
			t.Errorf("FitsSmallInt(%d) = false", i)
		}
		got, want := SmallInt(i), Int(i)
		if n, ok := got.AsInt(); got != want || !ok || n != i {
			t.Errorf("SmallInt(%d) = %#v (%d), Int gives %#v", i, got, n, want)
		}
	}
	for _, i := range []int64{1 << 55, -1<<55 - 1, 1<<63 - 1, -1 << 63} {
		if FitsSmallInt(i) {
			t.Errorf("FitsSmallInt(%d) = true", i)
		}
		if got, ok := Int(i).AsInt(); !ok || got != i {
			t.Errorf("Int(%d) = %d", i, got)
		}
	}
}

// TestEqStr checks EqStr on each representation its fast test tells apart: strs of the
// same and other lengths, a boxed str, strs with flags, and values of other kinds, an
// int whose bits are those of a boxed str's flag included.
func TestEqStr(t *testing.T) {
	long := boxStr(KindString, 0, &boxedStr{s: "system"})
	cases := []struct {
		v    Value
		s    string
		want bool
	}{
		{Str("system"), "system", true},
		{Str("system"), "user", false},
		{Str("systen"), "system", false},
		{Str(""), "", true},
		{Lit("system"), "system", true},
		{Markup("system"), "system", true},
		{long, "system", true},
		{long, "user", false},
		{boxStr(KindString, flagMarkup, &boxedStr{s: ""}), "", true},
		{Undefined("system"), "system", false},
		{None(), "", false},
		{Int(0), "", false},
		{SmallInt(flagBoxed << flagsShift), "", false},
		{SmallInt(flagBoxed<<flagsShift | 6), "system", false},
	}
	for _, c := range cases {
		if got := EqStr(c.v, c.s); got != c.want {
			t.Errorf("EqStr(%#v, %q) = %v, want %v", c.v, c.s, got, c.want)
		}
	}
}

// TestNewListCopies: NewList and NewTuple copy the items they are given, into one
// allocation, so that a list display's items stay on its caller's stack.
func TestNewListCopies(t *testing.T) {
	items := []Value{Int(1), Str("a")}
	list, tuple := NewList(items...), NewTuple(items...)
	items[0] = Int(9)
	for _, v := range []Value{list, tuple} {
		if len(v.Items()) != 2 || v.Items()[0] != Int(1) {
			t.Errorf("%s %v after its items changed", v.TypeName(), v.Items())
		}
	}
	if list.Kind() != KindList || tuple.Kind() != KindTuple {
		t.Errorf("NewList gave a %s, NewTuple a %s", list.TypeName(), tuple.TypeName())
	}
	// called directly, as generated code calls them (through a func value the
	// compiler cannot tell that the items stay)
	if n := testing.AllocsPerRun(100, func() { NewList(Int(1), Str("a"), None()) }); n != 1 {
		t.Errorf("NewList: %v allocations, want 1", n)
	}
	if n := testing.AllocsPerRun(100, func() { NewTuple(Int(1), Str("a"), None()) }); n != 1 {
		t.Errorf("NewTuple: %v allocations, want 1", n)
	}
}
