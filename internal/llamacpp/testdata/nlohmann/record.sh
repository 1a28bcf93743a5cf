#!/usr/bin/env bash
# Records errors.json: what nlohmann::json::parse (Debian's nlohmann-json3-dev, the JSON
# library llama.cpp builds with) throws for each text of inputs.json.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
g++ -std=c++17 -O1 -Wno-unused-result -o "$tmp/record" "$here/record.cpp"
"$tmp/record" "$here/inputs.json" "$here/errors.json"
