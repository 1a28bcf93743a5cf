package jinja2

import (
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"
)

// The regular expressions of Jinja2's urlize (jinja2/utils.py), in RE2 syntax: Python's
// Unicode \w is [\p{L}\p{N}_] and its \d is \p{Nd}. They only ever see one word of the
// text, which holds no whitespace, so Python's \S is any character.
var (
	urlizeHTTP = regexp.MustCompile(`(?i)^(?:` +
		`(?:https?://|www\.)(?:[\p{L}\p{N}_%-]+\.)*(?:[a-z]{2,63}|xn--[\p{L}\p{N}_%]{2,59})` +
		`|(?:[\p{L}\p{N}_%-]{2,63}\.)+(?:com|net|int|edu|gov|org|info|mil)` +
		`|https?://(?:\p{Nd}{1,3}(?:\.\p{Nd}{1,3}){3}|\[(?:[\p{Nd}a-f]{0,4}:){2}(?:[\p{Nd}a-f]{0,4}:?){1,6}\])` +
		`)(?::\p{Nd}{1,5})?(?:[/?#].*)?$`)
	urlizeEmail  = regexp.MustCompile(`^.+@[\p{L}\p{N}_][\p{L}\p{N}_.-]*\.[\p{L}\p{N}_]+$`)
	urlizeLead   = regexp.MustCompile(`^(?:[(<]|&lt;)+`)
	urlizeTrail  = regexp.MustCompile(`(?:[)>.,\n]|&gt;)+$`)
	urlizeScheme = regexp.MustCompile(`^[\p{L}\p{N}_.+-]{2,}:/{0,2}$`)
)

// FilterUrlize is urlize(value, trim_url_limit=None, nofollow=False, target=None,
// rel=None, extra_schemes=None): the escaped text with its URLs and email addresses made
// links, a plain str (transformers does not autoescape).
func FilterUrlize(v Value, args []Value, kwargs []Kwarg) Value {
	// extra_schemes, the fifth parameter, is bound here: bindArgs binds at most four
	extra := Missing()
	if len(args) == 5 {
		extra, args = args[4], args[:4]
	}
	var rest []Kwarg
	for _, kw := range kwargs {
		switch {
		case kw.Name != "extra_schemes":
			rest = append(rest, kw)
		case given(extra):
			throw(TypeError, "urlize() got multiple values for argument 'extra_schemes'")
		default:
			extra = kw.Value
		}
	}
	a := bindArgs("urlize", args, rest, "trim_url_limit", "nofollow", "target", "rel")
	relParts := map[string]bool{"noopener": true} // the urlize.rel policy
	if given(a[3]) && a[3].Truthy() {
		if a[3].kind() != KindString {
			throw(AttributeError, "'%s' object has no attribute 'split'", a[3].TypeName())
		}
		for _, p := range strings.FieldsFunc(a[3].str(), isSpace) {
			relParts[p] = true
		}
	}
	if given(a[1]) && a[1].Truthy() {
		relParts["nofollow"] = true
	}
	rel := make([]string, 0, len(relParts))
	for p := range relParts {
		rel = append(rel, p)
	}
	sort.Strings(rel)
	attrs := ` rel="` + escapeHTML(strings.Join(rel, " ")) + `"`
	if given(a[2]) && a[2].Truthy() {
		attrs += ` target="` + escapeUnlessMarkup(a[2]) + `"`
	}
	var schemes []string
	if given(extra) && extra.kind() != KindNone {
		for _, s := range iterate(extra) {
			if s.kind() != KindString || !urlizeScheme.MatchString(s.str()) {
				throw(RuntimeError, "%s is not a valid URI scheme prefix.", s.Repr())
			}
			schemes = append(schemes, s.str())
		}
	}
	trim := func(x string) string { return x }
	if given(a[0]) && a[0].kind() != KindNone {
		limit := a[0]
		trim = func(x string) string {
			if Gt(Int(int64(Len(Str(x)))), limit) {
				return Str(x).Slice(None(), limit, None()).str() + "..."
			}
			return x
		}
	}
	text := escapeUnlessMarkup(v)
	var b strings.Builder
	for text != "" {
		// the text in runs of whitespace and of other characters: the words
		r, _ := utf8.DecodeRuneInString(text)
		space := isSpace(r)
		end := strings.IndexFunc(text, func(r rune) bool { return isSpace(r) != space })
		if end < 0 {
			end = len(text)
		}
		word := text[:end]
		text = text[end:]
		if !space {
			word = urlizeWord(word, attrs, trim, schemes)
		}
		b.WriteString(word)
	}
	return Str(b.String())
}

// urlizeWord is the body of Jinja2's urlize loop for one word: the leading and trailing
// punctuation set aside (balancing parentheses), the rest made a link if it is a URL or
// an email address.
func urlizeWord(word, attrs string, trim func(string) string, schemes []string) string {
	head, middle, tail := "", word, ""
	if m := urlizeLead.FindString(middle); m != "" {
		head, middle = m, middle[len(m):]
	}
	if loc := urlizeTrail.FindStringIndex(middle); loc != nil {
		tail, middle = middle[loc[0]:], middle[:loc[0]]
	}
	for _, pair := range [][2]string{{"(", ")"}, {"<", ">"}, {"&lt;", "&gt;"}} {
		open, closing := pair[0], pair[1]
		starts := strings.Count(middle, open)
		if starts <= strings.Count(middle, closing) {
			continue
		}
		for range min(starts, strings.Count(tail, closing)) {
			i := strings.Index(tail, closing) + len(closing)
			middle += tail[:i]
			tail = tail[i:]
		}
	}
	switch {
	case urlizeHTTP.MatchString(middle):
		href := middle
		if !strings.HasPrefix(middle, "https://") && !strings.HasPrefix(middle, "http://") {
			href = "https://" + middle
		}
		middle = `<a href="` + href + `"` + attrs + `>` + trim(middle) + `</a>`
	case strings.HasPrefix(middle, "mailto:") && urlizeEmail.MatchString(middle[len("mailto:"):]):
		middle = `<a href="` + middle + `">` + middle[len("mailto:"):] + `</a>`
	case strings.Contains(middle, "@") && !strings.HasPrefix(middle, "www.") && !strings.HasPrefix(middle, "@") &&
		!strings.Contains(middle, ":") && urlizeEmail.MatchString(middle):
		middle = `<a href="mailto:` + middle + `">` + middle + `</a>`
	default:
		for _, s := range schemes {
			if middle != s && strings.HasPrefix(middle, s) {
				middle = `<a href="` + middle + `"` + attrs + `>` + middle + `</a>`
			}
		}
	}
	return head + middle + tail
}
