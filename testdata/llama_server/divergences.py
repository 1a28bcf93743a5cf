#!/usr/bin/env python3
"""Writes testdata/llama-server-divergences.tsv: every pair of the shared corpus where the
llama_server profile of tmplgen does not give llama-server's recorded answer, each classified
"refused" or "engine" with its reason, or reported as unexplained (then it is not written and the
script fails: an unexplained pair is a bug of the profile to fix, not a divergence to list).

    go run ./cmd/tmplgen check -templates ../shared/templates -expected ../shared/oracle/expected \\
        -engine llama_server -export /tmp/failing.jsonl
    python3 testdata/llama_server/divergences.py /tmp/failing.jsonl --llama-jinja BIN \\
        > testdata/llama-server-divergences.tsv

The classification is profile.py's (classify_pair), applied to the template variables tmplgen's
own profile defines (exported by check -export): "refused" when llama-server would not load the
template; "engine" when llama.cpp's own Jinja engine (BIN, llama_jinja.cpp built as
docs/llama-server.md says) renders those very variables into the recorded answer while Python
Jinja2 does not, the deviation named by emulating it in Jinja2.
"""
import argparse
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import profile as prof  # noqa: E402  (testdata/llama_server/profile.py)


def our_result(got):
    if "error" in got:
        # "file:line:col (construct): Kind: message" -> "Kind: message", as Python names it
        m = re.search(r"(\w+(?:Error|Exception)): (.*)", got["error"], re.S)
        return "error", ("%s: %s" % (m.group(1), m.group(2))) if m else got["error"]
    return "prompt", got["prompt"]


def prefill_of(messages):
    if not messages or not isinstance(messages[-1], dict) or messages[-1].get("role") != "assistant":
        return None
    c = messages[-1].get("content")
    if isinstance(c, list):
        return "".join(p["text"] if isinstance(p, dict) and isinstance(p.get("text"), str) else "" for p in c)
    return c if isinstance(c, str) else ""


# Jinja2 errors that name a deviation of llama.cpp's engine profile.py's table lacks.
JINJA2_ERRORS = [
    ("cannot assign attribute on non-namespace object",
     "llama.cpp's {% set obj.attr = ... %} sets an item of a dict (Jinja2 allows it on a namespace only)"),
    ("is undefined", "llama.cpp resolves the names a macro does not define in the scope it is called from "
                     "(Jinja2: where it is defined, here undefined)"),
]


def name_deviation(why):
    """Names the deviation of a "Jinja2 raises where llama.cpp renders: ..." reason."""
    why = why.replace("(server would not start): server would not start): ", "(server would not start): ")
    prefix = "Jinja2 raises where llama.cpp renders: "
    if why.startswith(prefix):
        for text, name in JINJA2_ERRORS:
            if text in why:
                return "Jinja2 raises (%s); %s" % (why[len(prefix):].split(":")[0], name)
    return why


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("export")
    ap.add_argument("--llama-jinja", default=os.environ.get("LLAMA_JINJA"))
    a = ap.parse_args()
    cases = {c["id"]: c for c in json.load(open(os.path.join(prof.SHARED, "oracle", "cases.json"), encoding="utf-8"))}
    llama = prof.LlamaJinja(a.llama_jinja) if a.llama_jinja else None
    rows, unexplained = [], []
    for line in open(a.export, encoding="utf-8"):
        e = json.loads(line)
        path, case = e["template"], e["case"]
        src = open(os.path.join(prof.SHARED, "templates", path), encoding="utf-8").read()
        req = cases[case]
        kind, value = our_result(e["got"])
        rw = None
        if "vars" in e["got"]:
            ctx = json.loads(e["got"]["vars"])
            rw = prof.Rewritten(ctx, prof.handler_of(src), bool(ctx.get("add_generation_prompt")),
                                prefill_of(req.get("messages")), bool(req.get("add_bos")), bool(req.get("add_eos")),
                                req.get("bos", "<s>"), req.get("eos", "</s>"), ctx.get("enable_thinking"))
        r = {"template": path, "case": case, "req": req, "ok": False, "kind": kind, "value": value,
             "expected": e["want"], "rewritten": rw, "src": src}
        cat, why = prof.classify_pair(r, llama)
        why = name_deviation(why).replace("\t", " ").replace("\n", " ")
        if cat in ("refused", "engine"):
            rows.append((path, case, cat, why))
        else:
            unexplained.append((path, case, why))
    rows.sort()
    sys.stdout.write("template\tcase\tcategory\treason\n")
    for row in rows:
        sys.stdout.write("\t".join(row) + "\n")
    for path, case, why in unexplained:
        print("UNEXPLAINED %s %s: %s" % (path, case, why), file=sys.stderr)
    print("%d refused, %d engine, %d unexplained" % (sum(r[2] == "refused" for r in rows),
                                                     sum(r[2] == "engine" for r in rows), len(unexplained)),
          file=sys.stderr)
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
