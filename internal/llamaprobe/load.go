package llamaprobe

import (
	"strconv"
	"strings"
)

// llamaLoadError returns the error llama.cpp (b10587) gives when it loads the template
// text src, as its own lexer and parser see it, or "" when they accept it:
//   - a string literal with an escape its lexer lacks (it knows \n \t \r \b \f \v \\ \'
//     \" only, where Jinja2 keeps any other backslash);
//   - a byte outside ASCII in code (a name such as é), which its lexer does not know;
//   - a statement its parser lacks (it knows set, if, for, macro, call, filter,
//     generation, break and continue, not raw, with, block, include...);
//   - a number its lexer ends before a letter or an underscore (it reads digits and a
//     fraction only: 1e5, 0x10 and 1_000 are a number and a name), which its parser
//     meets where the tag should end, but in a list or a call's arguments, which need
//     no commas (syntax.ParseLlama reads two items); an int literal beyond int64
//     (std::stoll);
//   - a tuple in parentheses with a trailing comma, (1,), and the empty tuple () (a
//     call's trailing comma and empty arguments are fine);
//   - the operators // and **, which it lacks;
//   - Jinja2's markers {%+ and +%}, which its lexer reads as the operator +;
//   - a test's argument without parentheses (x is divisibleby 3): its parser takes the
//     test's name only, and meets the argument where the tag should end;
//   - a sign that is not part of a number: its lexer reads - or + after an operand (a
//     name, a number, a str, ")" or "]") as the binary operator, which after a keyword
//     (if, else, not...) has no left operand, and anywhere else as part of the number
//     that follows it (-1), or as a unary operator its parser has no rule for (-x);
//   - a comma outside brackets in {{ }} ({{ 1, 2 }}), a filter chain in a filter
//     statement ({% filter upper|lower %}), and a recursive loop.
//
// llama-server then refuses to start: every request gets this error. Its lexer runs
// first, so a lexer error comes before the others, which come in the text's order.
func llamaLoadError(src string) string {
	var parseErr string
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
		t := tagScan{src: src, j: i + 2, statement: src[i+1] == '%'}
		if lexErr := t.scan(); lexErr != "" {
			return lexErr
		}
		if parseErr == "" {
			parseErr = t.parseErr
		}
		i = t.j
	}
	return parseErr
}

// tagScan reads one tag of a template as llama.cpp's lexer and parser do, as far as
// llamaLoadError needs.
type tagScan struct {
	src       string
	j         int  // the position read
	statement bool // {% %}, not {{ }}
	parseErr  string
	open      []bracket // the open brackets, innermost last
	prev      byte      // the last byte of code before j that is not a space
	prevWord  string    // the name that ends at prev, if prev ends one
}

func (t *tagScan) fail(msg string) {
	if t.parseErr == "" {
		t.parseErr = msg
	}
}

