#!/usr/bin/env bash
# Regenerates the measured part of docs/performance.md (between the "results:begin" and
# "results:end" markers): the coverage of the peers, BenchmarkRender (tmplgen, gonja,
# ardanlabs/jinja; the Qwen3 tools_defined pair ten more times, spread over the run),
# bench/python_bench.py (Python Jinja2), BenchmarkScaling, the time of
# `tmplgen gen` over every template of ../shared/templates that compiles, and the time of
# `go build ./generated`. Run from anywhere; takes ~10 minutes with the defaults.
#
#   BENCHTIME=20ms   time per pair (or a count of iterations such as 200x), Go and Python alike
#   COUNT=1          runs of each benchmark (benchcompare takes the median)
#   RUN=             a subset of pairs, TEMPLATE_RE[/CASE_RE] as go test -bench matches
#                    sub-benchmarks (e.g. RUN='Qwen|llama3/tools'); empty runs them all
#   SCALING_BENCHTIME=100ms
#   OUT=DIR          where the raw outputs go (default: a new temporary directory)
#   NODOC=1          print the report only, leave docs/performance.md alone
#   REV=             the commit to name in the doc (default: git rev-parse HEAD, for a copy
#                    of the tree made with git archive)
set -euo pipefail
cd "$(dirname "$0")/.."
BENCHTIME=${BENCHTIME:-20ms}
COUNT=${COUNT:-1}
RUN=${RUN:-}
SCALING_BENCHTIME=${SCALING_BENCHTIME:-100ms}
OUT=${OUT:-$(mktemp -d)}
SHARED=${TMPLGEN_SHARED:-../shared}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
if [ ! -d "$SHARED/templates" ] || [ ! -f "$SHARED/oracle/cases.json" ]; then
	echo "update_doc.sh: $SHARED/templates or $SHARED/oracle/cases.json is missing: the benchmarks need ../shared" >&2
	exit 1
fi
SHARED=$(cd "$SHARED" && pwd)
log() { echo "update_doc.sh: $*" >&2; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }

load_start=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)
go build -C bench -o "$OUT/benchcompare" ./cmd/benchcompare
go build -o "$OUT/tmplgen" ./cmd/tmplgen

log "coverage of the peers"
BENCH_COVERAGE_MD="$OUT/coverage.md" go test -C bench -count=1 -run '^TestCoverage$' -v . > "$OUT/coverage.log"

# The one target on an absolute time is measured ten more times, spread over the run (3
# before the pairs, 3 after them, 2 after the scaling benchmarks, 2 after Python): the
# host's speed changes by up to 1.7x from one minute to the next, so samples taken
# together all fall in the same period, and benchcompare takes the median of them all.
qwen='BenchmarkRender/^Qwen-Qwen3-0.6B$/^tools_defined$'
: > "$OUT/qwen.txt"
qwen_runs() {
	log "go test -bench '$qwen' -benchtime $BENCHTIME -count $1 (into $OUT/qwen.txt)"
	go test -C bench -run '^$' -bench "$qwen" -benchtime "$BENCHTIME" -count "$1" -timeout 0 . >> "$OUT/qwen.txt"
}
qwen_runs 3

pattern=BenchmarkRender
[ -n "$RUN" ] && pattern="BenchmarkRender/$RUN"
log "go test -bench '$pattern' -benchtime $BENCHTIME -count $COUNT (into $OUT/go.txt)"
go test -C bench -run '^$' -bench "$pattern" -benchtime "$BENCHTIME" -count "$COUNT" -timeout 0 . > "$OUT/go.txt"
qwen_runs 3
log "go test -bench BenchmarkScaling -benchtime $SCALING_BENCHTIME -count $COUNT (into $OUT/scaling.txt)"
go test -C bench -run '^$' -bench BenchmarkScaling -benchtime "$SCALING_BENCHTIME" -count "$COUNT" -timeout 0 . > "$OUT/scaling.txt"
qwen_runs 2

log "python3 bench/python_bench.py --benchtime $BENCHTIME (into $OUT/python.txt)"
python3 bench/python_bench.py --benchtime "$BENCHTIME" --count "$COUNT" ${RUN:+--run "$RUN"} > "$OUT/python.txt" 2> "$OUT/python.log"
cat "$OUT/python.log" >&2
qwen_runs 2

