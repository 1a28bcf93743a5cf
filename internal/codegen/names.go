package codegen

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/tmplgen/tmplgen/internal/ir"
)

// Go names: identifiers for template variables and generated temporaries.

// alloc returns a Go identifier based on base that is not yet used in the function.
func (g *gen) alloc(base string) string {
	name, i := base, g.nextNumber[base]
	for i = max(i, 2); g.names[name] || reserved[name]; i++ {
		name = Numbered(base, i)
	}
	g.nextNumber[base] = i // names are never freed: the ones before stay taken
	g.names[name] = true
	switch {
	case name != base:
		g.numbered[name] = base
	default:
		// a name made from a numbered one (message2Role, of message2) may lose the
		// number with it: the longest numbered name it starts with, before a capital
		for j := len(base) - 1; j > 0; j-- {
			if isUpper(base[j]) && isDigit(base[j-1]) {
				if b, ok := g.numbered[base[:j]]; ok {
					g.numbered[name] = b + base[j:]
					break
				}
			}
		}
	}
	return name
}

// allocLocal returns a Go identifier as alloc does, for a local variable that is not a
// jinja2.Value: typ is its Go type, or "" for one a macro's function cannot take as a
// parameter (see lift.go).
func (g *gen) allocLocal(base, typ string) string {
	name := g.alloc(base)
	g.localTypes[name] = typ
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

// Identifier turns a template or variable name into a Go identifier: its words (the
// runs of ASCII letters and digits) in camel case, never starting with a digit; exported
// capitalizes the first letter. A boundary of the name that camel case would hide keeps
// an underscore (see joinWords): tool_calls is toolCalls, Qwen-Qwen3-0.6B is
// QwenQwen3_0_6B and GigaChat3.1-10B-A1.8B is GigaChat3_1_10B_A1_8B.
func Identifier(name string, exported bool) string {
	words := strings.FieldsFunc(name, func(r rune) bool {
		return r >= 0x80 || !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	s := ""
	for i, w := range words {
		if i > 0 || exported {
			w = strings.ToUpper(w[:1]) + w[1:]
		}
		s = joinWords(s, w)
	}
	if s == "" || unicode.IsDigit(rune(s[0])) {
		if exported {
			s = "T" + s
		} else {
			s = "v" + s
		}
	}
	return s
}

// joinWords joins two parts of an identifier, with an underscore between them where
// they would run together: two digits (3 and 0 of Qwen3-0.6B) or two capitals (10B and
// A1 of 10B-A1.8B) side by side.
func joinWords(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	x, y := a[len(a)-1], b[0]
	if isDigit(x) && isDigit(y) || isUpper(x) && isUpper(y) {
		return a + "_" + b
	}
	return a + b
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }

// Numbered returns the nth name made from base (n from 2): base2, or base_2 when
// base ends with a digit (llama3_2, not llama32).
func Numbered(base string, n int) string { return joinWords(base, strconv.Itoa(n)) }
