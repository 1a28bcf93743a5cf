package jinja2

import (
	"fmt"
)

// ErrorKind classifies a render error the way Python names the exception Jinja2 raises.
type ErrorKind string

// The kinds of render errors.
const (
	TypeError      ErrorKind = "TypeError"
	ValueError     ErrorKind = "ValueError"
	UndefinedError ErrorKind = "UndefinedError"
	SecurityError  ErrorKind = "SecurityError"
	RuntimeError   ErrorKind = "TemplateRuntimeError"
	ZeroDivision   ErrorKind = "ZeroDivisionError"
	OverflowError  ErrorKind = "OverflowError"
	LimitError     ErrorKind = "LimitError"
	InputError     ErrorKind = "InputError"
	KeyError       ErrorKind = "KeyError"
	IndexError     ErrorKind = "IndexError"
	AttributeError ErrorKind = "AttributeError"
	AssertionError ErrorKind = "AssertionError" // Python's assert (truncate's)
	// FilterArgumentError is Jinja2's error for a filter's argument it cannot take (a
	// TemplateRuntimeError).
	FilterArgumentError ErrorKind = "FilterArgumentError"
	// BuiltinRuntimeError is Python's own RuntimeError (cycler() without items), not
	// Jinja2's TemplateRuntimeError (RuntimeError).
	BuiltinRuntimeError ErrorKind = "RuntimeError"
	NotImplemented_     ErrorKind = "NotImplementedError"
	UnicodeEncode       ErrorKind = "UnicodeEncodeError"
	UnicodeDecode       ErrorKind = "UnicodeDecodeError"
	SyntaxError         ErrorKind = "TemplateSyntaxError"
	NameError           ErrorKind = "NameError"
)

// Error is an error raised while rendering a template: what failed (Kind and Msg, as
// Jinja2 would say it) and where (the template and the line and column of the statement).
type Error struct {
	Kind     ErrorKind
	Msg      string
	Template string
	Line     int
	Col      int
	// Construct is the kind of statement that failed: "if", "for", "set", "{{ }}"...
	Construct string
}

func (e *Error) Error() string {
	return errorWhere(e.Template, e.Line, e.Col, e.Construct) + string(e.Kind) + ": " + e.Msg
}

// errorWhere writes the position part of an error message: "file:line:col (if): ".
func errorWhere(file string, line, col int, construct string) string {
	where := file
	if line > 0 {
		where = fmt.Sprintf("%s:%d:%d", file, line, col)
	}
	if construct != "" {
		where += " (" + construct + ")"
	}
	if where == "" {
		return ""
	}
	return where + ": "
}

// RaiseError is the error of raise_exception(message): the template refused the input.
// Detect it with errors.As; Message is the template's own text.
type RaiseError struct {
	Message   string
	Template  string
	Line      int
	Col       int
	Construct string
}

func (e *RaiseError) Error() string {
	return errorWhere(e.Template, e.Line, e.Col, e.Construct) + "TemplateError: " + e.Message
}

// throw raises a render error; Render recovers it and adds the position.
func throw(kind ErrorKind, format string, args ...any) {
	panic(&Error{Kind: kind, Msg: fmt.Sprintf(format, args...)})
}

// Fail raises a render error from generated code, for constructs that always fail when
// they run (an unknown filter, a call with the wrong arguments). Operands are what the
// failing construct was given (a filter's value and arguments): generated code passes
// them so that they are evaluated, and every variable it declares is used; Fail
// ignores them.
func Fail(kind ErrorKind, msg string, operands ...any) Value {
	panic(&Error{Kind: kind, Msg: msg})
}

// undefinedError raises the UndefinedError that using v fails with.
func (v Value) undefinedError() {
	if v.strFlags()&flagUnsafe != 0 {
		panic(&Error{Kind: SecurityError, Msg: v.str()})
	}
	panic(&Error{Kind: UndefinedError, Msg: v.undefinedMessage()})
}

// undefinedMessage returns the message of the error that using undefined v raises.
func (v Value) undefinedMessage() string {
	switch v.hint() {
	case hintAttribute:
		return fmt.Sprintf("'%s' has no attribute %s", objectTypeRepr(v.ownerTypeName()), Str(v.str()).Repr())
	case hintElement:
		return fmt.Sprintf("%s has no element %s", objectTypeRepr(v.ownerTypeName()), v.str())
	case hintMessage:
		return v.str()
	}
	if v.str() == "" {
		return "value is undefined"
	}
	return fmt.Sprintf("%s is undefined", Str(v.str()).Repr())
}

// objectTypeRepr describes the owner of a failed lookup as Jinja2 does: "None", or
// "dict object" for the type name.
func objectTypeRepr(s string) string {
	switch s {
	case "NoneType":
		return "None"
	case "Markup":
		return "markupsafe.Markup object"
	case "Namespace":
		return "jinja2.utils.Namespace object"
	case "LoopContext":
		return "jinja2.runtime.LoopContext object"
	case "Macro":
		return "jinja2.runtime.Macro object"
	case "TemplateReference":
		return "jinja2.runtime.TemplateReference object"
	case "Cycler", "Joiner":
		return "jinja2.utils." + s + " object"
	}
	return s + " object"
}
