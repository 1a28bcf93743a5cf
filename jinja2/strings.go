package jinja2

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// charRange is an inclusive range of characters.
type charRange [2]rune

// inRanges reports whether r is in one of the sorted ranges.
func inRanges(t []charRange, r rune) bool {
	if len(t) == 0 || r < t[0][0] {
		return false
	}
	i := sort.Search(len(t), func(i int) bool { return t[i][1] >= r })
	return i < len(t) && t[i][0] <= r
}

// The character classes of Python's str methods (and of the regular expression classes
// Jinja2 uses): the unicode package's answer, corrected by the generated tables of
// casetable.go where Python's Unicode data differ (another Unicode version, or
// properties such as Other_Uppercase that the unicode package's categories do not have).

// isSpace reports whether r is whitespace as Python's str.isspace defines it: Unicode
// White_Space plus the ASCII separators U+001C..U+001F.
func isSpace(r rune) bool { return unicode.IsSpace(r) != inRanges(pySpaceFlips, r) }

// pyIsUpper, pyIsLower and pyIsTitle are Python's per-character case classes.
func pyIsUpper(r rune) bool { return unicode.IsUpper(r) != inRanges(pyUpperFlips, r) }
func pyIsLower(r rune) bool { return unicode.IsLower(r) != inRanges(pyLowerFlips, r) }
func pyIsTitle(r rune) bool { return unicode.IsTitle(r) != inRanges(pyTitleFlips, r) }

// isWordRune is the regular expression class \w of Python's re: str.isalnum() or "_".
func isWordRune(r rune) bool {
	return r == '_' || isAlphaRune(r) || isDecimalRune(r) || isDigitRune(r) || isNumericRune(r)
}

func isCased(r rune) bool { return pyIsUpper(r) || pyIsLower(r) || pyIsTitle(r) }

func isCaseIgnorable(r rune) bool {
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk) ||
		r == '\'' || r == '.' || r == ':' || r == 0xb7 || r == 0x2019
}

func upperRune(b *strings.Builder, r rune) {
	if s, ok := pythonUpperSpecial[r]; ok {
		b.WriteString(s)
		return
	}
	b.WriteRune(unicode.ToUpper(r))
}

func titleRune(b *strings.Builder, r rune) {
	if s, ok := pythonTitleSpecial[r]; ok {
		b.WriteString(s)
		return
	}
	b.WriteRune(unicode.ToTitle(r))
}

// lowerRune lowers the character at byte offset i of s, with Python's final sigma rule.
func lowerRune(b *strings.Builder, s string, i int, r rune) {
	if r == 0x3a3 {
		if finalSigma(s, i) {
			b.WriteRune(0x3c2)
		} else {
			b.WriteRune(0x3c3)
		}
		return
	}
	if m, ok := pythonLowerSpecial[r]; ok {
		b.WriteString(m)
		return
	}
	b.WriteRune(unicode.ToLower(r))
}

// finalSigma reports whether the capital sigma at byte offset i ends a word: a cased
// letter comes before it and none after it (skipping case-ignorable characters).
func finalSigma(s string, i int) bool {
	before := false
	for j := i; j > 0; {
		r, size := utf8.DecodeLastRuneInString(s[:j])
		j -= size
		if isCaseIgnorable(r) {
			continue
		}
		before = isCased(r)
		break
	}
	if !before {
		return false
	}
	for j := i + utf8.RuneLen(0x3a3); j < len(s); {
		r, size := utf8.DecodeRuneInString(s[j:])
		j += size
		if isCaseIgnorable(r) {
			continue
		}
		return !isCased(r)
	}
	return true
}

// asciiChars holds the 128 ASCII characters in order: asciiChars[c:c+1] is the
// one-character str of c, without an allocation.
var asciiChars = func() string {
	b := make([]byte, 128)
	for i := range b {
		b[i] = byte(i)
	}
	return string(b)
}()

// upper is Python's str.upper.
func upper(s string) string {
	if len(s) == 1 && s[0] < 0x80 {
		c := s[0] // message['role'][:1] | upper and the like
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		return asciiChars[c : c+1]
	}
	if isASCII(s) {
		return strings.ToUpper(s)
	}
	var b strings.Builder
	for _, r := range s {
		upperRune(&b, r)
	}
	return b.String()
}

// lower is Python's str.lower.
func lower(s string) string {
	if len(s) == 1 && s[0] < 0x80 {
		c := s[0]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		return asciiChars[c : c+1]
	}
	if isASCII(s) {
		return strings.ToLower(s)
	}
	var b strings.Builder
	for i, r := range s {
		lowerRune(&b, s, i, r)
	}
	return b.String()
}

