package syntax

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/text/unicode/runenames"
)

// TestUnicodeNameEscapes decodes the \N{...} escapes of testdata/unicodenames.json as
// Python's unicode-escape codec did when record_unicodenames.py recorded them: the same
// text, or the same error.
func TestUnicodeNameEscapes(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "unicodenames.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		UnidataVersion string `json:"unidata_version"`
		Cases          []struct{ Escape, Text, Error string }
	}
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	if rec.UnidataVersion != pythonUnicodeVersion {
		t.Fatalf("recorded with Unicode %s, tables of Unicode %s", rec.UnidataVersion, pythonUnicodeVersion)
	}
	if len(rec.Cases) < 1000 {
		t.Fatalf("%d cases", len(rec.Cases))
	}
	for _, c := range rec.Cases {
		got, err := decodeUnicodeEscape(c.Escape)
		switch {
		case c.Error != "" && (err == nil || err.Error() != c.Error):
			t.Errorf("%s: got %q, %v; want the error %q", c.Escape, got, err, c.Error)
		case c.Error == "" && (err != nil || got != c.Text):
			t.Errorf("%s: got %q, %v; want %q", c.Escape, got, err, c.Text)
		}
	}
}

// TestRuneNamesCoverPython: x/text names every code point of namedRanges (its Unicode
// version is not older than Python's).
func TestRuneNamesCoverPython(t *testing.T) {
	missing := 0
	for _, rg := range namedRanges {
		for r := rg[0]; r <= rg[1]; r++ {
			if name := runenames.Name(r); name == "" || name[0] == '<' {
				missing++
			}
		}
	}
	if missing > 0 {
		t.Errorf("x/text (Unicode %s) has no name for %d code points Python %s names", runenames.UnicodeVersion, missing, pythonUnicodeVersion)
	}
}
