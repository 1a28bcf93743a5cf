package jinja2

import (
	"errors"
	"reflect"
	"testing"
)

// TestRunWithCallersWriter: a render given a Writer of the caller's (Run.Writer)
// writes with it, and leaves it zero whether it succeeds or fails, so that the next
// render can use it; its output and errors are those of a render with a pooled Writer.
func TestRunWithCallersWriter(t *testing.T) {
	vars := NewDict(0)
	vars.SetStr("x", Str("X"))
	ok := func(w *Writer) {
		w.WriteString("a")
		Write(w, w.Lookup("x"))
		w.MarkGenerationPrompt()
		w.WriteString("b")
	}
	fails := func(w *Writer) {
		w.WriteString("a")
		panic(&RaiseError{Message: "no"})
	}
	var own Writer
	for _, w := range []*Writer{nil, &own} {
		var seen *Writer
		run := &Run{Vars: vars, File: "t.jinja", Writer: w}
		out, err := run.Append([]byte(">"), func(rw *Writer) { seen = rw; ok(rw) })
		if err != nil || string(out) != ">aXb" || run.GenerationPrompt != 2 {
			t.Fatalf("Writer %p: %q, %v, generation prompt at %d; want \">aXb\", nil, 2", w, out, err, run.GenerationPrompt)
		}
		if w != nil && seen != w {
			t.Errorf("the render wrote with %p, not the caller's Writer %p", seen, w)
		}
		out, err = run.Append([]byte(">"), fails)
		var raise *RaiseError
		if string(out) != ">" || !errors.As(err, &raise) || raise.Template != "t.jinja" {
			t.Errorf("Writer %p, a failed render: %q, %v; want \">\" and the template's RaiseError", w, out, err)
		}
	}
	if !reflect.ValueOf(own).IsZero() {
		t.Errorf("the caller's Writer is not zero after its renders: %+v", own)
	}

	// a panic that is no render's failure goes on up, and leaves the Writer zero too
	func() {
		defer func() {
			if p := recover(); p != "not a failure" {
				t.Errorf("the render's panic became %v", p)
			}
		}()
		run := &Run{Vars: vars, File: "t.jinja", Writer: &own}
		run.Append(nil, func(w *Writer) {
			w.WriteString("a")
			panic("not a failure")
		})
	}()
	if !reflect.ValueOf(own).IsZero() {
		t.Errorf("the caller's Writer is not zero after a panic: %+v", own)
	}
}

// TestSliceInRender: the slices of lists a render takes (SliceIn, as generated code
// takes messages[1:]) share the list's items, as Slice's do, and cost no allocation
// while the Writer's storage for them lasts (two a render); a further slice allocates its
// List. Each render starts with all of that storage, and a slice's append leaves the
// list it was taken from unchanged.
func TestSliceInRender(t *testing.T) {
	vars := NewDict(0)
	vars.SetStr("messages", NewList(Str("s"), Str("a"), Str("b"), Str("c")))
	// slices(n) takes n slices, each of the one before from its second item on, writing
	// the first item of each and the items of the last
	slices := func(n int) func(*Writer) {
		return func(w *Writer) {
			m := w.Lookup("messages")
			for range n {
				m = SliceIn(w, m, Int(1), Missing(), Missing())
				Write(w, ItemInt(m, 0))
			}
			w.WriteString(":")
			for _, x := range m.Items() {
				Write(w, x)
			}
		}
	}
	run := &Run{Vars: vars}
	buf := make([]byte, 0, 64)
	for n, want := range []string{":sabc", "a:abc", "ab:bc", "abc:c"} {
		render := slices(n)
		out, err := run.Append(buf[:0], render)
		if err != nil || string(out) != want {
			t.Fatalf("%d slices: %q, %v; want %q", n, out, err, want)
		}
		wantAllocs := 0.0
		if n > 2 {
			wantAllocs = 1
		}
		if got := testing.AllocsPerRun(100, func() { run.Append(buf[:0], render) }); got != wantAllocs {
			t.Errorf("a render that takes %d slices allocates %v times; want %v", n, got, wantAllocs)
		}
	}
	// a slice's append cannot reach the list: its capacity ends where its items do
	out, err := run.Append(buf[:0], func(w *Writer) {
		messages := w.Lookup("messages")
		m := SliceIn(w, messages, Int(0), Int(2), Missing())
		m.list().append(Str("x"))
		w.WriteString(string(AppendJSON(nil, m)) + string(AppendJSON(nil, messages)))
	})
	if err != nil || string(out) != `["s", "a", "x"]["s", "a", "b", "c"]` {
		t.Errorf("a slice's append: %q, %v", out, err)
	}
}
