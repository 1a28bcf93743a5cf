"""Records testdata/vllm/facts.tsv: for every template of ../shared/templates, what vLLM
decides about it when it loads it, as ../shared/oracle/tools/vllm_render.py (a
reconstruction of vLLM's request handling) computes it: the content format
(hf.py _detect_content_format), whether it mentions the developer role
(_detect_developer_role_support) and the variables it reads
(jinja2.meta.find_undeclared_variables, sorted).

Usage: python3 testdata/vllm/record_facts.py
"""
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
shared = os.path.join(here, "..", "..", "..", "shared")
sys.path.insert(0, os.path.join(shared, "oracle", "tools"))
import vllm_render  # noqa: E402

root = os.path.join(shared, "templates")
rows = []
for dirpath, _, files in os.walk(root):
    for f in files:
        if ".jinja" not in f:
            continue
        path = os.path.join(dirpath, f)
        rel = os.path.relpath(path, root)
        text = open(path, encoding="utf-8").read()
        fmt = vllm_render.detect_content_format(text)
        dev = "1" if vllm_render.detect_developer_role_support(text) else "0"
        try:
            names = ",".join(sorted(vllm_render.template_vars(text)))
        except Exception:
            names = "!"  # the template does not parse
        rows.append((rel, fmt, dev, names))
rows.sort()
with open(os.path.join(here, "facts.tsv"), "w", encoding="utf-8") as out:
    out.write("# template\tcontent_format\tdeveloper\tvariables (recorded by record_facts.py)\n")
    for r in rows:
        out.write("\t".join(r) + "\n")
print(len(rows), "templates")
