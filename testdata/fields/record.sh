#!/usr/bin/env bash
# Records testdata/fields/expected: every request of cases.json (one or more for each
# request field and value class: continue_final_message, tool_choice, reasoning_format,
# reasoning_effort, response_format, json_schema (schema_*: schemas, patterns included, llama-server cannot turn
# into a grammar), tools whose parameters it cannot (tool_schema_*), grammar, chat_template_kwargs that name
# the references' own variables, documents, special tokens, the server's message checks,
# fields neither reads) through the three references (testdata/record_all.sh), for
# llama.cpp's collection of templates.
#
#   testdata/fields/record.sh DIR
#
# DIR holds the oracle tools (LLAMA_VERSION=b10587 ../shared/oracle/tools/build_native.sh DIR: llama-server b10587).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=${1:?usage: record.sh DIR (where build_native.sh built the b10587 driver)}
"$here/../record_all.sh" "$dir" "$here/../../../shared/templates/llama.cpp" "$here/cases.json" "$here/expected"
