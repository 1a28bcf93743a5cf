#!/usr/bin/env python3
"""Check templates/builtin/*.jinja against llama.cpp's built-in chat formats.

Each templates/builtin/<name>.jinja reproduces llama.cpp's non-Jinja format <name>
(llama_chat_apply_template). This script renders every template with the oracle's
transformers renderer (hf_render.py: Jinja2, trim_blocks + lstrip_blocks, raise_exception)
for every case recorded in <oracle>/legacy/<name>.jinja.json and compares the bytes with
the recorded llama_legacy answer (an expected error is matched by any error).

Usage: python3 testdata/builtin/verify.py [--oracle DIR] [--templates DIR] [-v]
  --oracle     the oracle directory (default: ../shared/oracle next to the repository)
  --templates  the templates directory (default: templates/builtin of the repository)
Exits 1 on any mismatch, on a template without a recording, or on a recording without a template.
"""
import argparse
import json
import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--oracle", default=os.path.join(os.path.dirname(REPO), "shared", "oracle"))
    ap.add_argument("--templates", default=os.path.join(REPO, "templates", "builtin"))
    ap.add_argument("-v", "--verbose", action="store_true", help="print every pair")
    args = ap.parse_args()

    with open(os.path.join(args.oracle, "cases.json"), encoding="utf-8") as f:
        cases = {c["id"]: c for c in json.load(f)}
    legacy_dir = os.path.join(args.oracle, "legacy")
    recorded = sorted(n[:-len(".jinja.json")] for n in os.listdir(legacy_dir) if n.endswith(".jinja.json"))
    written = sorted(n[:-len(".jinja")] for n in os.listdir(args.templates) if n.endswith(".jinja"))

    problems = 0
    for name in sorted(set(recorded) - set(written)):
        print("MISSING template for recorded format %s" % name)
        problems += 1
    for name in sorted(set(written) - set(recorded)):
        print("NO RECORDING for template %s" % name)
        problems += 1

    reqs, want = [], {}
    for name in sorted(set(recorded) & set(written)):
        with open(os.path.join(args.templates, name + ".jinja"), encoding="utf-8") as f:
            text = f.read()
        with open(os.path.join(legacy_dir, name + ".jinja.json"), encoding="utf-8") as f:
            rec = json.load(f)
        for cid, engines in rec["cases"].items():
            exp = engines.get("llama_legacy")
            if exp is None:
                continue
            rid = name + "\t" + cid
            reqs.append(dict(cases[cid], id=rid, template=text))
            want[rid] = exp

    payload = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in reqs)
    p = subprocess.run([sys.executable, os.path.join(args.oracle, "tools", "hf_render.py")],
                       input=payload.encode("utf-8"), stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=True)
    got = {}
    for line in p.stdout.decode("utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            got[row["id"]] = row

    mismatches = 0
    for rid in sorted(want):
        exp, res = want[rid], got.get(rid, {"error": "no answer from hf_render.py"})
        name, cid = rid.split("\t")
        if "error" in exp:
            ok = "error" in res
        else:
            ok = res.get("prompt") == exp["prompt"]
        if ok:
            if args.verbose:
                print("ok       %s %s" % (name, cid))
            continue
        mismatches += 1
        print("MISMATCH %s %s" % (name, cid))
        print("  want: %s" % (("error: " + exp["error"]) if "error" in exp else repr(exp["prompt"])))
        print("  got:  %s" % (("error: " + res["error"]) if "error" in res else repr(res.get("prompt"))))

    print("%d templates, %d pairs, %d mismatches%s" % (
        len(set(recorded) & set(written)), len(want), mismatches,
        "" if not problems else ", %d missing/unrecorded" % problems))
    return 1 if mismatches or problems else 0


if __name__ == "__main__":
    sys.exit(main())
