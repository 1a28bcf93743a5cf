#!/usr/bin/env python3
"""Record what Python Jinja2 gives for every expression of cases.txt.

cases.txt is the table's input, one entry a line (blank lines and lines starting with
"#" are comments):

    let NAME = JSON     NAME is JSON's value for the expressions below (until redefined)
    EXPR                an expression, rendered as the template "{{ EXPR }}"

Each expression is rendered by the oracle's transformers renderer
(../shared/oracle/tools/hf_render.py: the ImmutableSandboxedEnvironment, tojson,
raise_exception and fixed clock the conformance corpus was recorded with) from the
request

    {"template": "{{ EXPR }}", "messages": [], "add_generation_prompt": false,
     "bos": "<s>", "eos": "</s>", "chat_template_kwargs": <the variables EXPR reads>}

which is exactly the request jinja2/builtins_test.go renders the compiled expression
with. The variables an expression reads are the names Jinja2 finds undeclared in it
(jinja2.meta.find_undeclared_variables; every name in it, for an expression whose
template does not compile) that a "let" defined, in the order of the
"let"s. expected.json gets, in the order of cases.txt, {"line", "expr", "vars",
"prompt"} or {..., "error": "ExceptionType: message"}, with the sha256 of cases.txt (the
test fails when cases.txt changed since) and the versions of Jinja2, MarkupSafe and
Python that answered.

Usage: python3 jinja2/testdata/builtins/record.py [--oracle PATH/TO/hf_render.py]
The output is deterministic: rerunning it on unchanged cases rewrites the same bytes.
"""
import argparse
import hashlib
import importlib.metadata
import importlib.util
import json
import os
import platform
import re
import sys

import jinja2.meta

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_ORACLE = os.path.join(HERE, "..", "..", "..", "..", "shared", "oracle", "tools", "hf_render.py")

# hf_render.py reads its clock from ORACLE_NOW when it is imported; pin it to the clock
# the corpus was recorded with, whatever the environment says.
CLOCK = "2026-11-30T12:00:00"

# The variables hf_render passes as named arguments of render() or sets itself: a "let"
# may not define them.
RESERVED = {"messages", "tools", "documents", "add_generation_prompt", "bos_token", "eos_token"}

NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
LET_RE = re.compile(r"^let ([A-Za-z_][A-Za-z0-9_]*) = (.*)$")
# an object's address (a generator printed as <generator object ... at 0x...>) is not
# reproducible: such an expression must be rewritten (with | list, say)
ADDRESS_RE = re.compile(r" at 0x[0-9a-fA-F]+")


def load_oracle(path):
    os.environ["ORACLE_NOW"] = CLOCK
    spec = importlib.util.spec_from_file_location("hf_render", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def read_cases(path):
    """The cases of cases.txt: (line, expression, variables it reads)."""
    env = jinja2.Environment()
    lets = {}
    cases = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            m = LET_RE.match(line)
            if m:
                name, value = m.group(1), m.group(2)
                if name in RESERVED:
                    sys.exit("%s:%d: %s is set by the renderer, not a variable of its own" % (path, n, name))
                lets.pop(name, None)  # a redefined variable moves to the end of the order
                lets[name] = json.loads(value)
                continue
            try:
                reads = jinja2.meta.find_undeclared_variables(env.parse("{{ %s }}" % line))
            except jinja2.TemplateAssertionError:
                # the template does not compile (an unknown filter): all its names, then
                reads = set(NAME_RE.findall(line))
            except jinja2.TemplateSyntaxError as e:
                sys.exit("%s:%d: %s" % (path, n, e))
            cases.append((n, line, {k: v for k, v in lets.items() if k in reads}))
    return cases


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--oracle", default=DEFAULT_ORACLE, help="path of hf_render.py")
    args = ap.parse_args()

    oracle = load_oracle(args.oracle)
    path = os.path.join(HERE, "cases.txt")
    with open(path, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    rows = []
    unstable = []
    for n, expr, variables in read_cases(path):
        row = {"line": n, "expr": expr, "vars": variables}
        try:
            prompt = oracle.render({"template": "{{ %s }}" % expr, "messages": [], "add_generation_prompt": False,
                                    "bos": "<s>", "eos": "</s>", "chat_template_kwargs": variables})
        except Exception as e:  # an error is an expectation like any other
            msg = "%s: %s" % (type(e).__name__, e)
            if ADDRESS_RE.search(msg):
                unstable.append("cases.txt:%d: %s: the error prints an object address: %r" % (n, expr, msg))
            row["error"] = msg.encode("utf-8", "backslashreplace").decode("utf-8")
        else:
            if ADDRESS_RE.search(prompt):
                unstable.append("cases.txt:%d: %s prints an object address: %r" % (n, expr, prompt))
            row["prompt"] = prompt
        rows.append(row)
    if unstable:
        sys.exit("\n".join(unstable))
    table = {
        "recorded_by": "jinja2/testdata/builtins/record.py",
        "jinja2": importlib.metadata.version("jinja2"),
        "markupsafe": importlib.metadata.version("markupsafe"),
        "python": platform.python_version(),
        "cases_sha256": digest,
        "cases": rows,
    }
    with open(os.path.join(HERE, "expected.json"), "w", encoding="utf-8") as f:
        json.dump(table, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print("record.py: %d expressions, %d errors" % (len(rows), sum("error" in r for r in rows)), file=sys.stderr)


if __name__ == "__main__":
    main()
