package syntax

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxTemplateSize is the largest template text the lexer accepts (4 MiB). Real chat
// templates are under 100 KB; the limit bounds the work done on hostile input.
const MaxTemplateSize = 4 << 20

// isSpace reports whether r is whitespace as Python's str.isspace and the re module's \s
// define it: Unicode White_Space plus the ASCII separators U+001C..U+001F.
func isSpace(r rune) bool { return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f) }

// NormalizeNewlines turns \r\n and \r into \n and drops one trailing newline, as Jinja2
// does before lexing (keep_trailing_newline=False).
func NormalizeNewlines(src string) string {
	if strings.IndexByte(src, '\r') >= 0 {
		src = strings.ReplaceAll(src, "\r\n", "\n")
		src = strings.ReplaceAll(src, "\r", "\n")
	}
	return strings.TrimSuffix(src, "\n")
}

// lexer splits normalized template text into tokens.
type lexer struct {
	src        string
	pos        int
	toks       []token
	lineStarts []int // byte offset of the start of each line
	// last is the position posAt gave last, and at its byte offset: the next one on
	// its line counts the runes from there, so that a long line costs its length once
	last    Pos
	lastOff int
	balance []byte
	// llama strips whitespace around tags as llama.cpp's lexer does (ParseLlama);
	// llamaDiffers records that it strips other text than Jinja2's
	llama, llamaDiffers bool
}

// lex tokenizes a whole template with l, whose mode (llama) is set. The text must
// already be normalized.
func (l *lexer) lex(src string) ([]token, error) {
	l.src, l.lineStarts, l.last, l.lastOff = src, []int{0}, Pos{}, 0
	for i := 0; i < len(src); i++ {
		if src[i] == '\n' {
			l.lineStarts = append(l.lineStarts, i+1)
		}
	}
	if err := l.run(); err != nil {
		return nil, err
	}
	l.toks = append(l.toks, token{kind: tokEOF, pos: l.posAt(len(src))})
	return l.toks, nil
}

// posAt converts a byte offset into a line and column.
func (l *lexer) posAt(off int) Pos {
	lo, hi := 0, len(l.lineStarts)
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if l.lineStarts[mid] <= off {
			lo = mid
		} else {
			hi = mid
		}
	}
	from, col := l.lineStarts[lo], 1
	if l.last.Line == lo+1 && l.lastOff >= from && l.lastOff <= off {
		from, col = l.lastOff, l.last.Col
	}
	l.last, l.lastOff = Pos{Line: lo + 1, Col: col + utf8.RuneCountInString(l.src[from:off])}, off
	return l.last
}

func (l *lexer) errorf(off int, format string, args ...any) error {
	return &Error{Pos: l.posAt(off), Msg: fmt.Sprintf(format, args...)}
}

func (l *lexer) emit(kind tokenKind, start int, text string) *token {
	l.toks = append(l.toks, token{kind: kind, pos: l.posAt(start), text: text})
	return &l.toks[len(l.toks)-1]
}

// skipSpace returns the offset after the whitespace that starts at off.
func (l *lexer) skipSpace(off int) int {
	for off < len(l.src) {
		r, size := utf8.DecodeRuneInString(l.src[off:])
		if !isSpace(r) {
			break
		}
		off += size
	}
	return off
}

// tag kinds found in template data.
const (
	tagComment = iota
	tagBlock
	tagVar
	tagRaw
)

