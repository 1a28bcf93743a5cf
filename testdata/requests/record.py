#!/usr/bin/env python3
"""Records Python Jinja2's rendering of the requests in this directory, for the CLI
tests: for each REQUEST.json and each rendering named in RENDERS below, writes
REQUEST.NAME.txt. The environment is transformers' apply_chat_template as
../../../shared/oracle/tools/hf_render.py sets it up.

Usage: python3 testdata/requests/record.py
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.join(HERE, "..", "..", "..", "shared")
sys.path.insert(0, os.path.join(SHARED, "oracle", "tools"))
import hf_render  # noqa: E402

REPO = os.path.join(HERE, "..", "..")

# request file -> {name: (template file, special tokens)}: a template under
# ../shared/templates ("shared:" prefix) or of this repository, and the bos/eos the
# rendering uses (those of testdata/models/roka-tiny.gguf for "roka-tiny").
RENDERS = {
    "weather.json": {
        "Qwen-Qwen3-0.6B": ("shared:llama.cpp/Qwen-Qwen3-0.6B.jinja", {}),
        "roka-tiny": ("templates/roka.jinja", {"bos": "<|begin_of_text|>", "eos": "<|eot_id|>"}),
    },
}


def main():
    for req_file, templates in RENDERS.items():
        with open(os.path.join(HERE, req_file), encoding="utf-8") as f:
            req = json.load(f)
        for name, (path, tokens) in templates.items():
            if path.startswith("shared:"):
                path = os.path.join(SHARED, "templates", path[len("shared:"):])
            else:
                path = os.path.join(REPO, path)
            with open(path, encoding="utf-8") as f:
                req["template"] = f.read()
            req["bos"] = tokens.get("bos")
            req["eos"] = tokens.get("eos")
            out = os.path.join(HERE, "%s.%s.txt" % (req_file[: -len(".json")], name))
            with open(out, "w", encoding="utf-8", newline="") as f:
                f.write(hf_render.render(req))


if __name__ == "__main__":
    main()
