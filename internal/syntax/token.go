// Package syntax reads Jinja template text into a syntax tree.
//
// The lexer and parser follow Jinja2 3.1 as Hugging Face transformers configures it
// (trim_blocks and lstrip_blocks on, keep_trailing_newline off, the loopcontrols
// extension and the {% generation %} tag), so that whitespace, operator precedence and
// error positions match what Python Jinja2 does with the same text.
package syntax

import (
	"fmt"
	"math/big"
)

// Pos is a position in template text: 1-based line and column (in characters).
type Pos struct {
	Line, Col int
}

func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// tokenKind says what a token is.
type tokenKind int

const (
	tokEOF tokenKind = iota
	tokData
	tokBlockBegin
	tokBlockEnd
	tokVarBegin
	tokVarEnd
	tokName
	tokString
	tokInt
	tokFloat
	tokOp
)

var tokenKindNames = [...]string{
	tokEOF:        "end of template",
	tokData:       "template data",
	tokBlockBegin: "begin of statement block",
	tokBlockEnd:   "end of statement block",
	tokVarBegin:   "begin of print statement",
	tokVarEnd:     "end of print statement",
	tokName:       "name",
	tokString:     "string",
	tokInt:        "integer",
	tokFloat:      "float",
	tokOp:         "operator",
}

func (k tokenKind) String() string { return tokenKindNames[k] }

// token is one lexical element. Text holds the data, name or operator; Str the decoded
// value of a string literal; Int and Float the value of a number.
type token struct {
	kind  tokenKind
	pos   Pos
	text  string
	str   string
	int   *big.Int
	float float64
}

// describe names a token the way Jinja2's error messages do.
func (t token) describe() string {
	switch t.kind {
	case tokName, tokOp:
		return t.text
	case tokString:
		return "string"
	case tokInt, tokFloat:
		return t.text
	}
	return t.kind.String()
}

// is reports whether t is the name token with the given text.
func (t token) is(name string) bool { return t.kind == tokName && t.text == name }

// isOp reports whether t is the operator token with the given text.
func (t token) isOp(op string) bool { return t.kind == tokOp && t.text == op }

// Error is a syntax error at a position in the template.
type Error struct {
	Pos Pos
	Msg string
}

func (e *Error) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Pos.Line, e.Pos.Col, e.Msg)
}
