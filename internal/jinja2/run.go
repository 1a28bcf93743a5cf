package jinja2

import (
	"fmt"
	"reflect"
	goruntime "runtime"
	"sync"
	"time"
)

// Variables are what a template's free names resolve to during a render: the
// conversation and the template variables of its input. Package tmplgen's Input is one;
// llama-server's variables (a *Dict) are another.
type Variables interface {
	// Lookup returns the variable's value, Undefined(name) for a name it lacks.
	Lookup(name string) Value
}

// A Run is how a compiled render function runs: the variables it reads, the clock,
// the limits, and what its errors cite.
type Run struct {
	// Vars are the template's variables.
	Vars Variables
	// Now is the clock strftime_now reads; the zero time means the current time.
	Now time.Time
	// Limits bound the work of the render.
	Limits Limits
	// File is the template's file name, as errors cite it.
	File string
	// Spans are the position table of the generated file fn is in: a failed render
	// reports the template statement running on the line that failed. Without them (an
	// interpreter's functions) it reports what the Writer was told (At).
	Spans Spans
	// GenerationPrompt is set by a render that succeeds: where in its output (after
	// dst) the template's generation prompt starts, as fn marked it
	// (Writer.MarkGenerationPrompt), or -1 when fn did not.
	GenerationPrompt int
	// Writer, when not nil, is the Writer to render with: a zero Writer the caller
	// keeps between renders (in a pooled struct of its own, say), which the render
	// leaves zero again. Nil takes one from a pool. One Writer serves one render at a
	// time.
	Writer *Writer
}

// Append runs the render function fn (a generated Func or LlamaFunc), appending its
// output to dst. A failed render returns dst and an *Error or *RaiseError that says
// where in the template it failed.
func (r *Run) Append(dst []byte, fn func(*Writer)) (out []byte, err error) {
	out, _, err = r.run(dst, fn, nil, false)
	return out, err
}

// AppendTracked is Append that also says where the output comes from: it appends to
// markup the ranges of out after dst that are template text (see origin.go), in
// order; the rest is data.
func (r *Run) AppendTracked(dst []byte, markup []ByteRange, fn func(*Writer)) (out []byte, _ []ByteRange, err error) {
	tracking.Add(1)
	defer tracking.Add(-1)
	return r.run(dst, fn, markup, true)
}

func (r *Run) run(dst []byte, fn func(*Writer), markup []ByteRange, tracked bool) (out []byte, _ []ByteRange, err error) {
	w := r.Writer // all zero (see below)
	if w == nil {
		w = writerPool.Get().(*Writer)
	}
	if tracked {
		w.tracked.markup = markup
		w.origins = &w.tracked
	}
	r.Start(w, dst)
	defer func() {
		if p := recover(); p != nil {
			out, err = dst, r.failure(p, w, fn)
		}
		w.reset()
		if r.Writer == nil {
			writerPool.Put(w)
		}
	}()
	fn(w)
	buf := r.Finish(w, dst)
	if o := w.origins; o != nil {
		return o.room[:len(buf)], o.markup, nil
	}
	return buf, nil, nil
}

// Start begins a render on w, appending to dst: the render a generated file's append
// function runs with a Writer on its stack, where Append takes one from a pool
// (getting and putting a Writer is a fifth of a short render's time):
//
//	func appendX(r jinja2.Run, dst []byte) (out []byte, err error) {
//		var w jinja2.Writer
//		defer r.Recover(&w, dst, &out, &err, renderX)
//		r.Start(&w, dst)
//		renderX(&w)
//		return r.Finish(&w, dst), nil
//	}
//
// w is a zero Writer that nothing keeps after the render: it stays on the stack when
// the render function keeps no reference to it (it makes no macro value, loop object
// or global function, which hold their Writer).
func (r *Run) Start(w *Writer, dst []byte) {
	w.limits = r.Limits.withDefaults()
	w.vars, w.now = r.Vars, r.Now
	w.setBuffer(dst)
}

