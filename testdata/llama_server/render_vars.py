#!/usr/bin/env python3
"""Renders templates with exactly the variables given, in the environment of transformers'
apply_chat_template (../shared/oracle/tools/hf_render.py: Python Jinja2's immutable sandbox,
trim_blocks, lstrip_blocks, loop controls, transformers' tojson, raise_exception, strftime_now).

stdin : JSON lines {"id", "template", "vars"}; stdout: {"id", "prompt"} or {"id", "error"}.

cmd/tmplgen's TestLlamaServerEngineDivergences gives it the variables the llama_server profile
defines for each pair testdata/llama-server-divergences.tsv lists as an engine deviation: Python
Jinja2 must render them into tmplgen's own bytes (so the difference to llama-server is llama.cpp's
engine). TMPLGEN_SHARED overrides the location of shared/ (default: ../shared next to the repository).
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.environ.get("TMPLGEN_SHARED", os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(HERE))), "shared"))
sys.path.insert(0, os.path.join(SHARED, "oracle", "tools"))

import hf_render  # noqa: E402


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        try:
            out = {"id": req["id"], "prompt": hf_render.compile_template(req["template"]).render(req["vars"])}
        except Exception as e:  # noqa: BLE001 (the template's own error is an answer)
            out = {"id": req["id"], "error": "%s: %s" % (type(e).__name__, e)}
        sys.stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
