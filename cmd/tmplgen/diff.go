package main

import (
	"fmt"
	"io"
	"strings"
)

// A diffOp is one line of a line diff: kept (' '), removed ('-') or added ('+'), with
// the numbers of lines of the old and the new text before it.
type diffOp struct {
	kind byte
	text string
	i, j int
}

// maxDiffCells bounds the table of a line diff (the old text's lines times the new
// one's, after their common first and last lines are set aside); a larger change is
// shown as all of those old lines removed and all of those new ones added.
const maxDiffCells = 4 << 20

// diffHunks returns the hunks of a line diff from a to b: the runs of lines within
// context lines of a change, through a longest common subsequence of the lines.
func diffHunks(a, b []string, context int) [][]diffOp {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []diffOp
	for k := range pre {
		ops = append(ops, diffOp{' ', a[k], k, k})
	}
	ops = append(ops, middleOps(a[pre:len(a)-suf], b[pre:len(b)-suf], pre)...)
	for k := range suf {
		i, j := len(a)-suf+k, len(b)-suf+k
		ops = append(ops, diffOp{' ', a[i], i, j})
	}
	inHunk := make([]bool, len(ops))
	for k, o := range ops {
		if o.kind != ' ' {
			for d := max(0, k-context); d <= min(len(ops)-1, k+context); d++ {
				inHunk[d] = true
			}
		}
	}
	var hunks [][]diffOp
	for k := 0; k < len(ops); k++ {
		if !inHunk[k] {
			continue
		}
		end := k
		for end < len(ops) && inHunk[end] {
			end++
		}
		hunks = append(hunks, ops[k:end])
		k = end
	}
	return hunks
}

// middleOps is the diff of a and b, which start after line `before` of both texts.
func middleOps(a, b []string, before int) []diffOp {
	var ops []diffOp
	if len(a)*len(b) > maxDiffCells {
		for k, l := range a {
			ops = append(ops, diffOp{'-', l, before + k, before})
		}
		for k, l := range b {
			ops = append(ops, diffOp{'+', l, before + len(a), before + k})
		}
		return ops
	}
	// lcs[i][j] is the length of a longest common subsequence of a[i:] and b[j:]
	n, m := len(a), len(b)
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			ops = append(ops, diffOp{' ', a[i], before + i, before + j})
			i, j = i+1, j+1
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, diffOp{'-', a[i], before + i, before + j})
			i++
		default:
			ops = append(ops, diffOp{'+', b[j], before + i, before + j})
			j++
		}
	}
	return ops
}

// hunkHeader is a hunk's "@@ -L,N +L,N @@" line.
func hunkHeader(h []diffOp) string {
	oldN, newN := 0, 0
	for _, o := range h {
		if o.kind != '+' {
			oldN++
		}
		if o.kind != '-' {
			newN++
		}
	}
	return fmt.Sprintf("@@ -%s +%s @@", hunkRange(h[0].i, oldN), hunkRange(h[0].j, newN))
}

// hunkRange is a hunk's lines in one text as diff -u writes them: the first line
// (from 1) and the count, or the line before and 0 for no lines.
func hunkRange(before, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", before)
	}
	return fmt.Sprintf("%d,%d", before+1, n)
}

// writeDiff writes to w a unified diff (diff -u) from the file oldName holding old to
// newName holding new: nothing when they are equal. A missing file is "" named
// /dev/null.
func writeDiff(w io.Writer, oldName, newName, old, new string) error {
	if old == new {
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "--- %s\n+++ %s\n", oldName, newName)
	for _, h := range diffHunks(fileLines(old), fileLines(new), 3) {
		b.WriteString(hunkHeader(h) + "\n")
		for _, o := range h {
			b.WriteString(string(o.kind) + o.text)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// fileLines splits a file's text into lines that keep their "\n"; a last line without
// one gets the marker diff -u writes for it.
func fileLines(s string) []string {
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		return lines[:len(lines)-1]
	}
	lines[len(lines)-1] += "\n\\ No newline at end of file\n"
	return lines
}
