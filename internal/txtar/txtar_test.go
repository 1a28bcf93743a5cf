package txtar

import (
	"bytes"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	src := []byte("a comment\n-- one --\nfirst\n-- two.go --\npackage x\n\n-- three --\n")
	a := Parse(src)
	if string(a.Comment) != "a comment\n" || len(a.Files) != 3 {
		t.Fatalf("parsed %q and %d files", a.Comment, len(a.Files))
	}
	if d, ok := a.Get("two.go"); !ok || string(d) != "package x\n\n" {
		t.Errorf("two.go = %q, %v", d, ok)
	}
	if d, _ := a.Get("three"); len(d) != 0 {
		t.Errorf("three = %q", d)
	}
	if out := Format(a); !bytes.Equal(out, src) {
		t.Errorf("Format = %q, want %q", out, src)
	}
	a.Set("one", []byte("changed"))
	a.Set("four", []byte("new\n"))
	if got := string(Format(a)); got != "a comment\n-- one --\nchanged\n-- two.go --\npackage x\n\n-- three --\n-- four --\nnew\n" {
		t.Errorf("after Set: %q", got)
	}
	if a := Parse([]byte("-- x --\nno newline")); string(a.Files[0].Data) != "no newline\n" {
		t.Errorf("a last line without newline: %q", a.Files[0].Data)
	}
}
