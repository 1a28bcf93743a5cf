#!/usr/bin/env python3
"""Records what Python Jinja2 renders for the adversarial templates of this directory
(templates written to break out of generated Go code: quotes, backticks, comment closers,
//go: lines, NUL, bidi controls, Go keywords and runtime names as variables, huge
literals), with no messages, in the environment of transformers' apply_chat_template as
../../../shared/oracle/tools/hf_render.py sets it up. Writes expected.json:
{"<file>": {"prompt": ...} | {"error": ...}}.

Usage: python3 testdata/adversarial/record.py
"""
import glob
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "shared", "oracle", "tools"))
import hf_render  # noqa: E402


def main():
    out = {}
    for path in sorted(glob.glob(os.path.join(HERE, "*.jinja"))):
        with open(path, encoding="utf-8", newline="") as f:
            template = f.read()
        req = {"template": template, "messages": [], "add_generation_prompt": False, "bos": "<s>", "eos": "</s>"}
        try:
            res = {"prompt": hf_render.render(req)}
        except Exception as e:  # the template's error, recorded as such
            res = {"error": "%s: %s" % (type(e).__name__, e)}
        out[os.path.basename(path)] = res
    with open(os.path.join(HERE, "expected.json"), "w", encoding="utf-8") as f:
        json.dump(out, f, ensure_ascii=False, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
