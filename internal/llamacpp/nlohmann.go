package llamacpp

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/tmplgen/tmplgen/internal/jinja2"
)

// NlohmannParse checks text as nlohmann::json::parse (3.11.2, the JSON library that
// llama_chat_driver of ../shared/oracle is built with) parses it, and returns the error
// it throws, what() of its exception, or "" when the text is JSON. It follows the library's lexer and parser: the token each error
// names, the context ("while parsing value", "object key"...), what was expected, and
// the position after the last byte read (line and column counted in bytes).
func NlohmannParse(text string) string {
	p := &nlohmannParser{lx: nlohmannLexer{in: text}}
	return p.parse()
}

// ParseJSON parses the JSON text s as llama.cpp does (JSONValue), with nlohmann::json's
// error where it refuses it.
func ParseJSON(s string, a *jinja2.Arena) (jinja2.Value, error) {
	if v, ok := JSONValue(s, a); ok {
		return v, nil
	}
	if msg := NlohmannParse(s); msg != "" {
		return jinja2.Value{}, errors.New(msg)
	}
	// a text nlohmann parses beyond the decoder's limits (jinja2.MaxNesting)
	_, _, err := a.ParseJSONFacts(strings.TrimPrefix(s, UTF8BOM))
	return jinja2.Value{}, err
}

// JSONValue parses the JSON text s as llama.cpp does (nlohmann::json::parse, which
// refuses NaN, Infinity and numbers beyond a double's range, and skips a leading BOM),
// into a value its engine reads: its ints as JSONNumbers gives them, its lists and
// dicts made in a. ok is false for a text it refuses. The decoder parses s; nlohmann's
// verdict is asked for only where the two may disagree (big ints).
func JSONValue(s string, a *jinja2.Arena) (v jinja2.Value, ok bool) {
	v, facts, err := a.ParseJSONFacts(strings.TrimPrefix(s, UTF8BOM))
	if err != nil || facts.NonFinite || facts.BigInts && NlohmannParse(s) != "" {
		return jinja2.Value{}, false // (an int beyond a double's range is refused)
	}
	if facts.BigInts {
		v = JSONNumbers(v)
	}
	return v, true
}

// UTF8BOM is the byte order mark nlohmann::json::parse skips at the start of a text.
const UTF8BOM = "\xEF\xBB\xBF"

// nlohmann's token types.
type nlToken int

const (
	nlUninitialized nlToken = iota
	nlTrue
	nlFalse
	nlNull
	nlString
	nlNumber // value_unsigned, value_integer, value_float
	nlBeginArray
	nlBeginObject
	nlEndArray
	nlEndObject
	nlNameSeparator
	nlValueSeparator
	nlParseError
	nlEndOfInput
	nlLiteralOrValue
)

// nlTokenNames are lexer::token_type_name.
var nlTokenNames = [...]string{
	nlUninitialized: "<uninitialized>", nlTrue: "true literal", nlFalse: "false literal", nlNull: "null literal",
	nlString: "string literal", nlNumber: "number literal", nlBeginArray: "'['", nlBeginObject: "'{'",
	nlEndArray: "']'", nlEndObject: "'}'", nlNameSeparator: "':'", nlValueSeparator: "','",
	nlParseError: "<parse error>", nlEndOfInput: "end of input", nlLiteralOrValue: "'[', '{', or a literal",
}

// nlohmannLexer is nlohmann's lexer over a string: position counts what get() read.
type nlohmannLexer struct {
	in    string
	next  int    // index of the next byte get() reads
	eof   bool   // get() returned EOF last
	token []byte // the bytes of the current token (get_token_string)
	err   string // error_message
	// position: bytes read in all, in the current line, and lines read
	total, col, lines int
	float             bool // the number token is a float
}

// get reads the next byte, or EOF (-1).
func (l *nlohmannLexer) get() int {
	l.total++
	l.col++
	l.eof = l.next >= len(l.in)
	if l.eof {
		l.next++
		return -1
	}
	c := l.in[l.next]
	l.next++
	l.token = append(l.token, c)
	if c == '\n' {
		l.lines++
		l.col = 0
	}
	return int(c)
}

// unget steps back one byte.
func (l *nlohmannLexer) unget() {
	l.total--
	if l.col == 0 {
		if l.lines > 0 {
			l.lines--
		}
	} else {
		l.col--
	}
	l.next--
	if !l.eof {
		l.token = l.token[:len(l.token)-1]
	}
}

