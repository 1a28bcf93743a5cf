package ir

import "regexp"

// CompileLenient is Compile, or, for a text Jinja2 refuses whose generation tags do not
// pair up, which llama.cpp loads, Compile of the text as llama.cpp reads it
// (neutralGeneration), with Jinja2's syntax error as refusal.
func CompileLenient(file, text string) (t *Template, refusal string, err error) {
	t, err = Compile(file, text)
	if err == nil {
		return t, "", nil
	}
	neutral := neutralGeneration(text)
	if neutral == text {
		return nil, "", err
	}
	lt, lerr := Compile(file, neutral)
	if lerr != nil {
		return nil, "", err
	}
	return lt, err.Error(), nil
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
