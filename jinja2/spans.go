package jinja2

import (
	"reflect"
	goruntime "runtime"
)

// A Span is a range of lines of a generated file and the template statement that runs
// on them: a render that fails on one of those lines reports the statement's position.
// A Template's Spans are sorted by From, and a span nested in another (a statement in
// the body of an if, say) comes after it.
type Span struct {
	From, To  int    // the first and last line of the span in the generated file
	Line, Col int    // the statement's position in the template
	Construct string // the statement: "if", "for", "{{ }}", "set"...
}

// failedSpan returns the span of the statement that was running when the render
// panicked, called (by renderError) while the panicking stack is still there: the
// innermost frame of t.Func's file gives the line.
func (t *Template) failedSpan() (Span, bool) {
	entry := reflect.ValueOf(t.Func).Pointer()
	fn := goruntime.FuncForPC(entry)
	if fn == nil {
		return Span{}, false
	}
	file, _ := fn.FileLine(entry)
	pcs := make([]uintptr, 64)
	for {
		n := goruntime.Callers(2, pcs)
		frames := goruntime.CallersFrames(pcs[:n])
		for {
			f, more := frames.Next()
			if f.File == file {
				return t.spanAt(f.Line)
			}
			if !more {
				break
			}
		}
		if n < len(pcs) || len(pcs) >= maxStackFrames {
			return Span{}, false
		}
		pcs = make([]uintptr, 4*len(pcs))
	}
}

// maxStackFrames is how deep failedSpan looks for the generated file's frame.
const maxStackFrames = 1 << 16

// spanAt returns the innermost span holding the generated file's line.
func (t *Template) spanAt(line int) (Span, bool) {
	for i := len(t.Spans) - 1; i >= 0; i-- {
		if s := t.Spans[i]; s.From <= line && line <= s.To {
			return s, true
		}
	}
	return Span{}, false
}
