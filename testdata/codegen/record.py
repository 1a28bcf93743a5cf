#!/usr/bin/env python3
"""Records what Python Jinja2 renders for the codegen goldens.

For every template listed in catalog.tsv and every request in requests.json, renders the
template in exactly the environment of transformers' apply_chat_template, as
../../../shared/oracle/tools/hf_render.py sets it up (the oracle's fixed clock), and
writes expected.json: {"<template>/<request id>": {"prompt": ...} | {"error": ...}}.

Usage: python3 testdata/codegen/record.py   (from the repository root or anywhere)
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.join(HERE, "..", "..", "..", "shared", "oracle", "tools")
sys.path.insert(0, TOOLS)
import hf_render  # noqa: E402


def main():
    with open(os.path.join(HERE, "requests.json"), encoding="utf-8") as f:
        requests = json.load(f)
    out = {}
    with open(os.path.join(HERE, "catalog.tsv"), encoding="utf-8") as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            name, path, _ = line.rstrip("\n").split("\t")
            with open(os.path.join(HERE, path), encoding="utf-8") as t:
                template = t.read()
            for r in requests:
                req = dict(r["request"])
                req["template"] = template
                for k in ("bos_token", "eos_token"):
                    if k in req:
                        req[k[:3]] = req.pop(k)
                req.setdefault("bos", None)
                req.setdefault("eos", None)
                try:
                    res = {"prompt": hf_render.render(req)}
                except Exception as e:  # the template's error, recorded as such
                    res = {"error": "%s: %s" % (type(e).__name__, e)}
                out[name + "/" + r["id"]] = res
    with open(os.path.join(HERE, "expected.json"), "w", encoding="utf-8") as f:
        json.dump(out, f, ensure_ascii=False, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
