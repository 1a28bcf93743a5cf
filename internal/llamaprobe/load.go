package llamaprobe

import "strings"

// llamaLoadError returns the error llama.cpp (b10587) gives when it loads the template
// text src, as its own lexer and parser see it, or "" when they accept it:
//   - a string literal with an escape its lexer lacks (it knows \n \t \r \b \f \v \\ \'
//     \" only, where Jinja2 keeps any other backslash);
//   - a statement its parser lacks (it knows set, if, for, macro, call, filter,
//     generation, break and continue, not raw, with, block, include...);
//   - a number its lexer ends before a letter or an underscore (it reads digits and a
//     fraction only: 1e5, 0x10 and 1_000 are a number and a name), which its parser
//     meets where the tag should end;
//   - a tuple in parentheses with a trailing comma, (1,) (a call's trailing comma is
//     fine);
//   - the operators // and **, which it lacks;
//   - Jinja2's markers {%+ and +%}, which its lexer reads as the operator +;
//   - a test's argument without parentheses (x is divisibleby 3): its parser takes the
//     test's name only, and meets the argument where the tag should end.
//
// llama-server then refuses to start: every request gets this error. Its lexer runs
// first, so an escape error comes before the others, which come in the text's order.
func llamaLoadError(src string) string {
	var parseErr string
	fail := func(msg string) {
		if parseErr == "" {
			parseErr = msg
		}
	}
	for i := 0; i+1 < len(src); i++ {
		if strings.HasPrefix(src[i:], "{#") {
			if k := strings.Index(src[i+2:], "#}"); k >= 0 {
				i += k + 3
			}
			continue
		}
		if src[i] != '{' || (src[i+1] != '{' && src[i+1] != '%') {
			continue
		}
		statement := src[i+1] == '%'
		end := "}}"
		if statement {
			end = "%}"
		}
		j := i + 2
		if statement && src[j] == '+' {
			fail("Unknown statement") // no {%+: its lexer reads + as an operator
		}
		if statement {
			name := strings.TrimLeft(src[j:], "-+ \t\r\n")
			k := 0
			for k < len(name) && isNameByte(name[k]) {
				k++
			}
			if name = name[:k]; name != "" && !llamaStatements[name] {
				fail("Unknown statement: " + name)
			}
		}
		var parens []bool // the open parentheses of the tag: whether each is a call's
		var prev byte     // the last byte of code before j that is not a space
		for j < len(src) && !strings.HasPrefix(src[j:], end) {
			c := src[j]
			switch {
			case c == '\'' || c == '"':
				for j++; j < len(src) && src[j] != c; j++ {
					if src[j] != '\\' || j+1 >= len(src) {
						continue
					}
					j++
					if !strings.ContainsRune(`ntrbfv\'"`, rune(src[j])) {
						return `lexer: unknown escape character \` + string(src[j])
					}
				}
				prev = c
				j++
				continue
			case c == '+' && statement && strings.HasPrefix(src[j+1:], "%}"):
				// no +%}: the operator + comes where the tag ends
				fail("Unexpected token: %} of type 9")
			case (c == '/' || c == '*') && j+1 < len(src) && src[j+1] == c:
				// no // or **: the second operator comes where an operand should
				fail("Unexpected token: " + string(c) + " of type 22")
			case c == '(':
				parens = append(parens, isNameByte(prev) || prev == ')' || prev == ']')
			case c == ')':
				if n := len(parens); n > 0 {
					if prev == ',' && !parens[n-1] {
						fail("Unexpected token: ) of type 7")
					}
					parens = parens[:n-1]
				}
			case c == 'i' && strings.HasPrefix(src[j:], "is") && !isNameByte(src[j-1]) && src[j-1] != '.' &&
				(j+2 == len(src) || !isNameByte(src[j+2])):
				if got := bareTestArgument(src[j+2:]); got != "" {
					fail("parser: Parser Error: Expected " + end + " (Got " + got + ")")
				}
			case isDigit(c) && !isNameByte(prev) && prev != '.':
				k := j
				for k < len(src) && isDigit(src[k]) {
					k++
				}
				if k+1 < len(src) && src[k] == '.' && isDigit(src[k+1]) {
					for k++; k < len(src) && isDigit(src[k]); k++ {
					}
				}
				if k < len(src) && isNameByte(src[k]) {
					name := k
					for name < len(src) && isNameByte(src[name]) {
						name++
					}
					fail("parser: Parser Error: Expected " + end + " (Got " + src[k:name] + ")")
				}
				prev = src[k-1]
				j = k
				continue
			}
			if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
				prev = c
			}
			j++
		}
		i = j
	}
	return parseErr
}

// bareTestArgument returns the start of the argument of a test written without
// parentheses after the keyword is (rest is the text after it: " not divisibleby 3"), or
// "" when the test has none or has it in parentheses. It reads as Jinja2's parse_test
// does: a name, a number, a str, a list or a dict after the test's name is its argument,
// but for else, or and and.
func bareTestArgument(rest string) string {
	word := func() string {
		rest = strings.TrimLeft(rest, " \t\r\n")
		k := 0
		for k < len(rest) && isNameByte(rest[k]) {
			k++
		}
		w := rest[:k]
		rest = rest[k:]
		return w
	}
	name := word()
	if name == "not" {
		name = word()
	}
	for name != "" && strings.HasPrefix(rest, ".") {
		rest = rest[1:]
		name = word()
	}
	if name == "" {
		return ""
	}
	rest = strings.TrimLeft(rest, " \t\r\n")
	if rest == "" {
		return ""
	}
	switch c := rest[0]; {
	case c == '\'' || c == '"' || c == '[' || c == '{' || isDigit(c):
		return rest[:1]
	case isNameByte(c):
		if w := word(); w != "else" && w != "or" && w != "and" {
			return w
		}
	}
	return ""
}

// isNameByte reports whether c can be part of a name.
func isNameByte(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || isDigit(c)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// llamaStatements are the statement keywords llama.cpp's parser knows, with the ones
// that continue or end a statement.
var llamaStatements = map[string]bool{
	"set": true, "endset": true, "if": true, "elif": true, "else": true, "endif": true, "for": true, "endfor": true,
	"macro": true, "endmacro": true, "call": true, "endcall": true, "filter": true, "endfilter": true,
	"generation": true, "endgeneration": true, "break": true, "continue": true,
}