// tokenString is get_token_string: control characters as <U+XXXX>.
func (l *nlohmannLexer) tokenString() string {
	var b strings.Builder
	for _, c := range l.token {
		if c <= 0x1f {
			fmt.Fprintf(&b, "<U+%04X>", c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

func (l *nlohmannLexer) scan() nlToken {
	if l.total == 0 {
		// skip_bom
		if l.get() == 0xEF {
			if l.get() != 0xBB || l.get() != 0xBF {
				l.err = "invalid BOM; must be 0xEF 0xBB 0xBF if given"
				return nlParseError
			}
		} else {
			l.unget()
		}
	}
	c := l.get()
	for c == ' ' || c == '\t' || c == '\n' || c == '\r' {
		c = l.get()
	}
	if c == '"' || c == '-' || (c >= '0' && c <= '9') {
		// reset: a string or number token starts here
		l.token = append(l.token[:0], byte(c))
	}
	switch c {
	case '[':
		return nlBeginArray
	case ']':
		return nlEndArray
	case '{':
		return nlBeginObject
	case '}':
		return nlEndObject
	case ':':
		return nlNameSeparator
	case ',':
		return nlValueSeparator
	case 't':
		return l.literal("true", nlTrue)
	case 'f':
		return l.literal("false", nlFalse)
	case 'n':
		return l.literal("null", nlNull)
	case '"':
		return l.str()
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return l.number(c)
	case 0, -1:
		return nlEndOfInput
	}
	l.err = "invalid literal"
	return nlParseError
}

func (l *nlohmannLexer) literal(word string, tok nlToken) nlToken {
	for i := 1; i < len(word); i++ {
		if l.get() != int(word[i]) {
			l.err = "invalid literal"
			return nlParseError
		}
	}
	return tok
}

// nlControlNames are the names scan_string gives an unescaped control character.
var nlControlNames = [...]string{"NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "HT", "LF", "VT", "FF", "CR", "SO", "SI",
	"DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN", "EM", "SUB", "ESC", "FS", "GS", "RS", "US"}

func (l *nlohmannLexer) str() nlToken {
	for {
		c := l.get()
		switch {
		case c == -1:
			l.err = "invalid string: missing closing quote"
			return nlParseError
		case c == '"':
			return nlString
		case c == '\\':
			switch l.get() {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				cp := l.hex4()
				if cp < 0 {
					l.err = "invalid string: '\\u' must be followed by 4 hex digits"
					return nlParseError
				}
				if cp >= 0xD800 && cp <= 0xDBFF {
					if l.get() != '\\' || l.get() != 'u' {
						l.err = "invalid string: surrogate U+D800..U+DBFF must be followed by U+DC00..U+DFFF"
						return nlParseError
					}
					lo := l.hex4()
					if lo < 0 {
						l.err = "invalid string: '\\u' must be followed by 4 hex digits"
						return nlParseError
					}
					if lo < 0xDC00 || lo > 0xDFFF {
						l.err = "invalid string: surrogate U+D800..U+DBFF must be followed by U+DC00..U+DFFF"
						return nlParseError
					}
				} else if cp >= 0xDC00 && cp <= 0xDFFF {
					l.err = "invalid string: surrogate U+DC00..U+DFFF must follow U+D800..U+DBFF"
					return nlParseError
				}
			default:
				l.err = "invalid string: forbidden character after backslash"
				return nlParseError
			}
		case c <= 0x1f:
			l.err = fmt.Sprintf("invalid string: control character U+%04X (%s) must be escaped to \\u%04X", c, nlControlNames[c], c)
			if c == 0x0A || c == 0x09 || c == 0x08 || c == 0x0C || c == 0x0D || c == 0x22 {
				l.err = fmt.Sprintf("invalid string: control character U+%04X (%s) must be escaped to \\u%04X or \\%c", c, nlControlNames[c], c, map[int]byte{8: 'b', 9: 't', 10: 'n', 12: 'f', 13: 'r'}[c])
			}
			return nlParseError
		case c < 0x80:
		default:
			if !l.utf8Tail(c) {
				l.err = "invalid string: ill-formed UTF-8 byte"
				return nlParseError
			}
		}
	}
}

// utf8Tail reads the continuation bytes of a UTF-8 sequence that starts with c, in the
// ranges scan_string accepts (those of well-formed UTF-8).
func (l *nlohmannLexer) utf8Tail(c int) bool {
	type rng struct{ lo, hi int }
	var tail []rng
	switch {
	case c >= 0xC2 && c <= 0xDF:
		tail = []rng{{0x80, 0xBF}}
	case c == 0xE0:
		tail = []rng{{0xA0, 0xBF}, {0x80, 0xBF}}
	case (c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF:
		tail = []rng{{0x80, 0xBF}, {0x80, 0xBF}}
	case c == 0xED:
		tail = []rng{{0x80, 0x9F}, {0x80, 0xBF}}
	case c == 0xF0:
		tail = []rng{{0x90, 0xBF}, {0x80, 0xBF}, {0x80, 0xBF}}
	case c >= 0xF1 && c <= 0xF3:
		tail = []rng{{0x80, 0xBF}, {0x80, 0xBF}, {0x80, 0xBF}}
	case c == 0xF4:
		tail = []rng{{0x80, 0x8F}, {0x80, 0xBF}, {0x80, 0xBF}}
	default:
		return false
	}
	for _, r := range tail {
		if b := l.get(); b < r.lo || b > r.hi {
			return false
		}
	}
	return true
}

// hex4 reads four hex digits, or returns -1.
func (l *nlohmannLexer) hex4() int {
	v := 0
	for range 4 {
		c := l.get()
		switch {
		case c >= '0' && c <= '9':
			v = v*16 + c - '0'
		case c >= 'a' && c <= 'f':
			v = v*16 + c - 'a' + 10
		case c >= 'A' && c <= 'F':
			v = v*16 + c - 'A' + 10
		default:
			return -1
		}
	}
	return v
}

func (l *nlohmannLexer) number(c int) nlToken {
	l.float = false
	isDigit := func(c int) bool { return c >= '0' && c <= '9' }
	if c == '-' {
		c = l.get()
		if !isDigit(c) {
			l.err = "invalid number; expected digit after '-'"
			return nlParseError
		}
	}
	if c != '0' {
		for c = l.get(); isDigit(c); c = l.get() {
		}
	} else {
		c = l.get()
	}
	if c == '.' {
		l.float = true
		if c = l.get(); !isDigit(c) {
			l.err = "invalid number; expected digit after '.'"
			return nlParseError
		}
		for c = l.get(); isDigit(c); c = l.get() {
		}
	}
	if c == 'e' || c == 'E' {
		l.float = true
		c = l.get()
		if c == '+' || c == '-' {
			if c = l.get(); !isDigit(c) {
				l.err = "invalid number; expected digit after exponent sign"
				return nlParseError
			}
		} else if !isDigit(c) {
			l.err = "invalid number; expected '+', '-', or digit after exponent"
			return nlParseError
		}
		for c = l.get(); isDigit(c); c = l.get() {
		}
	}
	l.unget()
	if !l.float {
		// an integer too big for 64 bits is read as a float
		if _, err := strconv.ParseInt(string(l.token), 10, 64); err != nil {
			if _, err := strconv.ParseUint(string(l.token), 10, 64); err != nil {
				l.float = true
			}
		}
	}
	return nlNumber
}

// nlohmannParser is nlohmann's parser, with its last token.
type nlohmannParser struct {
	lx   nlohmannLexer
	last nlToken
}

func (p *nlohmannParser) getToken() nlToken {
	p.last = p.lx.scan()
	return p.last
}

// fail is a parse_error 101 at the lexer's position.
func (p *nlohmannParser) fail(expected nlToken, context string) string {
	msg := "syntax error "
	if context != "" {
		msg += "while parsing " + context + " "
	}
	msg += "- "
	if p.last == nlParseError {
		msg += p.lx.err + "; last read: '" + p.lx.tokenString() + "'"
	} else {
		msg += "unexpected " + nlTokenNames[p.last]
	}
	if expected != nlUninitialized {
		msg += "; expected " + nlTokenNames[expected]
	}
	return p.at(msg)
}

func (p *nlohmannParser) at(msg string) string {
	return fmt.Sprintf("[json.exception.parse_error.101] parse error at line %d, column %d: %s", p.lx.lines+1, p.lx.col, msg)
}

// memberKey reads the key of an object member, the current token, and the ":" after
// it, and moves to the token of the value.
func (p *nlohmannParser) memberKey() string {
	if p.last != nlString {
		return p.fail(nlString, "object key")
	}
	if p.getToken() != nlNameSeparator {
		return p.fail(nlNameSeparator, "object separator")
	}
	p.getToken()
	return ""
}

// parse is sax_parse_internal, then the strict check that the input ends there.
func (p *nlohmannParser) parse() string {
	var states []bool // true: in an array
	p.getToken()
	skip := false
	for {
		if !skip {
			switch p.last {
			case nlBeginObject:
				if p.getToken() == nlEndObject {
					break
				}
				if msg := p.memberKey(); msg != "" {
					return msg
				}
				states = append(states, false)
				continue
			case nlBeginArray:
				if p.getToken() == nlEndArray {
					break
				}
				states = append(states, true)
				continue
			case nlNumber:
				if p.lx.float {
					if f, err := strconv.ParseFloat(string(p.lx.token), 64); err != nil && math.IsInf(f, 0) {
						return "[json.exception.out_of_range.406] number overflow parsing '" + p.lx.tokenString() + "'"
					}
				}
			case nlTrue, nlFalse, nlNull, nlString:
			case nlParseError:
				return p.fail(nlUninitialized, "value")
			default:
				return p.fail(nlLiteralOrValue, "value")
			}
		}
		skip = false
		if len(states) == 0 {
			break
		}
		if states[len(states)-1] {
			switch p.getToken() {
			case nlValueSeparator:
				p.getToken()
				continue
			case nlEndArray:
				states = states[:len(states)-1]
				skip = true
				continue
			}
			return p.fail(nlEndArray, "array")
		}
		switch p.getToken() {
		case nlValueSeparator:
			p.getToken()
			if msg := p.memberKey(); msg != "" {
				return msg
			}
			continue
		case nlEndObject:
			states = states[:len(states)-1]
			skip = true
			continue
		}
		return p.fail(nlEndObject, "object")
	}
	if p.getToken() != nlEndOfInput {
		return p.fail(nlEndOfInput, "value")
	}
	return ""
}
