#!/usr/bin/env python3
"""Record what Python Jinja2 renders for the requests of every construct case.

Each case (NAME.txtar) holds a template (template.jinja) and requests (requests.jsonl,
one JSON request per line with an "id"). This script renders each request through the
oracle's transformers renderer (../shared/oracle/tools/hf_render.py, with the corpus's
fixed clock) and writes the answers into the case's expected.jsonl section, one line per
request: {"id", "prompt"} or {"id", "error", "line"} (the template line Jinja2's
traceback names). The ir and go sections are goldens of tmplgen's own output, which
`go test ./codegen -run TestConstructs -update` rewrites; this script never touches them.

Usage: python3 testdata/codegen/cases/record.py [--oracle PATH/TO/hf_render.py]
"""
import argparse
import glob
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "semantics"))
from record import DEFAULT_ORACLE, load_oracle, template_line  # noqa: E402

MARKER = re.compile(r"^-- (.+) --$")


def parse(text):
    """The comment and the files of a txtar archive, in order."""
    comment, files, cur = [], [], None
    for line in text.splitlines(keepends=True):
        m = MARKER.match(line.rstrip("\n"))
        if m:
            cur = [m.group(1), []]
            files.append(cur)
        elif cur is None:
            comment.append(line)
        else:
            cur[1].append(line)
    return "".join(comment), [(n, "".join(d)) for n, d in files]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--oracle", default=DEFAULT_ORACLE)
    args = ap.parse_args()
    oracle = load_oracle(args.oracle)
    for path in sorted(glob.glob(os.path.join(HERE, "*.txtar"))):
        with open(path, encoding="utf-8") as f:
            comment, files = parse(f.read())
        data = dict(files)
        template = data["template.jinja"]
        out = []
        for line in data["requests.jsonl"].splitlines():
            req = json.loads(line)
            rid = req.pop("id")
            try:
                prompt = oracle.render(dict(req, template=template))
                out.append({"id": rid, "prompt": prompt})
            except Exception as e:
                ans = {"id": rid, "error": "%s: %s" % (type(e).__name__, e)}
                lineno = template_line(e)
                if lineno is not None:
                    ans["line"] = lineno
                out.append(ans)
        data["expected.jsonl"] = "".join(json.dumps(a, ensure_ascii=False) + "\n" for a in out)
        names = [n for n, _ in files] + ([] if "expected.jsonl" in dict(files) else ["expected.jsonl"])
        # the expected answers follow the requests; the goldens come after them
        order = ["template.jinja", "requests.jsonl", "expected.jsonl"]
        names = order + [n for n in names if n not in order]
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(comment)
            for n in names:
                f.write("-- %s --\n%s" % (n, data[n]))
    print("record.py: %d cases" % len(glob.glob(os.path.join(HERE, "*.txtar"))), file=sys.stderr)


if __name__ == "__main__":
    main()
