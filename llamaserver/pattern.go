package llamaserver

import (
	"strconv"
	"strings"
)

// The pattern of a string schema: common_schema_converter::_pattern_to_rule (b10587)
// turns a regular expression into grammar rules, and refuses one it finds invalid
// (invalid_pattern: the request fails with "Invalid pattern P: why") or does not support
// (unsupported_pattern: a warning, and any string). patternError follows its scan as far
// as it decides which of the two it throws first; the rules are not built.

// maxPatternDepth is MAX_PATTERN_DEPTH, the deepest nesting of groups it takes.
const maxPatternDepth = 100

// patternFailure is what _pattern_to_rule throws: invalid (an error of the request) or
// not (unsupported: a warning).
type patternFailure struct {
	invalid bool
	why     string
}

// unsupported is an unsupported_pattern, whose text does not matter here.
var unsupported = &patternFailure{}

// invalid returns an invalid_pattern.
func invalid(why string) *patternFailure { return &patternFailure{invalid: true, why: why} }

// patternError returns why _pattern_to_rule finds pattern invalid, or "" when it takes
// it or does not support it.
func patternError(pattern string) string {
	if len(pattern) < 2 || pattern[0] != '^' || pattern[len(pattern)-1] != '$' {
		return "" // not anchored: unsupported
	}
	s := &patternScan{sub: pattern[1 : len(pattern)-1]}
	f := s.transform()
	if f == nil && s.depth != 0 {
		f = invalid("unbalanced parentheses")
	}
	if f == nil || !f.invalid {
		return ""
	}
	return f.why
}

// patternScan is the state of the scan of a pattern without its anchors.
type patternScan struct {
	sub   string
	i     int
	depth int
}

// transform scans a sequence up to the end or to the ")" that closes the group it is in,
// and returns what it throws, or nil.
func (s *patternScan) transform() *patternFailure {
	seq := 0 // the sequence's items, which a repetition needs one of
	for s.i < len(s.sub) {
		switch c := s.sub[s.i]; c {
		case '.', '|':
			seq++
			s.i++
		case '(':
			s.i++
			if s.i < len(s.sub) && s.sub[s.i] == '?' {
				if s.i+1 >= len(s.sub) || s.sub[s.i+1] != ':' {
					return unsupported // lookaround, named group, flags
				}
				s.i += 2
			}
			if s.depth++; s.depth > maxPatternDepth {
				return unsupported
			}
			if f := s.transform(); f != nil {
				return f
			}
			seq++
		case ')':
			s.i++
			if s.depth == 0 {
				return invalid("unbalanced parentheses")
			}
			s.depth--
			return nil
		case '^', '$':
			return unsupported // an anchor inside the pattern
		case '[':
			s.i++
			for s.i < len(s.sub) && s.sub[s.i] != ']' {
				if s.sub[s.i] != '\\' {
					s.i++
					continue
				}
				n := escapeLength(s.sub, s.i)
				if n == 0 {
					return unsupported
				}
				s.i += n
			}
			if s.i >= len(s.sub) {
				return invalid("unterminated character class")
			}
			s.i++
			seq++
		case '*', '+', '?':
			if seq == 0 {
				return invalid("nothing to repeat")
			}
			s.i++
		case '{':
			s.i++
			start := s.i
			for s.i < len(s.sub) && s.sub[s.i] != '}' {
				s.i++
			}
			if s.i >= len(s.sub) {
				return unsupported // unterminated curly brackets
			}
			nums := strings.Split(s.sub[start:s.i], ",")
			s.i++
			switch {
			case len(nums) != 1 && len(nums) != 2:
				return unsupported
			case len(nums) == 1 && !stoiOK(nums[0]),
				len(nums) == 2 && (nums[0] != "" && !stoiOK(nums[0]) || nums[1] != "" && !stoiOK(nums[1])):
				return unsupported // an invalid number
			case seq == 0:
				return invalid("nothing to repeat")
			}
		default:
			if f := s.literal(); f != nil {
				return f
			}
			seq++
		}
	}
	return nil
}

// nonLiteral is NON_LITERAL_SET, the characters that end a literal.
const nonLiteral = "|.()[]{}*+?^$"

// literal scans a literal: escapes, and characters up to one that ends it (a character
// before a repetition is a literal of its own).
func (s *patternScan) literal() *patternFailure {
	sub, consumed := s.sub, 0
	isNonLiteral := func(c byte) bool { return strings.IndexByte(nonLiteral, c) >= 0 }
	for s.i < len(sub) {
		switch c := sub[s.i]; {
		case c == '\\':
			if s.i == len(sub)-1 {
				return invalid("trailing backslash")
			}
			if strings.IndexByte(nonLiteral, sub[s.i+1]) >= 0 { // ESCAPED_IN_REGEXPS_BUT_NOT_IN_LITERALS
				s.i += 2
			} else {
				n := escapeLength(sub, s.i)
				if n == 0 {
					return unsupported // an unsupported escape
				}
				s.i += n
			}
		case c == '"':
			s.i++
		case !isNonLiteral(c) && (s.i == len(sub)-1 || consumed == 0 || sub[s.i+1] == '.' || !isNonLiteral(sub[s.i+1])):
			s.i++
		default:
			if consumed == 0 {
				return unsupported // a stray ] or }
			}
			return nil
		}
		consumed++
	}
	return nil
}

// escapeLength is gbnf_escape_length: the length of the escape at pattern[pos] GBNF
// takes (\x.. \u.... \U........ \t \r \n \\ \" \[ \]), or 0.
func escapeLength(pattern string, pos int) int {
	if pos+1 >= len(pattern) || pattern[pos] != '\\' {
		return 0
	}
	hex := 0
	switch pattern[pos+1] {
	case 'x':
		hex = 2
	case 'u':
		hex = 4
	case 'U':
		hex = 8
	case 't', 'r', 'n', '\\', '"', '[', ']':
		return 2
	default:
		return 0
	}
	if pos+2+hex > len(pattern) {
		return 0
	}
	for _, h := range []byte(pattern[pos+2 : pos+2+hex]) {
		if !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
			return 0
		}
	}
	return 2 + hex
}

// stoiOK reports whether std::stoi takes s: spaces (C's isspace), a sign, digits, within
// an int.
func stoiOK(s string) bool {
	s = strings.TrimLeft(s, " \t\n\v\f\r")
	n := 0
	if n < len(s) && (s[n] == '+' || s[n] == '-') {
		n++
	}
	digits := n
	for n < len(s) && '0' <= s[n] && s[n] <= '9' {
		n++
	}
	if n == digits {
		return false
	}
	_, err := strconv.ParseInt(s[:n], 10, 32)
	return err == nil
}
