#!/usr/bin/env python3
"""Records llama.cpp's rendering of the requests in this directory as llama-server's
/apply-template builds the prompt, for the CLI test of `render -profile llama-server`:
for each REQUEST.json and each rendering named in RENDERS below, writes
REQUEST.NAME.llama-server.txt. It runs ../../../shared/oracle/tools/llama_render.mjs
(mode "server") with the llama.cpp binding installed by
../../../shared/oracle/tools/setup.sh DIR.

Usage: TMPLGEN_LLAMA_ORACLE=DIR python3 testdata/requests/record_llama.py
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.join(HERE, "..", "..")

# request file -> {name: (template file of this repository, the model's tokenizer)}:
# bos/eos and add_bos/add_eos are those of testdata/models/roka-tiny.gguf.
RENDERS = {
    "weather.json": {
        "roka-tiny": ("templates/roka.jinja",
                      {"bos": "<|begin_of_text|>", "eos": "<|eot_id|>", "add_bos": True, "add_eos": False}),
    },
}


def main():
    oracle = os.environ.get("TMPLGEN_LLAMA_ORACLE")
    if not oracle:
        sys.exit("set TMPLGEN_LLAMA_ORACLE to the directory setup.sh installed the binding into")
    for req_file, templates in RENDERS.items():
        with open(os.path.join(HERE, req_file), encoding="utf-8") as f:
            req = json.load(f)
        for name, (path, tokenizer) in templates.items():
            with open(os.path.join(REPO, path), encoding="utf-8") as f:
                line = dict(req, id=name, template=f.read(), mode="server", **tokenizer)
            res = subprocess.run(["node", os.path.join(oracle, "llama_render.mjs")],
                                 input=json.dumps(line) + "\n", capture_output=True,
                                 text=True, check=True, env=dict(os.environ, TZ="UTC"))
            out = json.loads(res.stdout)
            if "prompt" not in out:
                sys.exit("%s %s: %s" % (req_file, name, out.get("error")))
            dest = os.path.join(HERE, "%s.%s.llama-server.txt" % (req_file[: -len(".json")], name))
            with open(dest, "w", encoding="utf-8", newline="") as f:
                f.write(out["prompt"])


if __name__ == "__main__":
    main()
