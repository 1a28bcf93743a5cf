#!/usr/bin/env bash
# Records expected/ for the templates under templates/ x the requests of cases.json through
# both references of ../shared/oracle: Python Jinja2 (hf_render.py) and llama-server
# (llama-server b10587: llama_chat_driver, which LLAMA_VERSION=b10587 ../shared/oracle/tools/build_native.sh DIR builds as
# DIR/native-b10587/llama_chat_driver). Usage: testdata/llama_engine/record.sh DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
LLAMA_CHAT_DRIVER="$1/native-b10587/llama_chat_driver" python3 "$here/../../../shared/oracle/tools/record.py" \
  "$here/templates" "$here/expected" --cases "$here/cases.json"
