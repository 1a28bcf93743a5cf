#!/usr/bin/env bash
# Records OUT: every request of CASES through the three references for the templates
# under TEMPLATES: Python Jinja2 and llama-server b10587 (record.py), and vLLM
# (record_vllm.py, whose answers are merged into the same files under the engine key
# vllm). testdata/fields/record.sh and examples/openai/testdata/record.sh call it.
#
#   testdata/record_all.sh DIR TEMPLATES CASES OUT
#
# DIR holds the oracle tools (LLAMA_VERSION=b10587 ../shared/oracle/tools/build_native.sh DIR).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=${1:?usage: record_all.sh DIR TEMPLATES CASES OUT} templates=${2:?} cases=${3:?} out=${4:?}
oracle=$here/../../shared/oracle/tools
rm -rf "$out"
LLAMA_CHAT_DRIVER=$dir/native-b10587/llama_chat_driver python3 "$oracle/record.py" "$templates" "$out" --cases "$cases"
vllm=$(mktemp -d)
trap 'rm -rf "$vllm"' EXIT
python3 "$oracle/record_vllm.py" "$templates" "$cases" "$vllm"
python3 - "$out" "$vllm" <<'PY'
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
