package main

import (
	"fmt"
	"strings"
	"testing"
)

// TestWriteDiff compares writeDiff with what GNU diff -u (diffutils 3.8) printed for
// the same files.
func TestWriteDiff(t *testing.T) {
	var lines []string // seq 1 20
	for i := 1; i <= 20; i++ {
		lines = append(lines, fmt.Sprint(i))
	}
	changed := append([]string(nil), lines...)
	changed[4], changed[16] = "five", "seventeen"
	tests := []struct {
		name, old, new, want string
	}{
		{"two hunks", strings.Join(lines, "\n") + "\n", strings.Join(changed, "\n") + "\n",
			"@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n@@ -14,7 +14,7 @@\n 14\n 15\n 16\n-17\n+seventeen\n 18\n 19\n 20\n"},
		{"no newline at the end", "x\ny\n", "x\ny\nz", "@@ -1,2 +1,3 @@\n x\n y\n+z\n\\ No newline at end of file\n"},
		{"a new file", "", "p\nq\n", "@@ -0,0 +1,2 @@\n+p\n+q\n"},
		{"equal", "a\n", "a\n", ""},
	}
	for _, tt := range tests {
		var b strings.Builder
		if err := writeDiff(&b, "a", "b", tt.old, tt.new); err != nil {
			t.Fatal(err)
		}
		want := tt.want
		if want != "" {
			want = "--- a\n+++ b\n" + want
		}
		if b.String() != want {
			t.Errorf("%s:\ngot\n%s\nwant\n%s", tt.name, b.String(), want)
		}
	}
}
