package runtime

import (
	"errors"
	"fmt"
	goruntime "runtime"
	"sync"
)

// Template is a compiled chat template, as the registry of generated renderers holds
// it.
type Template struct {
	// Name is the renderer's name (for catalog templates, the model or file it is from).
	Name string
	// Origin says where the template text came from.
	Origin string
	// SHA256 is the hex sha256 of the template text the renderer was compiled from.
	SHA256 string
	// Aliases are the sha256 of texts that render the same: the text with one trailing
	// newline added or removed (Jinja2 drops a single trailing newline).
	Aliases []string
	// File is the template's file name as error messages cite it.
	File string
	// Func is the generated render function.
	Func func(w *Writer, in *Input)
	// Caps are the template's capabilities as llama.cpp detects them, computed when the
	// template was compiled; the LlamaServer profile reads them.
	Caps Capabilities
}

// Render renders the template for in and returns the prompt.
func (t *Template) Render(in *Input) (string, error) {
	b, err := t.AppendRender(nil, in)
	return string(b), err
}

// AppendRender renders the template for in, appending the prompt to dst. The input's
// Profile says what request handling surrounds the template; in is never modified.
func (t *Template) AppendRender(dst []byte, in *Input) (out []byte, err error) {
	if in.Profile == LlamaServer {
		return t.appendLlamaServer(dst, in)
	}
	return t.appendRender(dst, in)
}

// appendRender runs the compiled function on in as it is.
func (t *Template) appendRender(dst []byte, in *Input) (out []byte, err error) {
	w := writerPool.Get().(*Writer)
	*w = Writer{limits: in.Limits.withDefaults()}
	w.setBuffer(dst)
	defer func() {
		if r := recover(); r != nil {
			out, err = dst, t.renderError(r, w)
		}
		*w = Writer{}
		writerPool.Put(w)
	}()
	t.Func(w, in)
	return w.buf, nil
}

// writerPool recycles Writers between renders.
var writerPool = sync.Pool{New: func() any { return new(Writer) }}

// renderError turns a panic raised while rendering into an error that says where.
func (t *Template) renderError(r any, w *Writer) error {
	switch e := r.(type) {
	case *Error:
		e.Template, e.Line, e.Col, e.Construct = t.File, w.line, w.col, w.construct()
		return e
	case *RaiseError:
		e.Template, e.Line, e.Col, e.Construct = t.File, w.line, w.col, w.construct()
		return e
	case goruntime.Error:
		// A bug in this package: report it as an error rather than crash the caller.
		buf := make([]byte, 4096)
		buf = buf[:goruntime.Stack(buf, false)]
		return &Error{Kind: "InternalError", Msg: fmt.Sprintf("%v\n%s", e, buf), Template: t.File, Line: w.line, Col: w.col}
	}
	panic(r)
}

// IsRaise reports whether err is the template refusing its input with
// raise_exception, and returns the template's message.
func IsRaise(err error) (string, bool) {
	var re *RaiseError
	if errors.As(err, &re) {
		return re.Message, true
	}
	return "", false
}
