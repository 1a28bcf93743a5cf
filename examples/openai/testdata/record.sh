#!/usr/bin/env bash
# Records testdata/expected: every request of cases.json (the bodies openai-go and
# go-openai send, which TestCasesFile writes with -update) through the three references
# (../../../testdata/record_all.sh), for the templates TestSDKOracle renders.
#
#   testdata/record.sh DIR
#
# DIR holds the oracle tools (LLAMA_VERSION=b10587 ../shared/oracle/tools/build_native.sh DIR).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=${1:?usage: record.sh DIR (where build_native.sh built the b10587 driver)}
templates=$(mktemp -d)
trap 'rm -rf "$templates"' EXIT
for name in Qwen-Qwen3-0.6B meta-llama-Llama-3.1-8B-Instruct NousResearch-Hermes-3-Llama-3.1-8B-tool_use deepseek-ai-DeepSeek-R1-Distill-Qwen-32B; do
  cp "$here/../../../../shared/templates/llama.cpp/$name.jinja" "$templates/"
done
"$here/../../../testdata/record_all.sh" "$dir" "$templates" "$here/cases.json" "$here/expected"