// casefold is Python's str.casefold: full Unicode case folding, which is each
// character's lower case (without the final sigma rule) except where the folding table
// says otherwise ("ß" folds to "ss", "ς" to "σ").
func casefold(s string) string {
	if isASCII(s) {
		return strings.ToLower(s)
	}
	var b strings.Builder
	for _, r := range s {
		if m, ok := pythonCasefoldSpecial[r]; ok {
			b.WriteString(m)
		} else if m, ok := pythonLowerSpecial[r]; ok {
			b.WriteString(m)
		} else {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// pyTitle is Python's str.title: a character after a cased character is lowered, any
// other is title-cased.
func pyTitle(s string) string {
	var b strings.Builder
	prevCased := false
	for i, r := range s {
		if prevCased {
			lowerRune(&b, s, i, r)
		} else {
			titleRune(&b, r)
		}
		prevCased = isCased(r)
	}
	return b.String()
}

// capitalize is Python's str.capitalize: the first character title-cased, the rest
// lowered.
func capitalize(s string) string {
	var b strings.Builder
	for i, r := range s {
		if i == 0 {
			titleRune(&b, r)
		} else {
			lowerRune(&b, s, i, r)
		}
	}
	return b.String()
}

// swapcase is Python's str.swapcase.
func swapcase(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case pyIsUpper(r):
			lowerRune(&b, s, i, r)
		case pyIsLower(r):
			upperRune(&b, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isLowerStr(s string) bool {
	cased := false
	for _, r := range s {
		if pyIsUpper(r) || pyIsTitle(r) {
			return false
		}
		if pyIsLower(r) {
			cased = true
		}
	}
	return cased
}

func isUpperStr(s string) bool {
	cased := false
	for _, r := range s {
		if pyIsLower(r) || pyIsTitle(r) {
			return false
		}
		if pyIsUpper(r) {
			cased = true
		}
	}
	return cased
}

func isTitleStr(s string) bool {
	cased, prevCased := false, false
	for _, r := range s {
		switch {
		case pyIsUpper(r) || pyIsTitle(r):
			if prevCased {
				return false
			}
			prevCased, cased = true, true
		case pyIsLower(r):
			if !prevCased {
				return false
			}
			prevCased, cased = true, true
		default:
			prevCased = false
		}
	}
	return cased
}

func isDigitRune(r rune) bool   { return unicode.IsDigit(r) != inRanges(pyDigitFlips, r) }
func isDecimalRune(r rune) bool { return unicode.IsDigit(r) != inRanges(pyDecimalFlips, r) }
func isAlphaRune(r rune) bool   { return unicode.IsLetter(r) != inRanges(pyAlphaFlips, r) }
func isNumericRune(r rune) bool {
	return unicode.In(r, unicode.Nd, unicode.Nl, unicode.No) != inRanges(pyNumericFlips, r)
}

// escapeHTML is markupsafe.escape on text: & < > ' " become entities.
func escapeHTML(s string) string {
	if !strings.ContainsAny(s, "&<>'\"") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '\'':
			b.WriteString("&#39;")
		case '"':
			b.WriteString("&#34;")
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// escapeUnlessMarkup is markupsafe.escape(v) as text: Markup stays as it is, any other
// value is converted with str() and escaped.
func escapeUnlessMarkup(v Value) string {
	if v.IsMarkup() {
		return v.str()
	}
	return escapeHTML(v.String())
}

// striptags is Markup.striptags: tags and comments removed, entities decoded and
// whitespace collapsed.
func striptags(s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "<!--")
		j := strings.IndexByte(s, '<')
		if j < 0 {
			b.WriteString(s)
			break
		}
		if i == j {
			end := strings.Index(s[i+4:], "-->")
			if end < 0 {
				b.WriteString(s)
				break
			}
			b.WriteString(s[:i])
			s = s[i+4+end+3:]
			continue
		}
		end := strings.IndexByte(s[j:], '>')
		if end < 0 {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:j])
		s = s[j+end+1:]
	}
	return unescapeHTML(strings.Join(strings.FieldsFunc(b.String(), isSpace), " "))
}

// unescapeHTML decodes the character references markupsafe produces and the common
// named ones.
func unescapeHTML(s string) string {
	if !strings.Contains(s, "&") {
		return s
	}
	r := strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">", "&#39;", "'", "&#34;", "\"", "&quot;", "\"", "&apos;", "'", "&nbsp;", "\u00a0")
	return r.Replace(s)
}
