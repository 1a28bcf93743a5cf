package ir

import (
	"regexp"

	"github.com/tmplgen/tmplgen/internal/syntax"
)

// CompileLenient is Compile, or, for a text Jinja2 refuses that llama.cpp loads, the text
// as llama.cpp reads it (the IR Llama gives), with Jinja2's error as refusal: generation
// tags that do not pair up, which llama.cpp takes for statements that do nothing
// (neutralGeneration), a filter or test Jinja2 lacks outside an if (llama.cpp's filters
// are the builtins of the value's type, and it fails an unknown one only when it runs
// it), a number such as 007, list items or call arguments without commas, a macro
// parameter named twice or without a default after one with, a loop target named loop.
func CompileLenient(file, text string) (t *Template, refusal string, err error) {
	t, err = Compile(file, text)
	if err == nil {
		return t, "", nil
	}
	lt, lerr := compileLlama(file, neutralGeneration(text))
	if lerr != nil {
		return nil, "", err
	}
	return lt, err.Error(), nil
}

// compileLlama lowers text as llama.cpp's engine reads it (Llama), without Jinja2's
// reading of it.
func compileLlama(file, text string) (*Template, error) {
	tree, _, err := syntax.ParseLlama(text)
	if err != nil {
		return nil, err
	}
	return newLowerer(true).lower(tree, file, text)
}

// generationTag is a {% generation %} or {% endgeneration %} tag.
var generationTag = regexp.MustCompile(`\{%(-?\s*(?:end)?generation\s*-?)%\}`)

// neutralGeneration returns text with its generation and endgeneration tags turned into
// comments of the same length (and the same whitespace control): llama.cpp's parser
// takes them for statements that do nothing, wherever they are, so that a text whose
// tags do not pair up, which Jinja2 refuses, loads there and renders as this text.
func neutralGeneration(text string) string {
	return generationTag.ReplaceAllString(text, "{#$1#}")
}
