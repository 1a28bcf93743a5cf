#!/usr/bin/env bash
# Records testdata/fields/expected: every request of cases.json (one or more for each
# request field and value class: continue_final_message, tool_choice, reasoning_format,
# reasoning_effort, response_format, json_schema, grammar, chat_template_kwargs that name
# the references' own variables, documents, special tokens, the server's message checks,
# fields neither reads) through the three references, for llama.cpp's collection of
# templates: Python Jinja2 and llama-server (record.py), and vLLM (record_vllm.py, whose
# answers are merged into the same files under the engine key vllm).
#
#   testdata/fields/record.sh DIR
#
# DIR holds the oracle tools (LLAMA_VERSION=b10587 ../shared/oracle/tools/build_native.sh DIR: llama-server b10587).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=${1:?usage: record.sh DIR (where build_native.sh built the b10587 driver)}
root=$here/../..
oracle=$root/../shared/oracle/tools
rm -rf "$here/expected"
LLAMA_CHAT_DRIVER=$dir/native-b10587/llama_chat_driver python3 "$oracle/record.py" \
  "$root/../shared/templates/llama.cpp" "$here/expected" --cases "$here/cases.json"
vllm=$(mktemp -d)
trap 'rm -rf "$vllm"' EXIT
python3 "$oracle/record_vllm.py" "$root/../shared/templates/llama.cpp" "$here/cases.json" "$vllm"
python3 - "$here/expected" "$vllm" <<'PY'
import json, os, sys
expected, vllm = sys.argv[1], sys.argv[2]
for name in sorted(os.listdir(vllm)):
    with open(os.path.join(vllm, name), encoding="utf-8") as f:
        v = json.load(f)
    path = os.path.join(expected, name)
    with open(path, encoding="utf-8") as f:
        e = json.load(f)
    for case, engines in v["cases"].items():
        e["cases"].setdefault(case, {})["vllm"] = engines["vllm"]
    with open(path, "w", encoding="utf-8") as f:
        json.dump(e, f, indent=1, ensure_ascii=False)
        f.write("\n")
PY
