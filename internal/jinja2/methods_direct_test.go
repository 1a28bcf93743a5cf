package jinja2

import (
	"errors"
	"fmt"
	"testing"
)

// TestSplitItem: SplitItem(s, sep, i) gives what s.split(sep)[i] gives through the list
// (ItemInt of CallMethod), value, origin or error, for receivers and separators of every
// kind split takes or refuses, separators that overlap themselves included.
func TestSplitItem(t *testing.T) {
	result := directResult
	recvs := []Value{Str(""), Str("aaa"), Str("aaaa"), Str("abab"), Str("<think>\nr\n</think>\n\nHi"), Str("no sep"),
		Lit("a</think>b"), Lit("</think>"), Markup("x</think>y"), Int(3), None(), Undefined("u"), NewList(Str("a"))}
	seps := []Value{Str("a"), Str("aa"), Str("ab"), Str("</think>"), Str("<think>"), Str(""), Lit("a"), Markup("a"), Int(1), None()}
	for _, recv := range recvs {
		for _, sep := range seps {
			for _, i := range []int64{0, -1, 1} {
				got := result(func() Value { return SplitItem(recv, sep, i) })
				want := result(func() Value { return ItemInt(CallMethod(recv, "split", []Value{sep}, nil), i) })
				if got != want {
					t.Errorf("%s.split(%s)[%d] = %s, through the list %s", recv.Repr(), sep.Repr(), i, got, want)
				}
			}
		}
	}
}

// directResult is the Repr and origin of what f returns, or the error it raises.
func directResult(f func() Value) (out string) {
	defer func() {
		if r := recover(); r != nil {
			var e *Error
			if err, ok := r.(error); ok && errors.As(err, &e) {
				out = string(e.Kind) + ": " + e.Msg
				return
			}
			panic(r)
		}
	}()
	v := f()
	return v.Repr() + " " + fmt.Sprint(v.origin(), v.IsMarkup())
}

// TestInKey: InKey(k, c) is In of k's str, for dicts whose record of their Keys knows
// (decoded, built with Keys) and does not (a key made by concatenation), and for the
// other containers In takes or refuses.
func TestInKey(t *testing.T) {
	decoded, err := ParseJSON([]byte(`{"role": "user", "content": "hi", "tool_calls": []}`))
	if err != nil {
		t.Fatal(err)
	}
	unsure := NewDict(0)
	unsure.Set(Concat(Str("ro"), Str("le")), Str("x")) // a Key its record cannot tell
	containers := []Value{decoded, DictOf(Str("content"), Str("c")), DictValue(unsure), DictValue(NewDict(0)),
		NewList(Str("role")), NewList(Str("x")), Str("the role"), Str("x"), Undefined("u"), None(), Int(1)}
	for k := Key(0); k < NumKeys; k++ {
		for _, c := range containers {
			got := directResult(func() Value { return Bool(InKey(k, c)) })
			want := directResult(func() Value { return Bool(In(Str(k.String()), c)) })
			if got != want {
				t.Errorf("%q in %s = %s, In %s", k.String(), c.Repr(), got, want)
			}
		}
	}
}

// TestTrimDirect: a bare trim of a str gives what the filter gives through strip (its
// text, origin and kind), the str itself when there is nothing to strip.
func TestTrimDirect(t *testing.T) {
	for _, v := range []Value{Str(""), Str("x"), Str("  x \n"), Str("\u3000x\u00a0"), Str(" \t "), Lit(" a "), Lit("a"),
		Concat(Lit(" a"), Str("b ")), Markup(" <b> "), Int(3), None()} {
		got := directResult(func() Value { return FilterTrim(v, nil, nil) })
		want := directResult(func() Value { return pyStrip(softStr(v), Missing(), "strip", true, true) })
		if got != want {
			t.Errorf("%s|trim = %s, strip %s", v.Repr(), got, want)
		}
	}
	if v := Str("abc"); FilterTrim(v, nil, nil) != v {
		t.Error("'abc'|trim is not the str itself")
	}
}

// TestAffixesDirect: MethodStartswith and MethodEndswith give what the generic call of
// the method gives (CallMethod), value or error, for receivers and arguments of every
// kind they take or refuse.
func TestAffixesDirect(t *testing.T) {
	result := func(f func() Value) (out string) {
		defer func() {
			if r := recover(); r != nil {
				var e *Error
				if err, ok := r.(error); ok && errors.As(err, &e) {
					out = string(e.Kind) + ": " + e.Msg
					return
				}
				panic(r)
			}
		}()
		return f().Repr()
	}
	recvs := []Value{Str(""), Str("<tool_response>x</tool_response>"), Str("héllo wörld"), Markup("<b>x</b>"), Int(3), None(), Undefined("u")}
	args := []Value{Str(""), Str("<tool_response>"), Str("</tool_response>"), Str("hé"), Str("ld"), Markup("<b>"), Markup("</b>"),
		NewTuple(Str("x"), Str("<b")), NewTuple(Int(1)), Int(1), None()}
	for _, recv := range recvs {
		for _, arg := range args {
			for _, m := range []struct {
				name   string
				direct func(Value, Value) Value
			}{{"startswith", MethodStartswith}, {"endswith", MethodEndswith}} {
				got := result(func() Value { return m.direct(recv, arg) })
				want := result(func() Value { return CallMethod(recv, m.name, []Value{arg}, nil) })
				if got != want {
					t.Errorf("%s.%s(%s) = %s, CallMethod %s", recv.Repr(), m.name, arg.Repr(), got, want)
				}
			}
		}
	}
}
