#!/usr/bin/env python3
"""Record the template line of every error of the shared corpus, as Jinja2 reports it.

For each pair (template, case) of ../shared whose transformers expectation is an error,
the template is rendered again by the oracle's transformers renderer
(../shared/oracle/tools/hf_render.py, with the fixed clock the corpus was recorded with)
from the case's request, and the template line of the innermost frame of the template in
the error's traceback is written to transformers.tsv as

    template<TAB>case<TAB>line

(pairs whose traceback names no template line are left out). `tmplgen check -lines
testdata/errlines/transformers.tsv` then fails a pair whose error tmplgen reports at
another line.

Usage: python3 testdata/errlines/record.py [--shared ../shared]
The output is deterministic: rerunning it on the same corpus rewrites the same bytes.
"""
import argparse
import glob
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# the oracle's loader and the traceback's template line, as the semantics snippets record
# them
sys.path.insert(0, os.path.join(HERE, "..", "semantics"))
from record import load_oracle, template_line  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shared", default=os.path.join(HERE, "..", "..", "..", "shared"))
    ap.add_argument("--out", default=os.path.join(HERE, "transformers.tsv"))
    args = ap.parse_args()

    oracle = load_oracle(os.path.join(args.shared, "oracle", "tools", "hf_render.py"))
    with open(os.path.join(args.shared, "oracle", "cases.json"), encoding="utf-8") as f:
        cases = {c["id"]: c for c in json.load(f)}
    expected_dir = os.path.join(args.shared, "oracle", "expected")
    rows, errors, differ = [], 0, []
    for path in sorted(glob.glob(os.path.join(expected_dir, "**", "*.json"), recursive=True)):
        with open(path, encoding="utf-8") as f:
            exp = json.load(f)
        name = exp["template"]
        with open(os.path.join(args.shared, "templates", name), encoding="utf-8") as f:
            text = f.read()
        for cid in sorted(exp["cases"]):
            want = exp["cases"][cid].get("transformers", {})
            if "error" not in want or cid not in cases:
                continue
            errors += 1
            req = dict(cases[cid], template=text)
            try:
                oracle.render(req)
            except Exception as e:
                line = template_line(e)
                if line is not None:
                    rows.append("%s\t%s\t%d" % (name, cid, line))
                continue
            differ.append("%s %s renders now, but was recorded as an error" % (name, cid))
    if differ:
        sys.exit("record.py: the oracle does not reproduce the corpus:\n  " + "\n  ".join(differ))
    with open(args.out, "w", encoding="utf-8", newline="\n") as f:
        f.write("# template\tcase\tline (recorded by record.py: the template line of Jinja2's traceback)\n")
        f.write("\n".join(rows) + "\n")
    print("record.py: %d errors, %d with a template line -> %s" % (errors, len(rows), os.path.relpath(args.out)), file=sys.stderr)


if __name__ == "__main__":
    main()
