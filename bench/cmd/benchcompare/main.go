// Command benchcompare reads the output of `go test -bench 'BenchmarkRender|BenchmarkScaling'
// ./bench` and of bench/python_bench.py and prints how tmplgen compares: per peer engine,
// the median over pairs of the peer's time divided by tmplgen's (over the pairs every
// engine rendered, and over the pairs each peer rendered), the Qwen3 tools_defined
// numbers, the scaling table, and the targets with whether each is met.
//
//	go test -run '^$' -bench . -benchtime 200x ./bench > go.txt
//	python3 bench/python_bench.py > python.txt
//	go run ./bench/cmd/benchcompare go.txt python.txt
//
// A benchmark that appears several times (-count) counts with its median. With
// -markdown the report is the markdown docs/performance.md embeds; -gen, -gen-bin,
// -build-cold and -build-pkg add the generator's and the compiler's times (seconds) to it.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// The targets.
const (
	targetGonja     = 50.0
	targetArdanlabs = 20.0
	targetPython    = 50.0
	targetQwenNs    = 2000.0
	targetQwenAlloc = 4.0
	targetGen       = 10.0
	targetBuild     = 30.0
)

var (
	qwenTemplate = "Qwen-Qwen3-0.6B"
	qwenCase     = "tools_defined"
	peerOrder    = []string{"gonja", "ardanlabs", "python"}
)

// stats are the samples of one benchmark, by unit (ns/op, B/op, allocs/op).
type stats map[string][]float64

func (s stats) median(unit string) (float64, bool) {
	v := s[unit]
	if len(v) == 0 {
		return 0, false
	}
	return median(v), true
}

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// quantile is the q-quantile of v by linear interpolation.
func quantile(v []float64, q float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s) == 1 {
		return s[0]
	}
	pos := q * float64(len(s)-1)
	i := int(pos)
	if i+1 >= len(s) {
		return s[len(s)-1]
	}
	return s[i] + (pos-float64(i))*(s[i+1]-s[i])
}

var procSuffix = regexp.MustCompile(`-\d+$`)

// read adds the benchmark lines of r to all, by name without the -GOMAXPROCS suffix.
func read(r io.Reader, all map[string]stats) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		if _, err := strconv.Atoi(f[1]); err != nil {
			continue
		}
		name := procSuffix.ReplaceAllString(f[0], "")
		s := all[name]
		if s == nil {
			s = stats{}
			all[name] = s
		}
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				continue
			}
			s[f[i+1]] = append(s[f[i+1]], v)
		}
	}
	return sc.Err()
}

type report struct {
	render  map[string]map[string]stats            // "template/case" -> engine -> stats
	scaling map[string]map[string]map[string]stats // template -> "messages=N/tools=K" -> engine -> stats
	engines map[string]bool
}

func organise(all map[string]stats) *report {
	r := &report{render: map[string]map[string]stats{}, scaling: map[string]map[string]map[string]stats{}, engines: map[string]bool{}}
	for name, s := range all {
		parts := strings.Split(name, "/")
		switch {
		case parts[0] == "BenchmarkRender" && len(parts) == 4:
			key := parts[1] + "/" + parts[2]
			if r.render[key] == nil {
				r.render[key] = map[string]stats{}
			}
			r.render[key][parts[3]] = s
			r.engines[parts[3]] = true
		case parts[0] == "BenchmarkScaling" && len(parts) == 5:
			tmpl, key := parts[1], parts[2]+"/"+parts[3]
			if r.scaling[tmpl] == nil {
				r.scaling[tmpl] = map[string]map[string]stats{}
			}
			if r.scaling[tmpl][key] == nil {
				r.scaling[tmpl][key] = map[string]stats{}
			}
			r.scaling[tmpl][key][strings.TrimPrefix(parts[4], "engine=")] = s
		}
	}
	return r
}

// ratios are, for each pair where both ran, the peer's ns/op over tmplgen's; only the
// pairs in keep when keep is set.
func (r *report) ratios(peer string, keep func(map[string]stats) bool) (ratios, tm, pe []float64) {
	for _, engines := range r.render {
		t, ok1 := engines["tmplgen"].median("ns/op")
		p, ok2 := engines[peer].median("ns/op")
		if !ok1 || !ok2 || t <= 0 {
			continue
		}
		if keep != nil && !keep(engines) {
			continue
		}
		ratios = append(ratios, p/t)
		tm = append(tm, t)
		pe = append(pe, p)
	}
	return
}

func (r *report) peers() []string {
	var out []string
	for _, p := range peerOrder {
		if r.engines[p] {
			out = append(out, p)
		}
	}
	return out
}

