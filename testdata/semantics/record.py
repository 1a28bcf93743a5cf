#!/usr/bin/env python3
"""Record what Python Jinja2 renders for every snippet of snippets.json.

Each snippet is {"id", "template", "vars"?, "messages"?}. It is rendered by the oracle's
transformers renderer (../shared/oracle/tools/hf_render.py: the same
ImmutableSandboxedEnvironment, tojson, raise_exception, strftime_now and fixed clock the
conformance corpus was recorded with) from the request

    {"template": ..., "messages": <messages or []>, "add_generation_prompt": false,
     "bos": "<s>", "eos": "</s>", "chat_template_kwargs": <vars>}

which is exactly the request cmd/tmplgen/semantics_test.go gives the compiled snippet.
The answers go to expected.json as {"id": {"prompt": ...}} or {"id": {"error": ...}}; an
error raised while rendering also records "line", the template line Jinja2's traceback
names (the innermost frame of the template).

With --llama-driver PATH (the llama_chat_driver that
LLAMA_VERSION=b10587 ../shared/oracle/tools/build_native.sh DIR builds as
DIR/native-b10587/llama_chat_driver), it also renders every snippet from the same request
through llama-server b10587 (llama.cpp's engine, its load-time checks and the server's
request handling) into expected_llama_server.json, {"id": {"prompt": ...}} or
{"id": {"error": ...}}.

Usage: python3 testdata/semantics/record.py [--oracle PATH/TO/hf_render.py] [--llama-driver PATH]
The output is deterministic: rerunning it on unchanged snippets rewrites the same bytes.
"""
import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_ORACLE = os.path.join(HERE, "..", "..", "..", "shared", "oracle", "tools", "hf_render.py")

# hf_render.py reads its clock from ORACLE_NOW when it is imported; pin it to the clock
# the corpus was recorded with, whatever the environment says.
CLOCK = "2026-11-30T12:00:00"

# The variables hf_render passes as named arguments of render(), not as template kwargs.
RESERVED = {"messages", "tools", "documents", "add_generation_prompt"}

ID_RE = re.compile(r"^[a-z0-9_]+$")
ADDRESS_RE = re.compile(r" at 0x[0-9a-fA-F]+")
# a position read from freed memory in a llama.cpp error (substr of a string gone)
WILD_POS_RE = re.compile(r"\(which is [0-9]{10,}\)")


def load_oracle(path):
    os.environ["ORACLE_NOW"] = CLOCK
    spec = importlib.util.spec_from_file_location("hf_render", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def request(snippet):
    """The request a snippet is rendered from (the Go test builds the same one)."""
    return {
        "template": snippet["template"],
        "messages": snippet.get("messages", []),
        "add_generation_prompt": False,
        "bos": "<s>",
        "eos": "</s>",
        "chat_template_kwargs": snippet.get("vars", {}),
    }


def template_line(e):
    """The template line of the innermost frame of the template in e's traceback (Jinja2
    rewrites the frames of compiled templates to name "<template>" and the template's
    line), or None when no frame of the template raised it."""
    lines = [f.lineno for f in traceback.extract_tb(e.__traceback__) if f.filename == "<template>"]
    return lines[-1] if lines else None


def check(snippets):
    seen = set()
    for i, s in enumerate(snippets):
        sid = s.get("id")
        if not isinstance(sid, str) or not ID_RE.match(sid):
            sys.exit("snippet %d: id %r must match %s" % (i, sid, ID_RE.pattern))
        if sid in seen:
            sys.exit("snippet %d: duplicate id %r" % (i, sid))
        seen.add(sid)
        if set(s) - {"id", "template", "vars", "messages"}:
            sys.exit("snippet %s: unknown fields %s" % (sid, sorted(set(s) - {"id", "template", "vars", "messages"})))
        if not isinstance(s.get("template"), str) or not s["template"]:
            sys.exit("snippet %s: template must be a non-empty string" % sid)
        if not isinstance(s.get("vars", {}), dict):
            sys.exit("snippet %s: vars must be an object" % sid)
        bad = RESERVED & set(s.get("vars", {}))
        if bad:
            sys.exit("snippet %s: vars may not be named %s (they are not template kwargs)" % (sid, sorted(bad)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--oracle", default=DEFAULT_ORACLE, help="path of hf_render.py")
    ap.add_argument("--snippets", default=os.path.join(HERE, "snippets.json"))
    ap.add_argument("--out", default=os.path.join(HERE, "expected.json"))
    ap.add_argument("--llama-driver", help="path of llama_chat_driver (b10587): also record llama-server")
    ap.add_argument("--llama-out", default=os.path.join(HERE, "expected_llama_server.json"))
    args = ap.parse_args()

    oracle = load_oracle(args.oracle)
    with open(args.snippets, encoding="utf-8") as f:
        snippets = json.load(f)
    check(snippets)

    expected = {}
    nerr = 0
    unstable = []
    for s in snippets:
        try:
            prompt = oracle.render(request(s))
        except Exception as e:  # an error is an expectation like any other
            nerr += 1
            # addresses of objects are not reproducible; only the fact of an error is compared
            msg = ADDRESS_RE.sub("", "%s: %s" % (type(e).__name__, e))
            expected[s["id"]] = {"error": msg.encode("utf-8", "backslashreplace").decode("utf-8")}
            line = template_line(e)
            if line is not None:
                expected[s["id"]]["line"] = line
            continue
        if ADDRESS_RE.search(prompt):
            unstable.append("%s prints an object address, which is not reproducible: %r" % (s["id"], prompt))
        try:
            prompt.encode("utf-8")
        except UnicodeEncodeError:
            unstable.append("%s prints a lone surrogate, which UTF-8 cannot hold: %r" % (s["id"], prompt))
        expected[s["id"]] = {"prompt": prompt}
    if unstable:
        sys.exit("snippets that cannot be recorded:\n  " + "\n  ".join(unstable))

    text = json.dumps(expected, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
    with open(args.out, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    print("record.py: %d snippets (%d errors) -> %s" % (len(snippets), nerr, os.path.relpath(args.out)), file=sys.stderr)
    if args.llama_driver:
        record_llama(args.llama_driver, snippets, args.llama_out)


def record_llama(driver, snippets, out):
    """Renders every snippet through llama-server (the driver) into out."""
    payload = "".join(json.dumps(dict(request(s), id=s["id"]), ensure_ascii=False) + "\n" for s in snippets)
    p = subprocess.run([os.path.abspath(driver)], input=payload.encode("utf-8"), stdout=subprocess.PIPE, check=True)
    rows = [json.loads(l) for l in p.stdout.decode("utf-8").split("\n") if l.strip()]
    if [r["id"] for r in rows] != [s["id"] for s in snippets]:
        sys.exit("%s answered %d of %d snippets, or out of order" % (driver, len(rows), len(snippets)))
    expected = {}
    nerr = 0
    for r in rows:
        if "prompt" in r:
            expected[r["id"]] = {"prompt": r["prompt"]}
        else:
            nerr += 1
            expected[r["id"]] = {"error": WILD_POS_RE.sub("(which is ...)", r.get("error", ""))}
    text = json.dumps(expected, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
    with open(out, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    print("record.py: %d snippets through llama-server (%d errors) -> %s" % (len(snippets), nerr, os.path.relpath(out)), file=sys.stderr)


if __name__ == "__main__":
    main()
