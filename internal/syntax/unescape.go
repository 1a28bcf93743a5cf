package syntax

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// unescapeString decodes the body of a string literal as Jinja2 does: the text is first
// made ASCII with Python's "backslashreplace" (so a non-ASCII character becomes \xNN,
// \uNNNN or \UNNNNNNNN) and then decoded with the "unicode-escape" codec. The round trip
// leaves ordinary non-ASCII text as it was, and reproduces Python's treatment of a
// backslash that precedes a non-ASCII character.
func unescapeString(body string) (string, error) {
	if strings.IndexByte(body, '\\') < 0 {
		return body, nil
	}
	return decodeUnicodeEscape(backslashReplace(body))
}

// backslashReplace writes every non-ASCII character as a Python escape sequence.
func backslashReplace(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < 0x80:
			b.WriteRune(r)
		case r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r < 0x10000:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
	}
	return b.String()
}

// decodeUnicodeEscape implements Python's unicode-escape codec on ASCII text.
func decodeUnicodeEscape(s string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(s) {
			return "", errors.New("\\ at end of string")
		}
		switch c = s[i]; c {
		case '\n':
		case '\\', '\'', '"':
			b.WriteByte(c)
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v := rune(c - '0')
			for n := 1; n < 3 && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '7'; n++ {
				i++
				v = v*8 + rune(s[i]-'0')
			}
			b.WriteRune(v)
		case 'x', 'u', 'U':
			width := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
			hex := s[i+1 : min(i+1+width, len(s))]
			v, err := strconv.ParseUint(hex, 16, 32)
			if len(hex) < width || err != nil || strings.ContainsAny(hex, "+-_") {
				return "", fmt.Errorf("truncated \\%c%s escape", c, strings.Repeat("X", width))
			}
			if v > utf8.MaxRune {
				return "", errors.New("illegal Unicode character")
			}
			b.WriteRune(rune(v))
			i += width
		case 'N':
			// \N{name}: the name runs to the first closing brace
			end := strings.IndexByte(s[i:], '}')
			if i+1 >= len(s) || s[i+1] != '{' || end < 3 {
				return "", errors.New("malformed \\N character escape")
			}
			r, ok := charByName(s[i+2 : i+end])
			if !ok {
				return "", errors.New("unknown Unicode character name")
			}
			b.WriteRune(r)
			i += end
		default:
			b.WriteByte('\\')
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}