// allEngines keeps the pairs every engine of the report rendered.
func (r *report) allEngines(engines map[string]stats) bool {
	for e := range r.engines {
		if _, ok := engines[e]["ns/op"]; !ok {
			return false
		}
	}
	return true
}

type timings struct {
	gen, genBin, buildCold, buildPkg float64
	genTemplates                     int
}

func main() {
	md := flag.Bool("markdown", false, "print markdown (for docs/performance.md)")
	worstN := flag.Int("worst", 10, "how many templates to list where tmplgen gains least")
	var tm timings
	flag.Float64Var(&tm.gen, "gen", 0, "seconds `go run ./cmd/tmplgen gen` took over the shared templates")
	flag.Float64Var(&tm.genBin, "gen-bin", 0, "seconds a built tmplgen binary's gen took over the same templates")
	flag.IntVar(&tm.genTemplates, "gen-templates", 0, "how many templates that gen compiled")
	flag.Float64Var(&tm.buildCold, "build-cold", 0, "seconds `go build ./generated` took with an empty build cache")
	flag.Float64Var(&tm.buildPkg, "build-pkg", 0, "seconds `go build ./generated` took with only the generated package to compile")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: benchcompare [-markdown] [-gen S -gen-bin S -gen-templates N -build-cold S -build-pkg S] FILE...\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	all := map[string]stats{}
	for _, path := range flag.Args() {
		f, err := os.Open(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "benchcompare:", err)
			os.Exit(1)
		}
		err = read(f, all)
		f.Close()
		if err != nil {
			fmt.Fprintln(os.Stderr, "benchcompare:", path+":", err)
			os.Exit(1)
		}
	}
	r := organise(all)
	if !r.engines["tmplgen"] && len(r.scaling) == 0 {
		fmt.Fprintln(os.Stderr, "benchcompare: no BenchmarkRender/.../tmplgen or BenchmarkScaling lines in the input")
		os.Exit(1)
	}
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	printReport(w, r, tm, *md, worstN)
}

