package pystr

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

// IsSpace reports whether r is whitespace as Python's str.isspace defines it: Unicode
// White_Space plus the ASCII separators U+001C..U+001F.
func IsSpace(r rune) bool { return unicode.IsSpace(r) != inRanges(pySpaceFlips, r) }

// asciiSpace has bit b set for each ASCII byte b that IsSpace: \t \n \v \f \r,
// U+001C..U+001F and the space.
const asciiSpace = 1<<'\t' | 1<<'\n' | 1<<'\v' | 1<<'\f' | 1<<'\r' | 0xf<<0x1c | 1<<' '

func isASCIISpace(b byte) bool { return b <= ' ' && asciiSpace&(1<<b) != 0 }

// StripSpace returns the bounds of s without its leading whitespace (when left) and
// its trailing whitespace (when right), as IsSpace says: Python's str.strip(),
// lstrip() and rstrip() without arguments. ASCII is read byte by byte; the first
// byte beyond it at either end hands that end to the Unicode tables.
func StripSpace(s string, left, right bool) (start, end int) {
	end = len(s)
	if left {
		for start < end && isASCIISpace(s[start]) {
			start++
		}
		if start < end && s[start] >= utf8.RuneSelf {
			start = end - len(strings.TrimLeftFunc(s[start:], IsSpace))
		}
	}
	if right {
		for end > start && isASCIISpace(s[end-1]) {
			end--
		}
		if end > start && s[end-1] >= utf8.RuneSelf {
			end = start + len(strings.TrimRightFunc(s[start:end], IsSpace))
		}
	}
	return start, end
}

// pyIsUpper, pyIsLower and pyIsTitle are Python's per-character case classes.
func pyIsUpper(r rune) bool { return unicode.IsUpper(r) != inRanges(pyUpperFlips, r) }
func pyIsLower(r rune) bool { return unicode.IsLower(r) != inRanges(pyLowerFlips, r) }
func pyIsTitle(r rune) bool { return unicode.IsTitle(r) != inRanges(pyTitleFlips, r) }

// IsWordRune is the regular expression class \w of Python's re: str.isalnum() or "_".
func IsWordRune(r rune) bool {
	return r == '_' || IsAlpha(r) || IsDecimal(r) || IsDigit(r) || IsNumeric(r)
}

func isCased(r rune) bool { return pyIsUpper(r) || pyIsLower(r) || pyIsTitle(r) }

func isCaseIgnorable(r rune) bool {
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk) ||
		r == '\'' || r == '.' || r == ':' || r == 0xb7 || r == 0x2019
}

