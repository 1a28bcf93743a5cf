package pystr

import (
	"strings"
	"testing"
)

// pythonSpace are the characters for which Python 3.11's str.isspace() is true:
// [c for c in range(0x110000) if chr(c).isspace()].
var pythonSpace = []rune{
	0x9, 0xa, 0xb, 0xc, 0xd, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680,
	0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009,
	0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
}

func TestIsSpace(t *testing.T) {
	want := map[rune]bool{}
	for _, r := range pythonSpace {
		want[r] = true
	}
	for r := rune(0); r <= 0x10ffff; r++ {
		if IsSpace(r) != want[r] {
			t.Errorf("IsSpace(%U) = %v, Python's str.isspace() %v", r, !want[r], want[r])
		}
	}
}

// TestStripSpace strips every string of up to three characters drawn from Python's
// whitespace and a few others, each side and both, as Python does: the longest run of
// whitespace at each end (by rune, whatever the bytes).
func TestStripSpace(t *testing.T) {
	alphabet := append([]rune{'a', 'é', 0x0, 0x7f, 0x84, 0xff, 0x2e80, 0x10ffff}, pythonSpace...)
	isSpace := map[rune]bool{}
	for _, r := range pythonSpace {
		isSpace[r] = true
	}
	var check func(rs []rune)
	check = func(rs []rune) {
		s := string(rs)
		lo, hi := 0, len(rs)
		for lo < hi && isSpace[rs[lo]] {
			lo++
		}
		for hi > lo && isSpace[rs[hi-1]] {
			hi--
		}
		leftOnly := 0
		for leftOnly < len(rs) && isSpace[rs[leftOnly]] {
			leftOnly++
		}
		rightOnly := len(rs)
		for rightOnly > 0 && isSpace[rs[rightOnly-1]] {
			rightOnly--
		}
		for _, c := range []struct {
			left, right bool
			want        string
		}{
			{true, true, string(rs[lo:hi])},
			{true, false, string(rs[leftOnly:])},
			{false, true, string(rs[:rightOnly])},
			{false, false, s},
		} {
			start, end := StripSpace(s, c.left, c.right)
			if got := s[start:end]; got != c.want {
				t.Fatalf("StripSpace(%q, %v, %v) = %q, want %q", s, c.left, c.right, got, c.want)
			}
		}
		if len(rs) == 3 {
			return
		}
		for _, r := range alphabet {
			check(append(rs, r))
		}
	}
	check(nil)
	if start, end := StripSpace(strings.Repeat(" ", 5)+"x"+"\u3000 ", true, true); start != 5 || end != 6 {
		t.Errorf("StripSpace of spaces, x, U+3000 and a space = [%d:%d], want [5:6]", start, end)
	}
}