log "tmplgen gen over $SHARED/templates"
find "$SHARED/templates" -type f \( -name '*.jinja' -o -name '*.jinja2' -o -name '*.j2' \) | sort > "$OUT/all-templates.txt"
# each template named by its path (templates of the same file name are in several folders)
named() { sed "s|^$SHARED/templates/\(.*\)|\1=&|" "$1"; }
rm -rf "$OUT/gen" && mkdir -p "$OUT/gen"
# A first pass finds the templates that do not compile (gen writes nothing when one fails).
"$OUT/tmplgen" gen -o "$OUT/gen" $(named "$OUT/all-templates.txt") > /dev/null 2> "$OUT/gen-errors.txt" || true
{ grep -v ': warning: ' "$OUT/gen-errors.txt" || true; } | sed -n 's/^tmplgen gen: \([^:]*\):.*/\1/p' | sort -u > "$OUT/bad-templates.txt"
grep -vxFf "$OUT/bad-templates.txt" "$OUT/all-templates.txt" > "$OUT/templates.txt" || true
ntemplates=$(wc -l < "$OUT/templates.txt")
nbad=$(wc -l < "$OUT/bad-templates.txt")
rm -rf "$OUT/gen" && mkdir -p "$OUT/gen"
t=$(now)
go run ./cmd/tmplgen gen -o "$OUT/gen" $(named "$OUT/templates.txt") > /dev/null 2> "$OUT/gen-warnings.txt"
gen=$(since "$t")
rm -rf "$OUT/gen" && mkdir -p "$OUT/gen"
t=$(now)
"$OUT/tmplgen" gen -o "$OUT/gen" $(named "$OUT/templates.txt") > /dev/null 2> "$OUT/gen-warnings.txt"
genbin=$(since "$t")
log "gen: $ntemplates templates ($nbad left out: they do not compile) in ${gen}s with go run, ${genbin}s with the binary"

log "go build ./generated"
cache=$(mktemp -d)
t=$(now)
GOCACHE=$cache go build ./generated
buildcold=$(since "$t")
rm -rf "$cache"
cache=$(mktemp -d)
GOCACHE=$cache go build ./runtime
t=$(now)
GOCACHE=$cache go build ./generated
buildpkg=$(since "$t")
rm -rf "$cache"
log "build: ${buildcold}s with an empty cache, ${buildpkg}s for the generated package alone"

"$OUT/benchcompare" -markdown -gen "$gen" -gen-bin "$genbin" -gen-templates "$ntemplates" \
	-build-cold "$buildcold" -build-pkg "$buildpkg" "$OUT/go.txt" "$OUT/qwen.txt" "$OUT/scaling.txt" "$OUT/python.txt" > "$OUT/results.md"
"$OUT/benchcompare" "$OUT/go.txt" "$OUT/qwen.txt" "$OUT/scaling.txt" "$OUT/python.txt"

rev=${REV:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
if [ -z "${REV:-}" ] && [ -n "$(git status --porcelain -- runtime codegen generated ir syntax 2>/dev/null)" ]; then
	rev="$rev with uncommitted changes to the compiler or runtime"
fi
load_end=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || echo unknown)
{
	echo "Measured $(date -u +%Y-%m-%d) at commit $rev, on $cpu ($(nproc) cores), $(go version | cut -d' ' -f3),"
	echo "Python $(python3 -c 'import sys, jinja2; print("%d.%d.%d" % sys.version_info[:3], "/ Jinja2", jinja2.__version__)'),"
	echo "with \`BENCHTIME=$BENCHTIME COUNT=$COUNT RUN='$RUN' bench/update_doc.sh\`$([ -z "$RUN" ] && echo ' (every pair)' || echo " (only the pairs matching RUN)")."
	echo "Load average (1, 5, 15 min) at the start: $load_start; at the end: $load_end (other work on the machine shows as noise)."
	echo "The \`tmplgen gen\` time covers the $ntemplates templates of ../shared/templates that compile ($nbad do not)."
	echo
	echo "#### Coverage of BenchmarkRender (TestCoverage)"
	echo
	cat "$OUT/coverage.md"
	echo
	cat "$OUT/results.md"
} > "$OUT/section.md"

if [ -n "${NODOC:-}" ]; then
	cat "$OUT/section.md"
	exit 0
fi
python3 - "$OUT/section.md" docs/performance.md <<'EOF'
import sys
section = open(sys.argv[1], encoding="utf-8").read()
path = sys.argv[2]
doc = open(path, encoding="utf-8").read()
begin, end = "<!-- results:begin -->", "<!-- results:end -->"
i, j = doc.find(begin), doc.find(end)
if i < 0 or j < i:
    sys.exit("update_doc.sh: %s has no %s ... %s markers" % (path, begin, end))
doc = doc[: i + len(begin)] + "\n" + section.rstrip("\n") + "\n" + doc[j:]
open(path, "w", encoding="utf-8").write(doc)
EOF
log "rewrote docs/performance.md (raw outputs in $OUT)"