func UpperRune(b *strings.Builder, r rune) {
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

// LowerRune lowers the character at byte offset i of s, with Python's final sigma rule.
func LowerRune(b *strings.Builder, s string, i int, r rune) {
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

// ASCIIChar is the one-character str of the ASCII character c (below 0x80), without
// an allocation.
func ASCIIChar(c byte) string { return asciiChars[c : c+1] }

// Upper is Python's str.upper.
func Upper(s string) string {
	if len(s) == 1 && s[0] < 0x80 {
		c := s[0] // message['role'][:1] | upper and the like
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		return ASCIIChar(c)
	}
	if IsASCII(s) {
		return strings.ToUpper(s)
	}
	var b strings.Builder
	for _, r := range s {
		UpperRune(&b, r)
	}
	return b.String()
}

// Lower is Python's str.lower.
func Lower(s string) string {
	if len(s) == 1 && s[0] < 0x80 {
		c := s[0]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		return ASCIIChar(c)
	}
	if IsASCII(s) {
		return strings.ToLower(s)
	}
	var b strings.Builder
	for i, r := range s {
		LowerRune(&b, s, i, r)
	}
	return b.String()
}

// Casefold is Python's str.casefold: full Unicode case folding, which is each
// character's lower case (without the final sigma rule) except where the folding table
// says otherwise ("ß" folds to "ss", "ς" to "σ").
func Casefold(s string) string {
	if IsASCII(s) {
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

// Title is Python's str.title: a character after a cased character is lowered, any
// other is title-cased.
func Title(s string) string {
	var b strings.Builder
	prevCased := false
	for i, r := range s {
		if prevCased {
			LowerRune(&b, s, i, r)
		} else {
			titleRune(&b, r)
		}
		prevCased = isCased(r)
	}
	return b.String()
}

// Capitalize is Python's str.capitalize: the first character title-cased, the rest
// lowered.
func Capitalize(s string) string {
	var b strings.Builder
	for i, r := range s {
		if i == 0 {
			titleRune(&b, r)
		} else {
			LowerRune(&b, s, i, r)
		}
	}
	return b.String()
}

// Swapcase is Python's str.swapcase.
func Swapcase(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case pyIsUpper(r):
			LowerRune(&b, s, i, r)
		case pyIsLower(r):
			UpperRune(&b, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// IsLower is Python's str.islower: a cased character, and no upper or title case one.
func IsLower(s string) bool {
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

// IsUpper is Python's str.isupper: a cased character, and no lower or title case one.
func IsUpper(s string) bool {
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

// IsTitle is Python's str.istitle: a cased character, upper and title case characters
// only after uncased ones and lower case ones only after cased ones.
func IsTitle(s string) bool {
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

// IsDigit, IsDecimal, IsAlpha and IsNumeric are Python's str.isdigit, str.isdecimal,
// str.isalpha and str.isnumeric for one character.
func IsDigit(r rune) bool   { return unicode.IsDigit(r) != inRanges(pyDigitFlips, r) }
func IsDecimal(r rune) bool { return unicode.IsDigit(r) != inRanges(pyDecimalFlips, r) }
func IsAlpha(r rune) bool   { return unicode.IsLetter(r) != inRanges(pyAlphaFlips, r) }
func IsNumeric(r rune) bool {
	return unicode.In(r, unicode.Nd, unicode.Nl, unicode.No) != inRanges(pyNumericFlips, r)
}

// EscapeHTML is markupsafe.escape on text: & < > ' " become entities.
func EscapeHTML(s string) string {
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

// Striptags is markupsafe's Markup.striptags: comments removed, then tags, runs of
// whitespace made one space, and character references decoded (UnescapeHTML).
func Striptags(s string) string {
	s = stripTags(stripComments(s))
	return UnescapeHTML(strings.Join(strings.FieldsFunc(s, IsSpace), " "))
}

// stripComments removes comments as Markup.striptags does: while the text has a "<!--"
// with a "-->" after it (which may overlap it: "<!-->"), the first such comment is cut
// out and the text around it joined, in which the search starts again. The text before
// a comment has no "<!--", so only one that spans the join ("<!" + "--") can come
// before the rest's: one pass from left to right cuts the same comments, in linear
// time where Python's loop is quadratic.
func stripComments(s string) string {
	var kept []byte // the text before the comments cut so far: it holds no "<!--"
	rest := s
	for {
		start := indexJoined(kept, rest, "<!--", 0)
		if start < 0 {
			break
		}
		end := indexJoined(kept, rest, "-->", start)
		if end < 0 {
			break
		}
		cut := end + len("-->") - len(kept) // where rest resumes: after the comment
		if start <= len(kept) {
			kept = kept[:start]
		} else {
			kept = append(kept, rest[:start-len(kept)]...)
		}
		rest = rest[cut:]
	}
	if kept == nil {
		return rest
	}
	return string(kept) + rest
}

// indexJoined is the index of the first pat in string(a)+b at or after from, when none
// starts in a before max(from, len(a)-len(pat)+1): only the join and b are searched.
func indexJoined(a []byte, b, pat string, from int) int {
	for i := max(from, len(a)-len(pat)+1, 0); i < len(a); i++ {
		if k := len(a) - i; string(a[i:]) == pat[:k] && strings.HasPrefix(b, pat[k:]) {
			return i
		}
	}
	off := max(from-len(a), 0)
	if j := strings.Index(b[off:], pat); j >= 0 {
		return len(a) + off + j
	}
	return -1
}

// stripTags removes tags as Markup.striptags does, after the comments: while the text
// has a "<" with a ">" after it, the first such tag is cut out. Joining the text
// around a tag makes no new "<", so one pass from left to right does it.
func stripTags(s string) string {
	var b strings.Builder
	for {
		start := strings.IndexByte(s, '<')
		if start < 0 {
			break
		}
		end := strings.IndexByte(s[start:], '>')
		if end < 0 {
			break
		}
		b.WriteString(s[:start])
		s = s[start+end+1:]
	}
	if b.Len() == 0 {
		return s
	}
	b.WriteString(s)
	return b.String()
}

// UnescapeHTML is Python's html.unescape (what Markup.unescape calls): every character
// reference decoded as HTML5 says.
func UnescapeHTML(s string) string {
	i := strings.IndexByte(s, '&')
	if i < 0 {
		return s
	}
	var b strings.Builder
	for i >= 0 {
		b.WriteString(s[:i])
		s = s[i:]
		if n, text := charref(s); n > 0 {
			b.WriteString(text)
			s = s[n:]
		} else {
			b.WriteByte('&')
			s = s[1:]
		}
		i = strings.IndexByte(s, '&')
	}
	b.WriteString(s)
	return b.String()
}

// charref decodes the character reference at the start of s (at its "&") as
// html.unescape does: its pattern (&#digits, &#xhex, or a name of up to 32 characters
// without "\t\n\f <&#;", each with an optional ";") gives the length n of the
// reference, 0 when s starts with none, and text is what replaces it.
func charref(s string) (n int, text string) {
	if strings.HasPrefix(s, "&#") {
		digits, base := s[2:], 10
		if len(digits) > 0 && (digits[0] == 'x' || digits[0] == 'X') {
			digits, base = digits[1:], 16
		}
		num, k := rune(0), 0 // num stops growing past the last code point
		for ; k < len(digits); k++ {
			d := hexDigit(digits[k])
			if d < 0 || d >= base {
				break
			}
			num = min(num*rune(base)+rune(d), unicode.MaxRune+1)
		}
		if k == 0 {
			return 0, ""
		}
		n = len(s) - len(digits) + k
		if n < len(s) && s[n] == ';' {
			n++
		}
		return n, numericCharref(num)
	}
	end, chars := 1, 0
	for end < len(s) && chars < 32 {
		r, size := utf8.DecodeRuneInString(s[end:])
		if strings.ContainsRune("\t\n\f <&#;", r) {
			break
		}
		end += size
		chars++
	}
	if chars == 0 {
		return 0, ""
	}
	if end < len(s) && s[end] == ';' {
		end++
	}
	name := s[1:end]
	if text, ok := htmlEntity(name); ok {
		return end, text
	}
	// the longest shorter prefix of at least two characters that is a name
	p := len(name)
	for x := utf8.RuneCountInString(name) - 1; x >= 2; x-- {
		_, size := utf8.DecodeLastRuneInString(name[:p])
		p -= size
		if text, ok := htmlEntity(name[:p]); ok {
			return end, text + name[p:]
		}
	}
	return end, s[:end]
}

// numericCharref is the text of the numeric character reference of num (at most
// unicode.MaxRune+1, for any larger number) as html.unescape decodes it.
func numericCharref(num rune) string {
	if text, ok := htmlCharrefReplacements[num]; ok {
		return text
	}
	if 0xd800 <= num && num <= 0xdfff || num > unicode.MaxRune {
		return "\ufffd"
	}
	if inRanges(htmlDroppedCodepoints, num) {
		return ""
	}
	return string(num)
}

// htmlEntity returns the text of the named character reference name (with its ";",
// if it has one), and whether there is one (htmlEntities).
func htmlEntity(name string) (string, bool) {
	i := sort.Search(len(htmlEntities), func(i int) bool { return htmlEntities[i].name >= name })
	if i < len(htmlEntities) && htmlEntities[i].name == name {
		return htmlEntities[i].text, true
	}
	return "", false
}

// hexDigit is the value of the hexadecimal digit c, -1 for another byte.
func hexDigit(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// IsLineBreak reports whether r ends a line for str.splitlines.
func IsLineBreak(r rune) bool {
	switch r {
	case '\n', '\r', '\v', '\f', 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029:
		return true
	}
	return false
}

// SplitLinesKeep is Python's s.splitlines(True).
func SplitLinesKeep(s string) []string {
	var out []string
	for len(s) > 0 {
		cut := len(s)
		for i, c := range s {
			if IsLineBreak(c) {
				cut = i + utf8.RuneLen(c)
				if c == '\r' && cut < len(s) && s[cut] == '\n' {
					cut++
				}
				break
			}
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	return out
}

// IsPrintable is Python's str.isprintable for one character: what repr leaves as it is.
func IsPrintable(r rune) bool {
	return (r == ' ' || unicode.IsPrint(r)) != inRanges(pyPrintableFlips, r)
}

// IsASCII reports whether s holds ASCII characters only.
func IsASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
