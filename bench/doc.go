// Package bench holds the side-by-side benchmarks of tmplgen's compiled renderers against
// two Go interpreters of Jinja (gonja v2 and ardanlabs/jinja) over the catalog templates
// and the oracle cases, plus the scaling benchmarks and BenchmarkRequest (runtime.ParseJSON
// beside encoding/json on the oracle's requests). It has no API: everything is in its
// _test.go files. python_bench.py times Python Jinja2 on the same pairs, cmd/benchcompare
// summarises both outputs and update_doc.sh regenerates docs/performance.md.
//
//	go test -run '^$' -bench BenchmarkRender -benchtime 100ms ./bench
//	go test -run TestCoverage -v ./bench   # which engine renders which pair
package bench
