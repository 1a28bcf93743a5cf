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
	result := func(f func() Value) string {
		var out string
		func() {
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
			out = v.Repr() + " " + fmt.Sprint(v.origin(), v.IsMarkup())
		}()
		return out
	}
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
