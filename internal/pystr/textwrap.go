package pystr

import (
	"fmt"
	"strings"
)

// TextWrapper is Python's textwrap.TextWrapper as Jinja2's wordwrap filter configures
// it: expand_tabs=False, replace_whitespace=False, drop_whitespace=True, no indents.
type TextWrapper struct {
	Width          int
	BreakLongWords bool
	HyphenChunks   bool // break_on_hyphens is True: split chunks with wordsep_re
	BreakOnHyphens bool // break_on_hyphens is true: long words break after a hyphen
}

// isWrapSpace reports whether r is whitespace for textwrap's chunking (ASCII only).
func isWrapSpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\v', '\f', '\r':
		return true
	}
	return false
}

// isWrapLetter is textwrap's letter class [^\d\W]: a \w character that is not a
// decimal digit.
func isWrapLetter(r rune) bool { return IsWordRune(r) && !IsDecimal(r) }

// isWordPunct is textwrap's word_punct class [\w!"'&.,?].
func isWordPunct(r rune) bool { return IsWordRune(r) || strings.ContainsRune(`!"'&.,?`, r) }

// wrap is TextWrapper.wrap(text): the lines of one paragraph.
func (tw *TextWrapper) wrap(text string) ([]string, error) {
	if tw.Width <= 0 {
		return nil, fmt.Errorf("invalid width %d (must be > 0)", tw.Width)
	}
	var chunks [][]rune
	if tw.HyphenChunks {
		chunks = splitWordsep([]rune(text))
	} else {
		chunks = splitSimple([]rune(text))
	}
	return tw.wrapChunks(chunks), nil
}

// splitSimple is wordsep_simple_re.split: runs of whitespace and runs of the rest.
func splitSimple(text []rune) [][]rune {
	var chunks [][]rune
	for i := 0; i < len(text); {
		j := i + 1
		for j < len(text) && isWrapSpace(text[j]) == isWrapSpace(text[i]) {
			j++
		}
		chunks = append(chunks, text[i:j])
		i = j
	}
	return chunks
}

// splitWordsep is wordsep_re.split: runs of whitespace, em-dashes between words, and
// words, a hyphenated word split after each hyphen that has two letters (or a letter,
// hyphen, letter) before it and a letter, optional hyphen and letter after it.
func splitWordsep(text []rune) [][]rune {
	at := func(i int) rune {
		if i < 0 || i >= len(text) {
			return -1
		}
		return text[i]
	}
	letter := func(i int) bool { r := at(i); return r >= 0 && isWrapLetter(r) }
	// emDash returns the end of -{2,} at i when a \w follows it, or -1.
	emDash := func(i int) int {
		j := i
		for at(j) == '-' {
			j++
		}
		if j-i >= 2 && at(j) >= 0 && IsWordRune(at(j)) {
			return j
		}
		return -1
	}
	var chunks [][]rune
	for i := 0; i < len(text); {
		if isWrapSpace(text[i]) {
			j := i + 1
			for j < len(text) && isWrapSpace(text[j]) {
				j++
			}
			chunks = append(chunks, text[i:j])
			i = j
			continue
		}
		if i > 0 && isWordPunct(text[i-1]) {
			if j := emDash(i); j >= 0 {
				chunks = append(chunks, text[i:j])
				i = j
				continue
			}
		}
		// a word: the shortest run of non-whitespace that ends at a hyphenation point,
		// before whitespace or the end, or before an em-dash
		j := i + 1
		for ; ; j++ {
			if at(j) == '-' && (letter(j-2) && letter(j-1) || letter(j-3) && at(j-2) == '-' && letter(j-1)) &&
				letter(j+1) && (letter(j+2) || at(j+2) == '-' && letter(j+3)) {
				j++
				break
			}
			if j >= len(text) || isWrapSpace(text[j]) {
				break
			}
			if isWordPunct(text[j-1]) && emDash(j) >= 0 {
				break
			}
		}
		chunks = append(chunks, text[i:j])
		i = j
	}
	return chunks
}

// isBlank reports whether a chunk is all whitespace as str.strip() sees it.
func isBlank(chunk []rune) bool {
	for _, r := range chunk {
		if !IsSpace(r) {
			return false
		}
	}
	return true
}

// wrapChunks is TextWrapper._wrap_chunks.
func (tw *TextWrapper) wrapChunks(chunks [][]rune) []string {
	var lines []string
	// chunks is used as a stack: reverse it so that the next chunk is last
	for a, b := 0, len(chunks)-1; a < b; a, b = a+1, b-1 {
		chunks[a], chunks[b] = chunks[b], chunks[a]
	}
	width := tw.Width
	for len(chunks) > 0 {
		var cur [][]rune
		curLen := 0
		// whitespace starting a line is dropped, except at the start of the text
		if isBlank(chunks[len(chunks)-1]) && len(lines) > 0 {
			chunks = chunks[:len(chunks)-1]
		}
		for len(chunks) > 0 {
			l := len(chunks[len(chunks)-1])
			if curLen+l > width {
				break
			}
			cur = append(cur, chunks[len(chunks)-1])
			chunks = chunks[:len(chunks)-1]
			curLen += l
		}
		if len(chunks) > 0 && len(chunks[len(chunks)-1]) > width {
			chunks, cur = tw.handleLongWord(chunks, cur, curLen, width)
		}
		if len(cur) > 0 && isBlank(cur[len(cur)-1]) {
			cur = cur[:len(cur)-1]
		}
		if len(cur) > 0 {
			var b strings.Builder
			for _, c := range cur {
				b.WriteString(string(c))
			}
			lines = append(lines, b.String())
		}
	}
	return lines
}

// handleLongWord is TextWrapper._handle_long_word: a chunk too long for any line is
// broken to fill the current one (after its last hyphen that fits, when allowed), or
// put on a line of its own when long words may not be broken.
func (tw *TextWrapper) handleLongWord(chunks, cur [][]rune, curLen, width int) ([][]rune, [][]rune) {
	spaceLeft := 1
	if width >= 1 {
		spaceLeft = width - curLen
	}
	top := len(chunks) - 1
	switch {
	case tw.BreakLongWords:
		end := spaceLeft
		chunk := chunks[top]
		if tw.BreakOnHyphens && len(chunk) > spaceLeft {
			hyphen := -1
			for k := min(spaceLeft, len(chunk)) - 1; k >= 0; k-- {
				if chunk[k] == '-' {
					hyphen = k
					break
				}
			}
			if hyphen > 0 && strings.IndexFunc(string(chunk[:hyphen]), func(r rune) bool { return r != '-' }) >= 0 {
				end = hyphen + 1
			}
		}
		end = max(0, min(end, len(chunk)))
		cur = append(cur, chunk[:end])
		chunks[top] = chunk[end:]
	case len(cur) == 0:
		cur = append(cur, chunks[top])
		chunks = chunks[:top]
	}
	return chunks, cur
}

// Wordwrap is Jinja2's do_wordwrap: each line of s wrapped on its own, all joined by
// wrapstring.
func Wordwrap(s string, tw *TextWrapper, wrapstring string) (string, error) {
	var paras []string
	for _, line := range SplitLinesKeep(s) {
		line = strings.TrimRightFunc(line, func(r rune) bool { return IsLineBreak(r) })
		lines, err := tw.wrap(line)
		if err != nil {
			return "", err
		}
		paras = append(paras, strings.Join(lines, wrapstring))
	}
	return strings.Join(paras, wrapstring), nil
}
