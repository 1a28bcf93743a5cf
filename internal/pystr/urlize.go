package pystr

import (
	"regexp"
	"strings"
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
	URLizeScheme = regexp.MustCompile(`^[\p{L}\p{N}_.+-]{2,}:/{0,2}$`)
)

// URLizeWord is the body of Jinja2's urlize loop for one word: the leading and trailing
// punctuation set aside (balancing parentheses), the rest made a link if it is a URL or
// an email address.
func URLizeWord(word, attrs string, trim func(string) string, schemes []string) string {
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
