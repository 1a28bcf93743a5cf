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
