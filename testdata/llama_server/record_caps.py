#!/usr/bin/env python3
"""Records what llama.cpp itself detects about every template of ../shared/templates, for
llamaprobe's capability test (internal/llamaprobe/caps_test.go) to measure tmplgen's agreement with.

    python3 testdata/llama_server/record_caps.py LLAMA_JINJA ORACLE_DIR > testdata/llama_server/llama_caps.tsv

LLAMA_JINJA is llama_jinja.cpp (this folder) built as docs/llama-server.md says: it answers
jinja::caps_get of llama.cpp's own engine. ORACLE_DIR is where ../shared/oracle/tools/setup.sh
installed the llama.cpp binding: llama_render.mjs there answers, for each template, the
enable_thinking default llama-server uses (a "test" request with verbose on), or the error of a
template llama-server refuses at load.

Columns: template, the eight capabilities (1/0) in the order of the header, and thinking: the
enable_thinking default (1/0), or "refused" when llama-server does not load the template, or
"parse" when llama.cpp's parser rejects it (no capabilities then).
"""
import json
import os
import subprocess
import sys

CAPS = ["supports_system_role", "supports_string_content", "supports_typed_content", "supports_tools",
        "supports_tool_calls", "supports_parallel_tool_calls", "supports_object_arguments",
        "supports_preserve_reasoning"]


def main():
    llama_jinja, oracle = sys.argv[1], sys.argv[2]
    shared = os.environ.get("TMPLGEN_SHARED", os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared"))
    rows = open(os.path.join(shared, "templates", "MANIFEST.tsv"), encoding="utf-8").read().splitlines()[1:]
    paths = [r.split("\t")[0] for r in rows if r.strip()]
    srcs = {p: open(os.path.join(shared, "templates", p), encoding="utf-8").read() for p in paths}

    inp = "".join(json.dumps({"template": srcs[p]}) + "\n" for p in paths)
    out = subprocess.run([llama_jinja], input=inp, capture_output=True, text=True, check=True).stdout.splitlines()
    caps = {p: json.loads(line).get("caps") for p, line in zip(paths, out)}

    reqs = "".join(json.dumps({"id": p, "template": srcs[p], "messages": [{"role": "user", "content": "test"}],
                               "verbose": True}, ensure_ascii=False) + "\n" for p in paths)
    res = subprocess.run(["node", os.path.join(oracle, "llama_render.mjs"), "--workers", "2"], input=reqs,
                         capture_output=True, text=True, check=True).stdout.splitlines()
    thinking = {}
    for line in res:
        o = json.loads(line)
        if "error" in o:
            thinking[o["id"]] = "refused"
        else:
            thinking[o["id"]] = "1" if o.get("enable_thinking") else "0"

    print("\t".join(["template"] + CAPS + ["thinking"]))
    for p in paths:
        c = caps[p]
        if c is None:
            print("\t".join([p] + ["-"] * len(CAPS) + ["parse"]))
            continue
        print("\t".join([p] + ["1" if c[k] else "0" for k in CAPS] + [thinking[p]]))


if __name__ == "__main__":
    main()
