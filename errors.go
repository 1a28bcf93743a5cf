package tmplgen

import (
	"errors"

	"github.com/tmplgen/tmplgen/internal/jinja2"
	"github.com/tmplgen/tmplgen/internal/llamacpp"
)

// ErrorKind classifies a failed render as Python names the exception Jinja2 raises
// (TypeError, UndefinedError...), or as tmplgen names what is not an exception of
// Python's: a limit exceeded, an input refused before the template runs, a failure of
// llama.cpp's engine.
type ErrorKind string

// The kinds of render errors.
const (
	TypeError      = ErrorKind(jinja2.TypeError)
	ValueError     = ErrorKind(jinja2.ValueError)
	UndefinedError = ErrorKind(jinja2.UndefinedError)
	SecurityError  = ErrorKind(jinja2.SecurityError)
	RuntimeError   = ErrorKind(jinja2.RuntimeError)
	ZeroDivision   = ErrorKind(jinja2.ZeroDivision)
	OverflowError  = ErrorKind(jinja2.OverflowError)
	KeyError       = ErrorKind(jinja2.KeyError)
	IndexError     = ErrorKind(jinja2.IndexError)
	AttributeError = ErrorKind(jinja2.AttributeError)
	AssertionError = ErrorKind(jinja2.AssertionError)
	NotImplemented = ErrorKind(jinja2.NotImplemented_)
	// FilterArgumentError is an argument a filter cannot take (Jinja2's, a
	// TemplateRuntimeError).
	FilterArgumentError = ErrorKind(jinja2.FilterArgumentError)
	// BuiltinRuntimeError is Python's own RuntimeError, where RuntimeError is Jinja2's
	// TemplateRuntimeError.
	BuiltinRuntimeError = ErrorKind(jinja2.BuiltinRuntimeError)
	// NameError is a name Jinja2's compiled Python does not know: a constant it
	// folds into a nan or infinity, which it spells as the bare name nan or inf.
	NameError = ErrorKind(jinja2.NameError)
	// LimitError is a render that exceeded one of its Limits.
	LimitError = ErrorKind(jinja2.LimitError)
	// InputError is an input refused before the template runs (continue_final_message
	// without a final message, a request llama-server refuses...).
	InputError = ErrorKind(jinja2.InputError)
	// EngineError is a failure of llama.cpp's Jinja engine, in its words (the
	// llama-server profile).
	EngineError = ErrorKind(llamacpp.EngineError)
)

// Error is a failed render: what failed (Kind and Msg, as Jinja2 or llama.cpp would
// say it) and where (the template and the line and column of the statement).
type Error struct {
	Kind ErrorKind
	Msg  string
	// Template is the template's file name.
	Template string
	// Line and Col are the position of the statement that failed; 0 when the
	// failure is not in a statement (an input refused).
	Line, Col int
	// Construct is the kind of statement that failed: "if", "for", "set", "{{ }}"...
	Construct string
	// err is the sentinel errors.Is finds (ErrMissingToken), or nil.
	err error
}

// Unwrap returns the sentinel error of the failure's class (ErrMissingToken), or nil.
func (e *Error) Unwrap() error { return e.err }

// Error says where the render failed and why: "file:line:col (construct): Kind: Msg".
func (e *Error) Error() string {
	return (&jinja2.Error{Kind: jinja2.ErrorKind(e.Kind), Msg: e.Msg, Template: e.Template, Line: e.Line, Col: e.Col, Construct: e.Construct}).Error()
}

// RaiseError is the template refusing its input with raise_exception(message). Detect
// it with errors.As (or IsRaise); Message is the template's own text.
type RaiseError struct {
	Message string
	// Template, Line, Col and Construct say where, as Error's do.
	Template  string
	Line, Col int
	Construct string
}

// Error says where the template raised and what: "file:line:col (construct):
// TemplateError: Message".
func (e *RaiseError) Error() string {
	return (&jinja2.RaiseError{Message: e.Message, Template: e.Template, Line: e.Line, Col: e.Col, Construct: e.Construct}).Error()
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

// renderError returns the failure of a run (a *jinja2.Error or *jinja2.RaiseError) as
// this package's error.
func renderError(err error) error {
	switch e := err.(type) {
	case *jinja2.Error:
		return &Error{Kind: ErrorKind(e.Kind), Msg: e.Msg, Template: e.Template, Line: e.Line, Col: e.Col, Construct: e.Construct}
	case *jinja2.RaiseError:
		return &RaiseError{Message: e.Message, Template: e.Template, Line: e.Line, Col: e.Col, Construct: e.Construct}
	}
	return err
}