// table prints rows as markdown or as aligned text.
type table struct {
	head []string
	rows [][]string
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) print(w io.Writer, md bool) {
	if md {
		fmt.Fprintf(w, "| %s |\n|", strings.Join(t.head, " | "))
		for i := range t.head {
			if i == 0 {
				fmt.Fprint(w, "---|")
			} else {
				fmt.Fprint(w, "---:|")
			}
		}
		fmt.Fprintln(w)
		for _, r := range t.rows {
			fmt.Fprintf(w, "| %s |\n", strings.Join(r, " | "))
		}
		fmt.Fprintln(w)
		return
	}
	width := make([]int, len(t.head))
	for _, r := range append([][]string{t.head}, t.rows...) {
		for i, c := range r {
			width[i] = max(width[i], len([]rune(c)))
		}
	}
	for _, r := range append([][]string{t.head}, t.rows...) {
		for i, c := range r {
			pad := width[i] - len([]rune(c))
			if i == 0 {
				fmt.Fprint(w, c, strings.Repeat(" ", pad))
			} else {
				fmt.Fprint(w, "  ", strings.Repeat(" ", pad), c)
			}
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
}

func heading(w io.Writer, md bool, s string) {
	if md {
		fmt.Fprintf(w, "#### %s\n\n", s)
	} else {
		fmt.Fprintf(w, "== %s\n", s)
	}
}

func ns(v float64) string {
	switch {
	case v >= 1e6:
		return fmt.Sprintf("%.2f ms", v/1e6)
	case v >= 1e4:
		return fmt.Sprintf("%.1f µs", v/1e3)
	case v >= 1e3:
		return fmt.Sprintf("%.2f µs", v/1e3)
	}
	return fmt.Sprintf("%.0f ns", v)
}

func x(v float64) string { return fmt.Sprintf("%.1fx", v) }

func yes(ok bool) string {
	if ok {
		return "yes"
	}
	return "**no**"
}

func printReport(w io.Writer, r *report, tm timings, md bool, worstN *int) {
	peers := r.peers()
	var engines []string
	for e := range r.engines {
		engines = append(engines, e)
	}
	sort.Strings(engines)
	common := 0
	for _, e := range r.render {
		if r.allEngines(e) {
			common++
		}
	}

	// The targets first.
	targets := &table{head: []string{"target", "measured", "met"}}
	target := map[string]float64{"gonja": targetGonja, "ardanlabs": targetArdanlabs, "python": targetPython}
	label := map[string]string{"gonja": "gonja v2", "ardanlabs": "ardanlabs/jinja", "python": "Python Jinja2"}
	for _, p := range peers {
		rs, _, _ := r.ratios(p, r.allEngines)
		if len(rs) == 0 {
			continue
		}
		m := median(rs)
		targets.add(fmt.Sprintf("≥ %.0fx faster than %s (median over the %d pairs every engine rendered)", target[p], label[p], len(rs)), x(m), yes(m >= target[p]))
	}
	if q := r.render[qwenTemplate+"/"+qwenCase]; q != nil {
		if t, ok := q["tmplgen"].median("ns/op"); ok {
			targets.add(fmt.Sprintf("%s %s ≤ 2 µs (median of %d runs)", qwenTemplate, qwenCase, len(q["tmplgen"]["ns/op"])), ns(t), yes(t <= targetQwenNs))
		}
		if a, ok := q["tmplgen"].median("allocs/op"); ok {
			targets.add(fmt.Sprintf("%s %s ≤ 4 allocs", qwenTemplate, qwenCase), fmt.Sprintf("%.0f allocs", a), yes(a <= targetQwenAlloc))
		}
	}
	if tm.gen > 0 {
		targets.add(fmt.Sprintf("`go run ./cmd/tmplgen gen` of all templates ≤ 10 s (%d templates)", tm.genTemplates), fmt.Sprintf("%.1f s", tm.gen), yes(tm.gen <= targetGen))
	}
	if tm.genBin > 0 {
		targets.add(fmt.Sprintf("the same with a built `tmplgen` binary (%d templates)", tm.genTemplates), fmt.Sprintf("%.1f s", tm.genBin), yes(tm.genBin <= targetGen))
	}
	if tm.buildCold > 0 {
		targets.add("`go build ./generated` ≤ 30 s (empty build cache, standard library included)", fmt.Sprintf("%.1f s", tm.buildCold), yes(tm.buildCold <= targetBuild))
	}
	if tm.buildPkg > 0 {
		targets.add("`go build ./generated` ≤ 30 s (only the generated package to compile)", fmt.Sprintf("%.1f s", tm.buildPkg), yes(tm.buildPkg <= targetBuild))
	}
	heading(w, md, "Targets")
	targets.print(w, md)

	// Ratios per peer.
	if len(peers) > 0 {
		heading(w, md, fmt.Sprintf("Speedup of tmplgen per render (peer ns/op ÷ tmplgen ns/op), engines: %s", strings.Join(engines, ", ")))
		rt := &table{head: []string{"peer", "pairs", "median speedup", "p10", "p90", "min", "median tmplgen", "median peer"}}
		for _, set := range []struct {
			name string
			keep func(map[string]stats) bool
		}{{"every engine rendered", r.allEngines}, {"that peer rendered", nil}} {
			for _, p := range peers {
				rs, t, pe := r.ratios(p, set.keep)
				if len(rs) == 0 {
					continue
				}
				rt.add(fmt.Sprintf("%s (pairs %s)", p, set.name), strconv.Itoa(len(rs)), x(median(rs)), x(quantile(rs, 0.1)), x(quantile(rs, 0.9)), x(quantile(rs, 0)), ns(median(t)), ns(median(pe)))
			}
		}
		rt.print(w, md)
		fmt.Fprintf(w, "Pairs with a time for tmplgen: %d; for every engine: %d.\n\n", countEngine(r, "tmplgen"), common)
	}

	// The templates where tmplgen gains least.
	if len(peers) > 0 {
		worst := r.perTemplate(peers)
		key := "ardanlabs"
		if !r.engines[key] {
			key = peers[0]
		}
		sort.SliceStable(worst, func(i, j int) bool { return worst[i].sortKey(key) < worst[j].sortKey(key) })
		if len(worst) > *worstN {
			worst = worst[:*worstN]
		}
		heading(w, md, fmt.Sprintf("The %d templates where tmplgen gains least over %s (medians over each template's pairs)", len(worst), key))
		head := []string{"template", "pairs", "tmplgen time/op", "tmplgen allocs/op"}
		for _, p := range peers {
			head = append(head, "× "+p)
		}
		wt := &table{head: head}
		for _, t := range worst {
			row := []string{t.name, strconv.Itoa(t.pairs), ns(t.ns), fmt.Sprintf("%.0f", t.allocs)}
			for _, p := range peers {
				if v, ok := t.ratio[p]; ok {
					row = append(row, x(v))
				} else {
					row = append(row, "-")
				}
			}
			wt.add(row...)
		}
		wt.print(w, md)
	}

	// Qwen3 tools_defined.
	if q := r.render[qwenTemplate+"/"+qwenCase]; q != nil {
		heading(w, md, fmt.Sprintf("%s / %s", qwenTemplate, qwenCase))
		qt := &table{head: []string{"engine", "time/op", "B/op", "allocs/op", "× tmplgen"}}
		t, _ := q["tmplgen"].median("ns/op")
		for _, e := range append([]string{"tmplgen"}, peers...) {
			s, ok := q[e]
			if !ok {
				continue
			}
			n, _ := s.median("ns/op")
			qt.add(e, ns(n), opt(s, "B/op"), opt(s, "allocs/op"), x(n/t))
		}
		qt.print(w, md)
	}

	// Scaling, Qwen3 first.
	tmpls := make([]string, 0, len(r.scaling))
	for t := range r.scaling {
		tmpls = append(tmpls, t)
	}
	sort.Slice(tmpls, func(i, j int) bool {
		if (tmpls[i] == qwenTemplate) != (tmpls[j] == qwenTemplate) {
			return tmpls[i] == qwenTemplate
		}
		return tmpls[i] < tmpls[j]
	})
	for _, t := range tmpls {
		scalingTable(w, md, t, r.scaling[t])
	}
}

// scalingTable prints the scaling benchmarks of one template.
func scalingTable(w io.Writer, md bool, tmpl string, scaling map[string]map[string]stats) {
	heading(w, md, fmt.Sprintf("Scaling: %s with N messages and K tools", tmpl))
	keys := make([]string, 0, len(scaling))
	for k := range scaling {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := scalingKey(keys[i]), scalingKey(keys[j])
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		return a[1] < b[1]
	})
	var scEngines []string
	for _, e := range []string{"tmplgen", "gonja", "ardanlabs"} {
		for _, k := range keys {
			if _, ok := scaling[k][e]; ok {
				scEngines = append(scEngines, e)
				break
			}
		}
	}
	head := []string{"messages", "tools"}
	for _, e := range scEngines {
		head = append(head, e+" time/op", e+" allocs/op")
	}
	head = append(head, "tmplgen ns per message")
	st := &table{head: head}
	for _, k := range keys {
		mk := scalingKey(k)
		row := []string{strconv.Itoa(mk[0]), strconv.Itoa(mk[1])}
		for _, e := range scEngines {
			s, ok := scaling[k][e]
			if !ok {
				row = append(row, "-", "-")
				continue
			}
			n, _ := s.median("ns/op")
			row = append(row, ns(n), opt(s, "allocs/op"))
		}
		if n, ok := scaling[k]["tmplgen"].median("ns/op"); ok {
			row = append(row, fmt.Sprintf("%.0f", n/float64(mk[0])))
		} else {
			row = append(row, "-")
		}
		st.add(row...)
	}
	st.print(w, md)
}

// templateSummary is one template's medians over its pairs.
type templateSummary struct {
	name       string
	pairs      int
	ns, allocs float64
	ratio      map[string]float64 // peer -> median of peer/tmplgen over the pairs that peer rendered
}

func (t templateSummary) sortKey(peer string) float64 {
	if v, ok := t.ratio[peer]; ok {
		return v
	}
	return math.Inf(1)
}

func (r *report) perTemplate(peers []string) []templateSummary {
	type acc struct {
		ns, allocs []float64
		ratio      map[string][]float64
	}
	by := map[string]*acc{}
	for key, engines := range r.render {
		name, _, _ := strings.Cut(key, "/")
		t, ok := engines["tmplgen"].median("ns/op")
		if !ok || t <= 0 {
			continue
		}
		a := by[name]
		if a == nil {
			a = &acc{ratio: map[string][]float64{}}
			by[name] = a
		}
		a.ns = append(a.ns, t)
		if al, ok := engines["tmplgen"].median("allocs/op"); ok {
			a.allocs = append(a.allocs, al)
		}
		for _, p := range peers {
			if v, ok := engines[p].median("ns/op"); ok {
				a.ratio[p] = append(a.ratio[p], v/t)
			}
		}
	}
	var out []templateSummary
	for name, a := range by {
		s := templateSummary{name: name, pairs: len(a.ns), ns: median(a.ns), ratio: map[string]float64{}}
		if len(a.allocs) > 0 {
			s.allocs = median(a.allocs)
		}
		for p, v := range a.ratio {
			s.ratio[p] = median(v)
		}
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

func countEngine(r *report, e string) int {
	n := 0
	for _, engines := range r.render {
		if _, ok := engines[e]["ns/op"]; ok {
			n++
		}
	}
	return n
}

func opt(s stats, unit string) string {
	v, ok := s.median(unit)
	if !ok {
		return "-"
	}
	if v == math.Trunc(v) {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

// scalingKey parses "messages=N/tools=K".
func scalingKey(k string) [2]int {
	var out [2]int
	for i, part := range strings.SplitN(k, "/", 2) {
		if _, v, ok := strings.Cut(part, "="); ok {
			out[i], _ = strconv.Atoi(v)
		}
	}
	return out
}
