#!/usr/bin/env python3
"""Records Python Jinja2's rendering of the requests in this directory through catalog
templates, for the CLI tests: for each REQUEST.json and each template named in
RENDERS below, writes REQUEST.TEMPLATE.txt. The environment is transformers'
apply_chat_template as ../../../shared/oracle/tools/hf_render.py sets it up.

Usage: python3 testdata/requests/record.py
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.join(HERE, "..", "..", "..", "shared")
sys.path.insert(0, os.path.join(SHARED, "oracle", "tools"))
import hf_render  # noqa: E402

# request file -> catalog templates (by file under ../shared/templates)
RENDERS = {
    "weather.json": {"Qwen-Qwen3-0.6B": "llama.cpp/Qwen-Qwen3-0.6B.jinja"},
}


def main():
    for req_file, templates in RENDERS.items():
        with open(os.path.join(HERE, req_file), encoding="utf-8") as f:
            req = json.load(f)
        for name, path in templates.items():
            with open(os.path.join(SHARED, "templates", path), encoding="utf-8") as f:
                req["template"] = f.read()
            req.setdefault("bos", None)
            req.setdefault("eos", None)
            out = os.path.join(HERE, "%s.%s.txt" % (req_file[: -len(".json")], name))
            with open(out, "w", encoding="utf-8", newline="") as f:
                f.write(hf_render.render(req))


if __name__ == "__main__":
    main()