// Finish ends the render on w that Start began with dst, and returns its output.
func (r *Run) Finish(w *Writer, dst []byte) []byte {
	w.joinOutput()
	r.GenerationPrompt = w.tail - 1 - len(dst)
	if w.tail == 0 {
		r.GenerationPrompt = -1
	}
	return w.buf
}

// Recover, deferred by a generated append function (see Start), turns a panic of the
// render of fn on w into its result: dst and the *Error or *RaiseError that says where
// in the template the render failed, as Append returns them; and gives the render's
// Lists of slices back.
func (r *Run) Recover(w *Writer, dst []byte, out *[]byte, err *error, fn func(*Writer)) {
	if p := recover(); p != nil {
		*out, *err = dst, r.failure(p, w, fn)
	}
	w.releaseLists()
}

// writerPool recycles Writers between renders.
var writerPool = sync.Pool{New: func() any { return new(Writer) }}

// failure turns a panic raised while running fn into an error that says where.
func (r *Run) failure(p any, w *Writer, fn func(*Writer)) error {
	line, col, construct := w.line, w.col, w.construct
	if r.Spans != "" {
		s, _ := r.Spans.failed(fn)
		line, col, construct = s.Line, s.Col, s.Construct
	}
	switch e := p.(type) {
	case *Error:
		e.Template, e.Line, e.Col, e.Construct = r.File, line, col, construct
		return e
	case *RaiseError:
		e.Template, e.Line, e.Col, e.Construct = r.File, line, col, construct
		return e
	case goruntime.Error:
		// A bug in this package: report it as an error rather than crash the caller.
		buf := make([]byte, 4096)
		buf = buf[:goruntime.Stack(buf, false)]
		return &Error{Kind: "InternalError", Msg: fmt.Sprintf("%v\n%s", e, buf), Template: r.File, Line: line, Col: col}
	}
	// not a render's failure: it goes on up, and run's deferred function does not
	// finish, so the Writer is left zero here (a caller's, r.Writer, may be used again)
	*w = Writer{}
	panic(p)
}

// failed returns the span of the statement that was running when the render of fn
// panicked, called (by failure) while the panicking stack is still there: the
// innermost frame of fn's file gives the line.
func (s Spans) failed(fn func(*Writer)) (Span, bool) {
	entry := reflect.ValueOf(fn).Pointer()
	f := goruntime.FuncForPC(entry)
	if f == nil {
		return Span{}, false
	}
	file, _ := f.FileLine(entry)
	pcs := make([]uintptr, 64)
	for {
		n := goruntime.Callers(2, pcs)
		frames := goruntime.CallersFrames(pcs[:n])
		for {
			f, more := frames.Next()
			if f.File == file {
				return s.at(f.Line)
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

// maxStackFrames is how deep Spans.failed looks for the generated file's frame.
const maxStackFrames = 1 << 16

// Lookup returns the value of the render's variable name, as the template sees it.
func (w *Writer) Lookup(name string) Value { return w.vars.Lookup(name) }

// Variables returns the render's variables.
func (w *Writer) Variables() Variables { return w.vars }

// SetVariables replaces the render's variables: llama.cpp's engine renders copies of
// them when the template changes them (package llamacpp's OwnVariables).
func (w *Writer) SetVariables(vars Variables) { w.vars = vars }

// hides returns the render's variable named as a global function, and whether there is
// one: as in Jinja2, a variable of the render (a chat_template_kwargs key named range,
// say) hides the global of its name.
func (w *Writer) hides(global string) (Value, bool) {
	v := w.vars.Lookup(global)
	return v, v.kind() != KindUndefined
}

// Clock returns the time strftime_now reads: the Run's Now, or the current time.
func (w *Writer) Clock() time.Time {
	if w.now.IsZero() {
		return time.Now()
	}
	return w.now
}

// Lookup returns the variable name of the dict d (llama-server's variables), undefined
// when d lacks it.
func (d *Dict) Lookup(name string) Value {
	if v, ok := d.GetStr(name); ok {
		return v
	}
	return Undefined(name)
}
