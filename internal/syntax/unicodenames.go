package syntax

import (
	"strings"
	"sync"

	"golang.org/x/text/unicode/runenames"
)

//go:generate python3 gen_unicodenames.py /usr/share/unicode/NameAliases.txt

// charByName returns the character that \N{name} stands for, as Python's unicode-escape
// codec finds it (unicodedata's lookup, with Python's Unicode version): a character's
// name or one of its aliases in any case, HANGUL SYLLABLE followed by the syllable's
// jamo, or CJK UNIFIED IDEOGRAPH- followed by four or five uppercase hexadecimal
// digits; ok is false for any other name.
func charByName(name string) (r rune, ok bool) {
	const hangul, ideograph = "HANGUL SYLLABLE ", "CJK UNIFIED IDEOGRAPH-"
	if jamo, ok := strings.CutPrefix(name, hangul); ok {
		return hangulSyllable(jamo)
	}
	if hex, ok := strings.CutPrefix(name, ideograph); ok {
		return unifiedIdeograph(hex)
	}
	namesOnce.Do(buildNames)
	r, ok = charNames[strings.ToUpper(name)] // name is ASCII (see unescapeString)
	return r, ok
}

var (
	namesOnce sync.Once
	// charNames maps each name and alias Python knows, in upper case, to its character.
	charNames map[string]rune
)

// buildNames fills charNames: the names x/text has for the code points Python names,
// and Python's aliases.
func buildNames() {
	charNames = make(map[string]rune, 40000)
	for _, rg := range namedRanges {
		for r := rg[0]; r <= rg[1]; r++ {
			if name := runenames.Name(r); name != "" && name[0] != '<' {
				charNames[name] = r
			}
		}
	}
	for alias, r := range nameAliases {
		charNames[alias] = r
	}
}

// unifiedIdeograph decodes the code point of CJK UNIFIED IDEOGRAPH-hex.
func unifiedIdeograph(hex string) (rune, bool) {
	if len(hex) != 4 && len(hex) != 5 {
		return 0, false
	}
	var r rune
	for i := 0; i < len(hex); i++ {
		switch c := hex[i]; {
		case '0' <= c && c <= '9':
			r = r<<4 | rune(c-'0')
		case 'A' <= c && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	for _, rg := range ideographRanges {
		if rg[0] <= r && r <= rg[1] {
			return r, true
		}
	}
	return 0, false
}

// The short names of the jamo a Hangul syllable is made of: its leading consonant, its
// vowel and its trailing consonant (Unicode's Jamo.txt).
var (
	hangulLeads  = []string{"G", "GG", "N", "D", "DD", "R", "M", "B", "BB", "S", "SS", "", "J", "JJ", "C", "K", "T", "P", "H"}
	hangulVowels = []string{"A", "AE", "YA", "YAE", "EO", "E", "YEO", "YE", "O", "WA", "WAE", "OE", "YO", "U", "WEO", "WE", "WI", "YU", "EU", "YI", "I"}
	hangulTrails = []string{"", "G", "GG", "GS", "N", "NJ", "NH", "D", "L", "LG", "LM", "LB", "LS", "LT", "LP", "LH", "M", "B", "BS", "S", "SS", "NG", "J", "C", "K", "T", "P", "H"}
)

// hangulSyllable decodes the syllable named HANGUL SYLLABLE jamo: at each of the three
// places the longest short name that fits, as Python takes them.
func hangulSyllable(jamo string) (rune, bool) {
	lead, n := longestPrefix(jamo, hangulLeads)
	vowel, m := longestPrefix(jamo[n:], hangulVowels)
	trail, k := longestPrefix(jamo[n+m:], hangulTrails)
	if lead < 0 || vowel < 0 || trail < 0 || n+m+k != len(jamo) {
		return 0, false
	}
	return rune(0xAC00 + (lead*len(hangulVowels)+vowel)*len(hangulTrails) + trail), true
}

// longestPrefix returns the index of the longest of names that s starts with (the first
// of that length) and its length, or -1 and 0 when none does.
func longestPrefix(s string, names []string) (index, n int) {
	index, n = -1, -1
	for i, name := range names {
		if len(name) > n && strings.HasPrefix(s, name) {
			index, n = i, len(name)
		}
	}
	return index, max(n, 0)
}
