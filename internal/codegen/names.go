package codegen

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/tmplgen/tmplgen/internal/ir"
)

// Go names: identifiers for template variables and generated temporaries.

// alloc returns a Go identifier based on base that is not yet used in the function.
func (g *gen) alloc(base string) string {
	name := base
	for i := 2; g.names[name] || reserved[name]; i++ {
		name = fmt.Sprintf("%s%d", base, i)
	}
	g.names[name] = true
	switch {
	case name != base:
		g.numbered[name] = base
	default:
		// a name made from a numbered one (message2Role, of message2) may lose the
		// number with it
		for n, b := range g.numbered {
			if rest, ok := strings.CutPrefix(base, n); ok && rest != "" && unicode.IsUpper(rune(rest[0])) {
				g.numbered[name] = b + rest
				break
			}
		}
	}
	return name
}

// varName returns the Go name of a template variable.
func (g *gen) varName(v *ir.Var) string {
	if n, ok := g.goName[v]; ok {
		return n
	}
	n := g.alloc(Identifier(v.Name, false))
	g.goName[v] = n
	return n
}

// reserved are names generated code cannot give a template variable.
var reserved = map[string]bool{}

func init() {
	for _, k := range []string{
		"break", "case", "chan", "const", "continue", "default", "defer", "else", "fallthrough",
		"for", "func", "go", "goto", "if", "import", "interface", "map", "package", "range",
		"return", "select", "struct", "switch", "type", "var",
		"any", "append", "bool", "byte", "cap", "clear", "close", "comparable", "complex",
		"complex64", "complex128", "copy", "delete", "error", "false", "float32", "float64",
		"imag", "int", "int8", "int16", "int32", "int64", "iota", "len", "make", "max", "min",
		"new", "nil", "panic", "print", "println", "real", "recover", "rune", "string", "true",
		"uint", "uint8", "uint16", "uint32", "uint64", "uintptr",
	} {
		reserved[k] = true
	}
}

// Identifier turns a template or variable name into a Go identifier: words joined in
// camel case, ASCII letters and digits only, never starting with a digit. exported
// capitalizes the first letter.
func Identifier(name string, exported bool) string {
	var words []string
	word := []rune{}
	flush := func() {
		if len(word) > 0 {
			words = append(words, string(word))
			word = word[:0]
		}
	}
	for _, r := range name {
		if r < 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			word = append(word, r)
		} else {
			flush()
		}
	}
	flush()
	var b strings.Builder
	for i, w := range words {
		if i == 0 && !exported {
			b.WriteString(w)
			continue
		}
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	s := b.String()
	if s == "" || unicode.IsDigit(rune(s[0])) {
		if exported {
			s = "T" + s
		} else {
			s = "v" + s
		}
	}
	return s
}
