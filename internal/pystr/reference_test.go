package pystr

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"
)

// reference holds the answers of Python and glibc recorded by testdata/record.py (see
// there for what each is, and run it again for another Python or glibc): the package's
// functions must give the same.
type reference struct {
	Unescape  [][2]string // [text, html.unescape(text)]
	Striptags [][2]string // [text, Markup(text).striptags()]
	Strings   []struct {
		S, Upper, Lower, Casefold, Title, Capitalize, Swapcase string
		IsLower, IsUpper, IsTitle                              bool
		Splitlines                                             []string
		Strip, Lstrip, Rstrip                                  string
	}
	Wordwrap []struct {
		S                              string
		Width                          int
		BreakLongWords, BreakOnHyphens bool
		Wrapstring, Out                string
	}
	Strftime []struct {
		Format string
		Time   [7]int // year, month, day, hour, minute, second, microsecond
		Out    string
	}
	GlibcStrftime []struct {
		Format string
		Time   [6]int // year, month, day, hour, minute, second
		Offset int    // seconds east of UTC
		Zone   string
		Out    string
	} `json:"glibc_strftime"`
	Word, Linebreak [][2]rune // the code points of \w and of str.splitlines' line breaks
}

func readReference(t *testing.T) *reference {
	t.Helper()
	raw, err := os.ReadFile("testdata/reference.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref reference
	if err := json.Unmarshal(raw, &ref); err != nil {
		t.Fatalf("testdata/reference.json: %v", err)
	}
	if len(ref.Unescape) == 0 || len(ref.Striptags) == 0 || len(ref.Strings) == 0 || len(ref.Wordwrap) == 0 ||
		len(ref.Strftime) == 0 || len(ref.GlibcStrftime) == 0 || len(ref.Word) == 0 || len(ref.Linebreak) == 0 {
		t.Fatal("testdata/reference.json lacks cases")
	}
	return &ref
}

func TestUnescapeHTML(t *testing.T) {
	for _, c := range readReference(t).Unescape {
		if got := UnescapeHTML(c[0]); got != c[1] {
			t.Errorf("UnescapeHTML(%q) = %q, Python's html.unescape %q", c[0], got, c[1])
		}
	}
}

func TestStriptags(t *testing.T) {
	for _, c := range readReference(t).Striptags {
		if got := Striptags(c[0]); got != c[1] {
			t.Errorf("Striptags(%q) = %q, Python's Markup.striptags %q", c[0], got, c[1])
		}
	}
}

// TestStriptagsLinear strips a text of 100,000 comments and 100,000 tags, which
// Python's loop, cutting one at a time out of the whole text, takes quadratic time
// over (tens of gigabytes copied): Striptags must not (the test would time out).
func TestStriptagsLinear(t *testing.T) {
	text := strings.Repeat("<!-- c -->", 100000) + strings.Repeat("<b>", 100000) + "x"
	if got := Striptags(text); got != "x" {
		t.Errorf("Striptags of 100,000 comments and tags and x = %q, want %q", got[:min(len(got), 40)], "x")
	}
}

func TestStringMethods(t *testing.T) {
	for _, c := range readReference(t).Strings {
		s := c.S
		for _, m := range []struct {
			name      string
			got, want any
		}{
			{"upper", Upper(s), c.Upper},
			{"lower", Lower(s), c.Lower},
			{"casefold", Casefold(s), c.Casefold},
			{"title", Title(s), c.Title},
			{"capitalize", Capitalize(s), c.Capitalize},
			{"swapcase", Swapcase(s), c.Swapcase},
			{"islower", IsLower(s), c.IsLower},
			{"isupper", IsUpper(s), c.IsUpper},
			{"istitle", IsTitle(s), c.IsTitle},
			{"splitlines", SplitLinesKeep(s), c.Splitlines},
			{"strip", strip(s, true, true), c.Strip},
			{"lstrip", strip(s, true, false), c.Lstrip},
			{"rstrip", strip(s, false, true), c.Rstrip},
		} {
			got, want := m.got, m.want
			if g, ok := got.([]string); ok {
				got, want = strings.Join(g, "\x00"), strings.Join(want.([]string), "\x00")
				if len(g) == 0 && len(c.Splitlines) > 0 {
					got = nil
				}
			}
			if got != want {
				t.Errorf("%q.%s(): %q, Python %q", s, m.name, m.got, m.want)
			}
		}
	}
}

// strip is str.strip, lstrip or rstrip through StripSpace.
func strip(s string, left, right bool) string {
	start, end := StripSpace(s, left, right)
	return s[start:end]
}

func TestWordwrap(t *testing.T) {
	for _, c := range readReference(t).Wordwrap {
		tw := &TextWrapper{Width: c.Width, BreakLongWords: c.BreakLongWords, HyphenChunks: c.BreakOnHyphens, BreakOnHyphens: c.BreakOnHyphens}
		got, err := Wordwrap(c.S, tw, c.Wrapstring)
		if err != nil || got != c.Out {
			t.Errorf("Wordwrap(%q, width %d, break_long_words %v, break_on_hyphens %v, %q) = %q, %v; Python %q",
				c.S, c.Width, c.BreakLongWords, c.BreakOnHyphens, c.Wrapstring, got, err, c.Out)
		}
	}
}

func TestStrftime(t *testing.T) {
	for _, c := range readReference(t).Strftime {
		v := c.Time
		tm := time.Date(v[0], time.Month(v[1]), v[2], v[3], v[4], v[5], v[6]*1000, time.UTC)
		if got := Strftime(tm, c.Format); got != c.Out {
			t.Errorf("Strftime(%s, %q) = %q, Python's datetime.strftime %q", tm.Format(time.RFC3339Nano), c.Format, got, c.Out)
		}
	}
}

func TestGlibcStrftime(t *testing.T) {
	for _, c := range readReference(t).GlibcStrftime {
		v := c.Time
		tm := time.Date(v[0], time.Month(v[1]), v[2], v[3], v[4], v[5], 0, time.FixedZone(c.Zone, c.Offset))
		if got := GlibcStrftime(tm, c.Format); got != c.Out {
			t.Errorf("GlibcStrftime(%s, %q) = %q, glibc's strftime %q", tm.Format(time.RFC3339), c.Format, got, c.Out)
		}
	}
}

// TestCharClasses checks IsWordRune and IsLineBreak on every code point.
func TestCharClasses(t *testing.T) {
	ref := readReference(t)
	for _, class := range []struct {
		name   string
		is     func(rune) bool
		ranges [][2]rune
	}{{`re's \w`, IsWordRune, ref.Word}, {"a line break of str.splitlines", IsLineBreak, ref.Linebreak}} {
		bad := 0
		for r := rune(0); r <= unicode.MaxRune; r++ {
			if r >= 0xd800 && r < 0xe000 {
				continue
			}
			want := slices.ContainsFunc(class.ranges, func(rg [2]rune) bool { return rg[0] <= r && r <= rg[1] })
			if class.is(r) != want && bad < 10 {
				bad++
				t.Errorf("%U: %v, but Python says %v to %s", r, class.is(r), want, class.name)
			}
		}
	}
}