// run lexes the root state: template data up to the next tag, then the tag.
func (l *lexer) run() error {
	lineStarting := true
	for l.pos < len(l.src) {
		start, kind, sign, openEnd := l.nextTag(l.pos)
		if start < 0 {
			l.emit(tokData, l.pos, l.src[l.pos:])
			return nil
		}
		text := l.stripBefore(l.src[l.pos:start], sign, kind != tagVar, lineStarting)
		if text != "" {
			l.emit(tokData, l.pos, text)
		}
		var err error
		switch kind {
		case tagComment:
			lineStarting, err = l.comment(start, openEnd)
		case tagRaw:
			lineStarting, err = l.raw(start, openEnd)
		default:
			lineStarting, err = l.tag(kind, start, openEnd)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// nextTag finds the first tag opener at or after off. It returns the offset of the
// opener, its kind, its whitespace sign ('-', '+' or 0) and the offset after the opener
// (for a raw block, after the whole {% raw %} tag); start is -1 when there is none.
func (l *lexer) nextTag(off int) (start, kind int, sign byte, end int) {
	for {
		i := strings.IndexByte(l.src[off:], '{')
		if i < 0 || off+i+1 >= len(l.src) {
			return -1, 0, 0, 0
		}
		start = off + i
		switch l.src[start+1] {
		case '%':
			if end, sign, ok := l.rawOpen(start); ok {
				return start, tagRaw, sign, end
			}
			kind = tagBlock
		case '{':
			kind = tagVar
		case '#':
			kind = tagComment
		default:
			off = start + 1
			continue
		}
		end = start + 2
		if end < len(l.src) && (l.src[end] == '-' || l.src[end] == '+') {
			sign = l.src[end]
			end++
		}
		return start, kind, sign, end
	}
}

// rawOpen matches {%(-|+|)\s*raw\s*(-%}\s*|%}) at off.
func (l *lexer) rawOpen(off int) (end int, sign byte, ok bool) {
	p := off + 2
	if p < len(l.src) && (l.src[p] == '-' || l.src[p] == '+') {
		sign = l.src[p]
		p++
	}
	p = l.skipSpace(p)
	if !strings.HasPrefix(l.src[p:], "raw") {
		return 0, 0, false
	}
	p = l.skipSpace(p + 3)
	switch {
	case strings.HasPrefix(l.src[p:], "-%}"):
		return l.skipSpace(p + 3), sign, true
	case strings.HasPrefix(l.src[p:], "%}"):
		return p + 2, sign, true
	}
	return 0, 0, false
}

// stripBeforeTag applies whitespace control to the data before a tag: "-" strips all
// trailing whitespace; otherwise, for block and comment tags (lstrip_blocks), the
// spaces and tabs between the start of the line and the tag are removed.
func stripBeforeTag(text string, sign byte, lstrip, lineStarting bool, isSpace func(rune) bool) string {
	if sign == '-' {
		return strings.TrimRightFunc(text, isSpace)
	}
	if sign == '+' || !lstrip {
		return text
	}
	lpos := strings.LastIndexByte(text, '\n') + 1
	if (lpos > 0 || lineStarting) && lpos < len(text) && strings.TrimLeftFunc(text[lpos:], isSpace) == "" {
		return text[:lpos]
	}
	return text
}

// stripBefore is stripBeforeTag, or, for llama, what llama.cpp's lexer strips: "-"
// strips spaces, tabs and newlines only (string_rstrip(text, " \t\r\n")), and
// lstrip_blocks C's isspace only, where Jinja2 strips Unicode's whitespace.
func (l *lexer) stripBefore(text string, sign byte, lstrip, lineStarting bool) string {
	out := stripBeforeTag(text, sign, lstrip, lineStarting, isSpace)
	if !l.llama {
		return out
	}
	llama := strings.TrimRight(text, llamaTrimmed)
	if sign != '-' {
		llama = stripBeforeTag(text, sign, lstrip, lineStarting, isCSpace)
	}
	l.llamaDiffers = l.llamaDiffers || llama != out
	return llama
}

// stripAfter returns the offset after the whitespace a "-" strips after a tag, at off:
// for llama, spaces, tabs and newlines only, as llama.cpp's lexer strips them
// (string_lstrip(text, " \t\r\n")).
func (l *lexer) stripAfter(off int) int {
	end := l.skipSpace(off)
	if !l.llama {
		return end
	}
	llama := len(l.src) - len(strings.TrimLeft(l.src[off:], llamaTrimmed))
	l.llamaDiffers = l.llamaDiffers || llama != end
	return llama
}

// llamaTrimmed is the whitespace llama.cpp's lexer strips beside a "-".
const llamaTrimmed = " \t\r\n"

// isCSpace reports whether r is whitespace to C's isspace: a space, \t, \n, \v, \f or
// \r.
func isCSpace(r rune) bool { return r == ' ' || '\t' <= r && r <= '\r' }

// endTag matches the end of a block tag at off: +%}, -%} and the whitespace after it,
// or %} and one newline (trim_blocks). For a variable tag: -}} and whitespace, or }}.
func (l *lexer) endTag(kind, off int) (end int, ok bool) {
	s := l.src[off:]
	if kind == tagVar {
		switch {
		case strings.HasPrefix(s, "-}}"):
			return l.stripAfter(off + 3), true
		case strings.HasPrefix(s, "}}"):
			return off + 2, true
		}
		return 0, false
	}
	switch {
	case strings.HasPrefix(s, "+%}"):
		return off + 3, true
	case strings.HasPrefix(s, "-%}"):
		return l.stripAfter(off + 3), true
	case strings.HasPrefix(s, "%}"):
		end = off + 2
		if end < len(l.src) && l.src[end] == '\n' {
			end++
		}
		return end, true
	}
	return 0, false
}

// comment skips a comment; its end tag is #}, -#} (stripping what follows) or +#}.
func (l *lexer) comment(start, off int) (lineStarting bool, err error) {
	i := strings.Index(l.src[off:], "#}")
	if i < 0 {
		return false, l.errorf(start, "Missing end of comment tag")
	}
	q := off + i
	end := q + 2
	switch {
	case q > off && l.src[q-1] == '-':
		end = l.skipSpace(end)
	case q > off && l.src[q-1] == '+':
	default:
		if end < len(l.src) && l.src[end] == '\n' {
			end++
		}
	}
	l.pos = end
	return l.src[end-1] == '\n', nil
}

// raw emits the text of a raw block up to its {% endraw %} as data.
func (l *lexer) raw(start, off int) (lineStarting bool, err error) {
	for p := off; ; p++ {
		i := strings.Index(l.src[p:], "{%")
		if i < 0 {
			return false, l.errorf(start, "Missing end of raw directive")
		}
		p += i
		q := p + 2
		var sign byte
		if q < len(l.src) && (l.src[q] == '-' || l.src[q] == '+') {
			sign = l.src[q]
			q++
		}
		q = l.skipSpace(q)
		if !strings.HasPrefix(l.src[q:], "endraw") {
			continue
		}
		end, ok := l.endTag(tagBlock, l.skipSpace(q+6))
		if !ok {
			continue
		}
		// lstrip_blocks applies to {% endraw %} as to any block tag.
		text := stripBeforeTag(l.src[off:p], sign, true, l.src[off-1] == '\n', isSpace)
		if text != "" {
			l.emit(tokData, off, text)
		}
		l.pos = end
		return l.src[end-1] == '\n', nil
	}
}

// tag lexes the expression tokens of a block or variable tag up to its end.
func (l *lexer) tag(kind, start, off int) (lineStarting bool, err error) {
	begin, end := tokBlockBegin, tokBlockEnd
	if kind == tagVar {
		begin, end = tokVarBegin, tokVarEnd
	}
	l.emit(begin, start, l.src[start:off])
	l.balance = l.balance[:0]
	p := off
	for p < len(l.src) {
		if len(l.balance) == 0 {
			if e, ok := l.endTag(kind, p); ok {
				l.emit(end, p, l.src[p:e])
				l.pos = e
				return l.src[e-1] == '\n', nil
			}
		}
		r, size := utf8.DecodeRuneInString(l.src[p:])
		if isSpace(r) {
			p += size
			continue
		}
		next, err := l.exprToken(p)
		if err != nil {
			return false, err
		}
		p = next
	}
	l.pos = p
	return false, nil
}

// exprToken lexes one token inside a tag at off and returns the offset after it.
func (l *lexer) exprToken(off int) (int, error) {
	s := l.src[off:]
	if l.llama && isDigit(s[0]) {
		return l.llamaNumber(off), nil
	}
	if n := matchFloat(l.src, off); n > 0 {
		text := s[:n]
		f, err := strconv.ParseFloat(strings.ReplaceAll(text, "_", ""), 64)
		if err != nil && !isRangeError(err) {
			return 0, l.errorf(off, "invalid float literal %s", text)
		}
		l.emit(tokFloat, off, text).float = f
		return off + n, nil
	}
	if n, base := matchInt(s); n > 0 {
		text := s[:n]
		digits := strings.ReplaceAll(text, "_", "")
		if base != 10 {
			digits = digits[2:]
		}
		v, ok := new(big.Int).SetString(digits, base)
		if !ok {
			return 0, l.errorf(off, "invalid integer literal %s", text)
		}
		l.emit(tokInt, off, text).int = v
		return off + n, nil
	}
	if n := matchName(s); n > 0 {
		name := s[:n]
		if r, _ := utf8.DecodeRuneInString(name); !isNameStart(r) {
			return 0, l.errorf(off, "Invalid character in identifier")
		}
		l.emit(tokName, off, name)
		return off + n, nil
	}
	if s[0] == '\'' || s[0] == '"' {
		n := matchString(s)
		if n > 0 {
			v, err := unescapeString(s[1 : n-1])
			if err != nil {
				return 0, l.errorf(off, "%s", err)
			}
			l.emit(tokString, off, s[:n]).str = v
			return off + n, nil
		}
	}
	for _, op := range operators {
		if strings.HasPrefix(s, op) {
			if err := l.track(off, op); err != nil {
				return 0, err
			}
			l.emit(tokOp, off, op)
			return off + len(op), nil
		}
	}
	r, _ := utf8.DecodeRuneInString(s)
	return 0, l.errorf(off, "unexpected char %s at %d", pyQuoteRune(r), off)
}

// operators in the order the lexer tries them: longest first.
var operators = []string{
	"//", "**", "==", "!=", ">=", "<=",
	"+", "-", "/", "*", "%", "~", "[", "]", "(", ")", "{", "}", ">", "<", "=", ".", ":", "|", ",", ";",
}

// track keeps brackets balanced: a tag only ends outside of (), [] and {}.
func (l *lexer) track(off int, op string) error {
	switch op {
	case "(":
		l.balance = append(l.balance, ')')
	case "[":
		l.balance = append(l.balance, ']')
	case "{":
		l.balance = append(l.balance, '}')
	case ")", "]", "}":
		if len(l.balance) == 0 {
			return l.errorf(off, "unexpected '%s'", op)
		}
		want := l.balance[len(l.balance)-1]
		l.balance = l.balance[:len(l.balance)-1]
		if want != op[0] {
			return l.errorf(off, "unexpected '%s', expected '%c'", op, want)
		}
	}
	return nil
}

func isRangeError(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// llamaNumber lexes the number at off as llama.cpp's lexer does (consume_numeric):
// digits, and a fraction of a dot and digits; no exponent, underscore or base prefix,
// so 1e5 is the number 1 and the name e5, and 007 is 7. It returns the offset after it.
func (l *lexer) llamaNumber(off int) int {
	s := l.src[off:]
	n := 0
	for n < len(s) && isDigit(s[n]) {
		n++
	}
	fraction := n+1 < len(s) && s[n] == '.' && isDigit(s[n+1])
	if fraction {
		for n++; n < len(s) && isDigit(s[n]); n++ {
		}
	}
	jinja := matchFloat(l.src, off)
	if jinja == 0 {
		jinja, _ = matchInt(s)
	}
	text := s[:n]
	if jinja != n {
		l.llamaDiffers = true // Jinja2 reads another number (1e5, 0x10, 1_000), or refuses it (007)
	}
	if fraction {
		f, _ := strconv.ParseFloat(text, 64) // digits and a fraction: no syntax error (beyond the range of a double: +Inf, where std::stod throws)
		l.emit(tokFloat, off, text).float = f
	} else {
		v, _ := new(big.Int).SetString(text, 10)
		l.emit(tokInt, off, text).int = v
	}
	return off + n
}

// matchDigits matches (\d+_)*\d+ with the given digit class and returns its length.
func matchDigits(s string, digit func(byte) bool) int {
	n := 0
	for n < len(s) && digit(s[n]) {
		n++
		if n+1 < len(s) && s[n] == '_' && digit(s[n+1]) {
			n++
		}
	}
	return n
}

// matchFloat matches Jinja2's float literal at src[off:]: digits with a fraction, an
// exponent or both, not directly after a dot.
func matchFloat(src string, off int) int {
	if off > 0 && src[off-1] == '.' {
		return 0
	}
	s := src[off:]
	n := matchDigits(s, isDigit)
	if n == 0 {
		return 0
	}
	frac := 0
	if n < len(s) && s[n] == '.' {
		frac = matchDigits(s[n+1:], isDigit)
		if frac > 0 {
			frac++ // the dot
		}
	}
	if e := matchExponent(s[n+frac:]); e > 0 {
		return n + frac + e
	}
	if frac == 0 {
		return 0 // an integer
	}
	return n + frac
}

func matchExponent(s string) int {
	if len(s) == 0 || (s[0] != 'e' && s[0] != 'E') {
		return 0
	}
	p := 1
	if p < len(s) && (s[p] == '+' || s[p] == '-') {
		p++
	}
	d := matchDigits(s[p:], isDigit)
	if d == 0 {
		return 0
	}
	return p + d
}

// matchInt matches Jinja2's integer literal (binary, octal, hex or decimal, with single
// underscores between digits) and returns its length and base.
func matchInt(s string) (n, base int) {
	if len(s) == 0 || !isDigit(s[0]) {
		return 0, 0
	}
	if len(s) > 2 && s[0] == '0' {
		var digit func(byte) bool
		switch s[1] {
		case 'b', 'B':
			digit, base = func(c byte) bool { return c == '0' || c == '1' }, 2
		case 'o', 'O':
			digit, base = func(c byte) bool { return c >= '0' && c <= '7' }, 8
		case 'x', 'X':
			digit, base = func(c byte) bool {
				return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
			}, 16
		}
		if digit != nil {
			// (_?[digit])+
			p := 2
			for p < len(s) {
				q := p
				if s[q] == '_' {
					q++
				}
				if q < len(s) && digit(s[q]) {
					p = q + 1
					continue
				}
				break
			}
			if p > 2 {
				return p, base
			}
		}
	}
	if s[0] == '0' {
		// 0(_?0)*
		p := 1
		for p < len(s) {
			q := p
			if s[q] == '_' {
				q++
			}
			if q < len(s) && s[q] == '0' {
				p = q + 1
				continue
			}
			break
		}
		return p, 10
	}
	// [1-9](_?\d)*
	p := 1
	for p < len(s) {
		q := p
		if s[q] == '_' {
			q++
		}
		if q < len(s) && isDigit(s[q]) {
			p = q + 1
			continue
		}
		break
	}
	return p, 10
}

// matchName matches a run of the characters Python accepts in identifiers (XID_Continue:
// letters, letter numbers, marks, digits, connector punctuation, Other_ID_Start and
// Other_ID_Continue such as ℘ and ·), as Jinja2's name pattern does.
func matchName(s string) int {
	n := 0
	for n < len(s) {
		r, size := utf8.DecodeRuneInString(s[n:])
		if !(isNameStart(r) || unicode.IsDigit(r) || unicode.IsMark(r) || unicode.Is(unicode.Pc, r) || unicode.Is(unicode.Other_ID_Continue, r)) {
			break
		}
		n += size
	}
	return n
}

// isNameStart reports whether an identifier may start with r (Python's XID_Start and
// the underscore).
func isNameStart(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) || unicode.Is(unicode.Other_ID_Start, r)
}

// matchString matches a quoted string literal with backslash escapes and returns its
// length including the quotes, or 0 when it is not terminated.
func matchString(s string) int {
	q := s[0]
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case q:
			return i + 1
		}
	}
	return 0
}

// pyQuoteRune writes a character as Python's repr() of a one-character string.
func pyQuoteRune(r rune) string {
	if r == '\'' {
		return `"'"`
	}
	if unicode.IsPrint(r) || r == ' ' {
		return "'" + string(r) + "'"
	}
	switch {
	case r < 0x100:
		return fmt.Sprintf(`'\x%02x'`, r)
	case r < 0x10000:
		return fmt.Sprintf(`'\u%04x'`, r)
	}
	return fmt.Sprintf(`'\U%08x'`, r)
}