// scan reads the tag up to its end and returns a lexer error, or "" (a parser error is
// kept in parseErr).
func (t *tagScan) scan() string {
	src := t.src
	end := "}}"
	if t.statement {
		end = "%}"
	}
	keyword := ""
	if t.statement {
		if src[t.j] == '+' {
			t.fail("Unknown statement") // no {%+: its lexer reads + as an operator
		}
		name := strings.TrimLeft(src[t.j:], "-+ \t\r\n")
		k := 0
		for k < len(name) && isNameByte(name[k]) {
			k++
		}
		if keyword = name[:k]; keyword != "" && !llamaStatements[keyword] {
			t.fail("Unknown statement: " + keyword)
		}
	}
	if t.j < len(src) && src[t.j] == '-' {
		t.j++ // {{- and {%-
	}
	for t.j < len(src) && !strings.HasPrefix(src[t.j:], end) {
		c := src[t.j]
		word := ""
		switch {
		case c >= 0x80:
			return "lexer: unexpected character: " + src[t.j:t.j+1] // the byte, as its message has it
		case c == '\'' || c == '"':
			j := t.j
			for j++; j < len(src) && src[j] != c; j++ {
				if src[j] != '\\' || j+1 >= len(src) {
					continue
				}
				j++
				if !strings.ContainsRune(`ntrbfv\'"`, rune(src[j])) {
					return `lexer: unknown escape character \` + string(src[j])
				}
			}
			t.prev, t.prevWord = c, ""
			t.j = j + 1
			continue
		case c == '+' && t.statement && strings.HasPrefix(src[t.j+1:], "%}"):
			// no +%}: the operator + comes where the tag ends
			t.fail("Unexpected token: %} of type 9")
		case (c == '-' || c == '+') && !strings.HasPrefix(src[t.j+1:], end):
			t.sign(c)
		case (c == '/' || c == '*') && t.j+1 < len(src) && src[t.j+1] == c:
			// no // or **: the second operator comes where an operand should
			t.fail("Unexpected token: " + string(c) + " of type 22")
		case c == '(':
			t.open = append(t.open, bracket{c, t.afterValue()}) // a call's arguments
		case c == ')':
			if n := len(t.open); n > 0 && t.open[n-1].c == '(' && !t.open[n-1].items && (t.prev == ',' || t.prev == '(') {
				t.fail("Unexpected token: ) of type 7")
			}
			t.close()
		case c == '[' || c == '{':
			// a subscript is no list, but llama.cpp's parser reads expressions up to its
			// closing bracket as it reads a list's (parse_member_expression_arguments:
			// x[1e5] is x[1], e5 read and dropped)
			t.open = append(t.open, bracket{c, c == '['})
		case c == ']' || c == '}':
			t.close()
		case c == ',' && !t.statement && len(t.open) == 0:
			t.fail("parser: Parser Error: Expected }} (Got ,)")
		case c == '|' && keyword == "filter" && len(t.open) == 0:
			t.fail("parser: Parser Error: Expected %} (Got |)")
		case isDigit(c) && !isNameByte(src[t.j-1]) && src[t.j-1] != '.':
			t.number(end)
			continue
		case isNameByte(c):
			k := t.j
			for k < len(src) && isNameByte(src[k]) {
				k++
			}
			word = src[t.j:k]
			switch {
			case word == "is" && src[t.j-1] != '.':
				if got := bareTestArgument(src[k:]); got != "" {
					t.fail("parser: Parser Error: Expected " + end + " (Got " + got + ")")
				}
			case word == "recursive" && keyword == "for":
				t.fail("parser: Parser Error: Expected %} (Got recursive)")
			}
			t.prev, t.prevWord = src[k-1], word
			t.j = k
			continue
		}
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			t.prev, t.prevWord = c, word
		}
		t.j++
	}
	return ""
}

// bracket is an open bracket of a tag: its character, and whether llama.cpp's parser
// reads items without commas in it (a list's, or a call's arguments).
type bracket struct {
	c     byte
	items bool
}

// close reads a closing bracket.
func (t *tagScan) close() {
	if n := len(t.open); n > 0 {
		t.open = t.open[:n-1]
	}
}

// afterValue reports whether the code before t.j ends with a name other than a keyword,
// a ) or a ]: a ( there opens a call's arguments.
func (t *tagScan) afterValue() bool {
	return isNameByte(t.prev) && t.prevWord != "" && !keywords[t.prevWord] || t.prev == ')' || t.prev == ']'
}

// keywords are the names that are operators or parts of a statement: a sign after one
// has no left operand, and a parenthesis after one is no call.
var keywords = map[string]bool{"if": true, "else": true, "elif": true, "not": true, "and": true, "or": true, "in": true, "is": true}

// sign reads the sign c at t.j: the binary operator after an operand, else part of the
// number it is written against, else a unary operator llama.cpp's parser refuses.
func (t *tagScan) sign(c byte) {
	switch {
	case t.prev == '\'' || t.prev == '"' || t.prev == ')' || t.prev == ']':
	case isNameByte(t.prev):
		if keywords[t.prevWord] {
			t.fail("Unexpected token: " + string(c) + " of type 21")
		}
	case t.j+1 < len(t.src) && isDigit(t.src[t.j+1]):
	default:
		t.fail("Unexpected token: " + string(c) + " of type 24")
	}
}

// number reads the number at t.j: digits and a fraction. A letter or an underscore right
// after it is a name its parser meets where the tag should end; an int beyond int64
// fails std::stoll (but -9223372036854775808, whose sign is part of the literal).
func (t *tagScan) number(end string) {
	src := t.src
	k := t.j
	for k < len(src) && isDigit(src[k]) {
		k++
	}
	fraction := k+1 < len(src) && src[k] == '.' && isDigit(src[k+1])
	if fraction {
		for k++; k < len(src) && isDigit(src[k]); k++ {
		}
	}
	if k < len(src) && isNameByte(src[k]) && !(len(t.open) > 0 && t.open[len(t.open)-1].items) {
		name := k
		for name < len(src) && isNameByte(src[name]) {
			name++
		}
		if msg := t.nameAfterNumber(end, src[k:name], name); msg != "" {
			t.fail("parser: Parser Error: " + msg)
		}
	}
	if !fraction {
		digits := src[t.j:k]
		if src[t.j-1] == '-' && t.prev == '-' {
			digits = "-" + digits
		}
		if _, err := strconv.ParseInt(digits, 10, 64); err != nil {
			t.fail("stoll")
		}
	}
	t.prev, t.prevWord = src[k-1], ""
	t.j = k
}

// nameAfterNumber returns the error of llama.cpp's parser where the name word, which
// ends at the byte next, follows a number: its lexer reads them as two tokens, and the
// innermost bracket (or the tag) expects another after the number. A dict's key is
// followed by its colon; after a value, the name is read as the next key, followed by
// the token at next, which is fine when it is the colon. "" when there is no error.
func (t *tagScan) nameAfterNumber(end, word string, next int) string {
	got := word
	if n := len(t.open); n > 0 {
		switch t.open[n-1].c {
		case '(':
			end = ")"
		case '{':
			end = ":"
			if t.prev == ':' {
				got = nextToken(t.src[next:])
				if got == ":" {
					return ""
				}
			}
		}
	}
	return "Expected " + end + " (Got " + got + ")"
}

// nextToken returns the text of llama.cpp's token at the start of s, after spaces: a
// name, the contents of a string, else its first byte.
func nextToken(s string) string {
	s = strings.TrimLeft(s, " \t\r\n")
	switch {
	case s == "":
		return ""
	case isNameByte(s[0]):
		k := 0
		for k < len(s) && isNameByte(s[k]) {
			k++
		}
		return s[:k]
	case s[0] == '\'' || s[0] == '"':
		if k := strings.IndexByte(s[1:], s[0]); k >= 0 {
			return s[1 : 1+k]
		}
	case strings.HasPrefix(s, "}}") || strings.HasPrefix(s, "%}"):
		return s[:2]
	}
	return s[:1]
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
