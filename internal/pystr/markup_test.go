package pystr

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// markupCases are Python's answers recorded by testdata/markup.py: html.unescape and
// markupsafe's Markup.striptags of hand-picked and random texts, as [text, answer].
func markupCases(t *testing.T) (cases struct{ Unescape, Striptags [][2]string }) {
	t.Helper()
	raw, err := os.ReadFile("testdata/markup.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatalf("testdata/markup.json: %v", err)
	}
	if len(cases.Unescape) == 0 || len(cases.Striptags) == 0 {
		t.Fatal("testdata/markup.json has no cases")
	}
	return cases
}

func TestUnescapeHTML(t *testing.T) {
	for _, c := range markupCases(t).Unescape {
		if got := UnescapeHTML(c[0]); got != c[1] {
			t.Errorf("UnescapeHTML(%q) = %q, Python's html.unescape %q", c[0], got, c[1])
		}
	}
}

func TestStriptags(t *testing.T) {
	for _, c := range markupCases(t).Striptags {
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
