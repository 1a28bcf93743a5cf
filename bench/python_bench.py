#!/usr/bin/env python3
"""Times Python Jinja2 on the pairs BenchmarkRender measures: every catalog template
(templates/catalog.tsv) with every case of ../shared/oracle/cases.json, rendered in the
environment of transformers' apply_chat_template as ../shared/oracle/tools/hf_render.py
sets it up (its compile_template and render; the template compiled once, before timing).

Prints Go benchmark lines, so that benchstat and bench/cmd/benchcompare read them beside
`go test -bench` output:

    BenchmarkRender/<template>/<case>/python-2   N   NNNN ns/op

A pair the template refuses (an exception) is left out and counted on stderr.

With --profile vllm it times ../shared/oracle/tools/vllm_render.py (vLLM's request handling
around the same environment) from the request's JSON bytes to the prompt instead (json.loads,
then its render: the span bench's BenchmarkVLLM times, from ParseRequest on), as
BenchmarkVLLM/<template>/<case>/python.

Usage: python3 bench/python_bench.py [--profile transformers|vllm] [--benchtime 200x|0.1s|20ms] [--count N] [--run TEMPLATE_RE[/CASE_RE]]
"""
import argparse
import json
import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--benchtime", default="200x",
                    help="iterations per pair (200x) or time per pair (0.1s, 20ms), as go test -benchtime")
    ap.add_argument("--count", type=int, default=1, help="runs of each pair (as go test -count)")
    ap.add_argument("--profile", default="transformers", choices=("transformers", "vllm"),
                    help="what is timed: hf_render.py's render (transformers) or vllm_render.py's (vllm)")
    ap.add_argument("--run", default="",
                    help="only these pairs: TEMPLATE_RE[/CASE_RE], each part matched (unanchored) against the "
                         "template's name and the case's id, as go test -bench matches sub-benchmark names")
    ap.add_argument("--shared", default=os.environ.get("TMPLGEN_SHARED", os.path.join(REPO, "..", "shared")),
                    help="the shared directory (default ../shared beside the repository)")
    return ap.parse_args()


def read_catalog(shared):
    path = os.path.join(REPO, "templates", "catalog.tsv")
    out = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            fields = line.split("\t")
            if len(fields) not in (3, 4):
                sys.exit("%s:%d: want name, source, sha256 and the model's tokens (optional)" % (path, n))
            name, src = fields[0], fields[1]
            if src.startswith("shared:"):
                file = os.path.join(shared, "templates", src[len("shared:"):])
            else:
                file = os.path.join(REPO, "templates", src)
            with open(file, encoding="utf-8", newline="") as tf:
                out.append((name, tf.read()))
    out.sort(key=lambda t: t[0])  # the order of generated.Registry.All()
    return out


def read_cases(shared):
    with open(os.path.join(shared, "oracle", "cases.json"), encoding="utf-8") as f:
        cases = json.load(f)
    for c in cases:
        # the oracle's defaults, as tmplgen check applies them
        c.setdefault("add_generation_prompt", True)
        c.setdefault("bos", "<s>")
        c.setdefault("eos", "</s>")
    return cases


def procs():
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return None


def time_pair(render, req, benchtime):
    """Returns (iterations, seconds) of rendering req, as testing.B would choose them."""
    if benchtime.endswith("x"):
        n = int(benchtime[:-1])
        t0 = time.perf_counter()
        for _ in range(n):
            render(req)
        return n, time.perf_counter() - t0
    target = float(benchtime[:-2]) / 1000 if benchtime.endswith("ms") else float(benchtime[:-1])
    n = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(n):
            render(req)
        dt = time.perf_counter() - t0
        if dt >= target or n >= 1_000_000_000:
            return n, dt
        # grow as testing.B does: aim 1.2x past the target, at most 100x at a time
        per = dt / n if dt > 0 else 1e-9
        n = int(min(max(target * 1.2 / per, n + 1), n * 100))


def main():
    args = parse_args()
    shared = os.path.abspath(args.shared)
    tools = os.path.join(shared, "oracle", "tools")
    if not os.path.isfile(os.path.join(tools, "hf_render.py")):
        sys.exit("python_bench.py: %s/hf_render.py is missing: the benchmarks need ../shared" % tools)
    sys.path.insert(0, tools)
    import hf_render  # noqa: E402
    render, bench = hf_render.render, "BenchmarkRender"
    if args.profile == "vllm":
        import vllm_render  # noqa: E402

        # the oracle's server (its defaults): --enable-auto-tool-choice and a --tool-call-parser;
        # the request as JSON bytes (compact, as a client sends it), decoded in the timing
        def render(req):
            raw, template = req
            body = json.loads(raw)
            body["template"] = template  # the template is the server's, not the request's
            return vllm_render.render(body)

        bench = "BenchmarkVLLM"

    if not re.fullmatch(r"\d+x|\d+(\.\d+)?m?s", args.benchtime):
        sys.exit("python_bench.py: --benchtime wants Nx, Ss or Mms, e.g. 200x, 0.1s or 20ms")
    run = [re.compile(p) for p in args.run.split("/")] if args.run else []
    templates = read_catalog(shared)
    cases = read_cases(shared)
    suffix = "-%d" % procs() if procs() > 1 else ""

    print("goos: %s" % sys.platform)
    print("goarch: amd64" if os.uname().machine == "x86_64" else "goarch: %s" % os.uname().machine)
    print("pkg: github.com/tmplgen/tmplgen/bench")
    cpu = cpu_name()
    if cpu:
        print("cpu: %s" % cpu)
    sys.stdout.flush()
    done = refused = failed_parse = 0
    start = time.perf_counter()
    for name, text in templates:
        try:
            hf_render.compile_template(text)
        except Exception as e:  # Jinja2 cannot parse it
            print("python_bench.py: %s: %s: %s" % (name, type(e).__name__, e), file=sys.stderr)
            failed_parse += 1
            continue
        if run and not run[0].search(name):
            continue
        for case in cases:
            key = "%s/%s" % (name, case["id"])
            if len(run) > 1 and not run[1].search(case["id"]):
                continue
            req = dict(case)
            req["template"] = text
            if args.profile == "vllm":
                req = (json.dumps(case, ensure_ascii=False, separators=(",", ":")).encode(), text)
            try:
                render(req)  # warm up, and see whether the template refuses the pair
            except Exception:
                refused += 1
                continue
            for _ in range(args.count):
                n, dt = time_pair(render, req, args.benchtime)
                print("%s/%s/python%s \t%8d\t%12.0f ns/op" % (bench, key, suffix, n, dt * 1e9 / n))
            sys.stdout.flush()
            done += 1
    print("PASS")
    print("python_bench.py: %d pairs timed, %d refused by their template, %d templates Jinja2 could not parse, in %.0fs"
          % (done, refused, failed_parse, time.perf_counter() - start), file=sys.stderr)


if __name__ == "__main__":
    main()
