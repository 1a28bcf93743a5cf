package bench

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
	"time"
)

// coverage counts, per engine, what BenchmarkRender measures.
type coverage struct {
	templates, cases, pairs int
	refused                 int // pairs where tmplgen's template raised (raise_exception): not benchmarked
	benched                 map[string]int
	identical               map[string]int
	parseFailed             map[string]int            // templates a peer could not parse
	renderFailed            map[string]int            // pairs a peer could not render (error or panic), of templates it parsed
	failedTemplates         map[string]map[string]int // peer -> template -> pairs failed (parse failures count every pair)
	reasons                 map[string]map[string]int // peer -> first words of the failure -> pairs
	common                  int                       // pairs every Go engine rendered
}

func measureCoverage(c *corpus) *coverage {
	cov := &coverage{templates: len(c.templates), cases: len(c.cases),
		benched: map[string]int{}, identical: map[string]int{}, parseFailed: map[string]int{}, renderFailed: map[string]int{},
		failedTemplates: map[string]map[string]int{}, reasons: map[string]map[string]int{}}
	for _, pe := range peers {
		cov.failedTemplates[pe.name] = map[string]int{}
		cov.reasons[pe.name] = map[string]int{}
	}
	for _, t := range c.templates {
		pt := prepareTemplate(t)
		for name := range pt.parseErr {
			cov.parseFailed[name]++
		}
		for _, cs := range c.cases {
			cov.pairs++
			p := preparePair(pt, cs.id, cs.tree, cs.raw)
			if p.err != nil {
				cov.refused++
				continue
			}
			cov.benched["tmplgen"]++
			all := true
			for _, pe := range peers {
				if err, failed := p.peerErr[pe.name]; failed {
					all = false
					if _, parse := pt.parseErr[pe.name]; !parse {
						cov.renderFailed[pe.name]++
					}
					cov.failedTemplates[pe.name][t.name]++
					cov.reasons[pe.name][reason(err)]++
					continue
				}
				cov.benched[pe.name]++
				if p.same[pe.name] {
					cov.identical[pe.name]++
				}
			}
			if all {
				cov.common++
			}
		}
	}
	return cov
}

// reason shortens a failure to what kind it is.
func reason(err error) string {
	s := err.Error()
	if i := strings.IndexAny(s, "\n"); i >= 0 {
		s = s[:i]
	}
	switch {
	case strings.HasPrefix(s, "parse: "):
		return "parse error"
	case strings.HasPrefix(s, "panic: "):
		return "panic"
	case strings.HasPrefix(s, "no answer"):
		return "timeout"
	}
	return "render error"
}

// markdown is the coverage table docs/performance.md shows.
func (cov *coverage) markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d templates x %d cases = %d pairs; tmplgen's template refuses %d of them (raise_exception, or an error of the sandbox as Jinja2 gives it), which no engine is benchmarked on.\n\n",
		cov.templates, cov.cases, cov.pairs, cov.refused)
	b.WriteString("| engine | pairs benchmarked | templates it cannot parse | pairs it fails to render | output identical to tmplgen |\n")
	b.WriteString("|---|---:|---:|---:|---:|\n")
	fmt.Fprintf(&b, "| tmplgen | %d | 0 | 0 | - |\n", cov.benched["tmplgen"])
	for _, pe := range peers {
		n := cov.benched[pe.name]
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d (%.0f%%) |\n", pe.name, n, cov.parseFailed[pe.name], cov.renderFailed[pe.name],
			cov.identical[pe.name], 100*float64(cov.identical[pe.name])/float64(max(n, 1)))
	}
	fmt.Fprintf(&b, "\nPairs every Go engine rendered: %d.\n", cov.common)
	return b.String()
}

// details lists, per peer, the templates it failed on.
func (cov *coverage) details() string {
	var b strings.Builder
	for _, pe := range peers {
		var kinds []string
		for k, n := range cov.reasons[pe.name] {
			kinds = append(kinds, fmt.Sprintf("%s %d", k, n))
		}
		sort.Strings(kinds)
		fmt.Fprintf(&b, "%s left out of %d pairs (%s) on %d templates:\n", pe.name, cov.pairs-cov.refused-cov.benched[pe.name], strings.Join(kinds, ", "), len(cov.failedTemplates[pe.name]))
		var names []string
		for t, n := range cov.failedTemplates[pe.name] {
			names = append(names, fmt.Sprintf("%s(%d)", t, n))
		}
		sort.Strings(names)
		fmt.Fprintf(&b, "  %s\n", strings.Join(names, " "))
	}
	return b.String()
}

// TestCoverage renders every pair once with every engine and logs which engine
// BenchmarkRender benchmarks on how many pairs, how many a peer fails, and how many it
// renders byte-identically to tmplgen. It never fails on those numbers: they describe the
// peers. With BENCH_COVERAGE_MD=FILE it also writes the table as markdown. Skipped with
// -short.
func TestCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("renders every pair with every engine")
	}
	c := mustCorpus(t)
	start := time.Now()
	cov := measureCoverage(c)
	md := cov.markdown()
	t.Logf("coverage of BenchmarkRender (measured in %v):\n%s\n%s", time.Since(start).Round(time.Millisecond), md, cov.details())
	if cov.benched["tmplgen"] == 0 {
		t.Fatal("no pair rendered")
	}
	if path := os.Getenv("BENCH_COVERAGE_MD"); path != "" {
		if err := os.WriteFile(path, []byte(md), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
