package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// defaultDivergences is the list of known llama.cpp divergences tmplgen check reads with
// -engine llama_server.
const defaultDivergences = "testdata/llama-server-divergences.tsv"

// divergence is a template and case where llama-server's recorded answer is not what
// the llama_server profile gives, for a reason outside the profile: llama.cpp refused
// the template, or its Jinja engine deviates from Jinja2 on that pair.
type divergence struct {
	template, caseID, category, reason string
	seen                               bool // the pair was checked
}

// divergenceList is a divergences file: a TSV with the header
// "template	case	category	reason", one pair a line; category is "refused" or
// "engine".
type divergenceList struct {
	path    string
	rows    []*divergence
	pairs   map[[2]string]*divergence
	skipped map[string]int // listed pairs that differ, by category
	passing int            // listed pairs that pass (failures of the list)
}

// divergenceCategories are the two reasons a pair may be listed for.
var divergenceCategories = map[string]bool{"refused": true, "engine": true}

func readDivergences(path string) (*divergenceList, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	l := &divergenceList{path: path, pairs: map[[2]string]*divergence{}, skipped: map[string]int{}}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if n == 1 {
			if line != "template\tcase\tcategory\treason" {
				return nil, fmt.Errorf("%s:1: want the header \"template<TAB>case<TAB>category<TAB>reason\"", path)
			}
			continue
		}
		if line == "" {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != 4 || cols[3] == "" {
			return nil, fmt.Errorf("%s:%d: want 4 tab-separated fields (template, case, category, reason)", path, n)
		}
		if !divergenceCategories[cols[2]] {
			return nil, fmt.Errorf("%s:%d: category %q is neither refused nor engine", path, n, cols[2])
		}
		key := [2]string{cols[0], cols[1]}
		if l.pairs[key] != nil {
			return nil, fmt.Errorf("%s:%d: %s %s is listed twice", path, n, cols[0], cols[1])
		}
		d := &divergence{template: cols[0], caseID: cols[1], category: cols[2], reason: cols[3]}
		l.rows = append(l.rows, d)
		l.pairs[key] = d
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return l, nil
}

// lookup returns the listed divergence of a pair; a nil list lists none.
func (l *divergenceList) lookup(template, caseID string) (*divergence, bool) {
	if l == nil {
		return nil, false
	}
	d, ok := l.pairs[[2]string{template, caseID}]
	return d, ok
}

// skip reports whether a pair is listed, so that check does not count it: a listed pair
// that differs (ok false) is skipped, one that passes is a failure of the list, said on
// w and counted by report. A nil list lists none.
func (l *divergenceList) skip(w io.Writer, p checkPair, ok bool) bool {
	d, listed := l.lookup(p.template, p.caseID)
	if !listed {
		return false
	}
	d.seen = true
	if ok {
		l.passing++
		fmt.Fprintf(w, "FAIL %s %s: listed in %s as %s, but it passes: remove it from the list\n", p.template, p.caseID, l.path, d.category)
		return true
	}
	l.skipped[d.category]++
	return true
}

// report says how many listed pairs were skipped, and names the listed pairs of the
// checked templates that do not exist; it returns the number of failures of the list
// (those, and the listed pairs that pass).
func (l *divergenceList) report(w io.Writer, checked []source) int {
	if l == nil {
		return 0
	}
	names := map[string]bool{}
	for _, s := range checked {
		names[s.Name] = true
	}
	failed := l.passing
	for _, d := range l.rows {
		if !d.seen && names[d.template] {
			failed++
			fmt.Fprintf(w, "FAIL %s %s: listed in %s, but there is no such pair\n", d.template, d.caseID, l.path)
		}
	}
	fmt.Fprintf(w, "%d listed divergences skipped (%d refused, %d engine) from %s\n", l.skipped["refused"]+l.skipped["engine"], l.skipped["refused"], l.skipped["engine"], l.path)
	return failed
}

// exportFailures writes the pairs whose rendering differs from the expectation as JSON
// lines: template, case, the expectation, our result, and the exported variables.
func exportFailures(path string, pairs []checkPair, got []result) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	enc.SetEscapeHTML(false)
	for i, p := range pairs {
		if same(p.want, got[i]) {
			continue
		}
		line := struct {
			Template string `json:"template"`
			Case     string `json:"case"`
			Want     result `json:"want"`
			Got      result `json:"got"`
		}{p.template, p.caseID, p.want, got[i]}
		if err := enc.Encode(line); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}
