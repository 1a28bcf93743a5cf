#!/usr/bin/env bash
# Records testdata/fields/expected: every request of cases.json (one or more for each
# request field and value class: continue_final_message, tool_choice, reasoning_format,
# reasoning_effort, response_format, json_schema, grammar, chat_template_kwargs that name
# the references' own variables, documents, special tokens, the server's message checks,
# fields neither reads) through both references, for llama.cpp's collection of templates.
#
#   testdata/fields/record.sh DIR
#
# DIR holds the oracle tools (../shared/oracle/tools/setup.sh DIR, then build_native.sh DIR).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=${1:?usage: record.sh DIR (where setup.sh and build_native.sh installed the oracle)}
root=$here/../..
rm -rf "$here/expected"
LLAMA_CHAT_DRIVER=$dir/native/llama_chat_driver python3 "$root/../shared/oracle/tools/record.py" \
  "$root/../shared/templates/llama.cpp" "$here/expected" --cases "$here/cases.json"
