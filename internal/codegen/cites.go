package codegen

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dave/jennifer/jen"

	"github.com/tmplgen/tmplgen/internal/ir"
)

// Cites: the comments that quote the template line each statement comes from, which
// also start the statements' spans of the position table (spans.go).

// at returns the comment citing the statement at p, which starts the statement's span
// of the position table: an error on the lines that follow, up to the next statement's
// cite, is reported at p (see spans.go).
func (g *gen) at(p ir.Pos, construct string) []jen.Code {
	return g.atSite(site{pos: p, construct: construct}, "")
}

// atSite returns the comment citing st's statement, with a note when note is not "",
// which starts st's span.
func (g *gen) atSite(st site, note string) []jen.Code {
	text := g.cite(st.pos) + note
	g.sites[text] = st
	g.lastSite = st.pos
	cite := jen.Comment(text)
	g.cites[cite] = true
	return []jen.Code{cite}
}

// cite returns a comment that quotes the template at p: the tag that starts there (or
// whose keyword is there, as for elif), or the rest of its line.
func (g *gen) cite(p ir.Pos) string {
	text := ""
	if p.Line >= 1 && p.Line <= len(g.lines) {
		line := g.lines[p.Line-1]
		if off, ok := g.columnOffset(p.Line, line, p.Col-1); ok {
			text = line[tagStart(line, off):]
		}
		for open, end := range map[string]string{"{%": "%}", "{{": "}}", "{#": "#}"} {
			if strings.HasPrefix(text, open) {
				if i := strings.Index(text, end); i >= 0 {
					text = text[:i+len(end)]
				}
			}
		}
	}
	const maxLen = 100
	if i, _ := runeOffset(text, 0, maxLen); i < len(text) { // more than maxLen runes
		text = text[:i] + "…"
	}
	return fmt.Sprintf("%s:%d:%d %s", sanitizeComment(g.t.File), p.Line, p.Col, sanitizeComment(strings.TrimSpace(text)))
}

// columnOffset returns the byte offset in line (the template's line n) of its rune
// column col (from 0), or false outside it. It counts from the column it found last
// when that is on the same line and not after col.
func (g *gen) columnOffset(n int, line string, col int) (int, bool) {
	if col < 0 {
		return 0, false
	}
	from, off := 0, 0
	if g.citeLine == n && g.citeCol <= col {
		from, off = g.citeCol, g.citeOff
	}
	off, ok := runeOffset(line, off, col-from)
	if !ok {
		return 0, false
	}
	g.citeLine, g.citeCol, g.citeOff = n, col, off
	return off, true
}

// runeOffset returns the byte offset of the rune k runes after byte offset off of s,
// or len(s) and false when s ends before it.
func runeOffset(s string, off, k int) (int, bool) {
	for ; k > 0; k-- {
		if off >= len(s) {
			return off, false
		}
		_, size := utf8.DecodeRuneInString(s[off:])
		off += size
	}
	return off, true
}

// tagStart returns where the tag starts whose keyword is at line[i] (the {% before it,
// with its - or + and spaces), or i when no {% comes before it. It steps back over
// ASCII bytes only, so a byte offset into the line is a rune boundary either way.
func tagStart(line string, i int) int {
	j := i
	for j > 0 && (line[j-1] == ' ' || line[j-1] == '\t') {
		j--
	}
	if j > 0 && (line[j-1] == '-' || line[j-1] == '+') {
		j--
	}
	if j >= 2 && line[j-2] == '{' && line[j-1] == '%' {
		return j - 2
	}
	return i
}

// sanitizeComment makes template text safe inside a // comment: no line breaks, no
// control or invisible formatting characters (which could hide code from a reader).
func sanitizeComment(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\t':
			b.WriteByte(' ')
		case unicode.IsPrint(r) || r == ' ':
			b.WriteRune(r)
		default:
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		}
	}
	return b.String()
}
