// llama_jinja: renders a template context through llama.cpp's own Jinja engine (common/jinja) and
// reports jinja::caps_get for the template. Used by profile.py --llama-jinja to confirm "engine"
// pairs. Build against the llama.cpp sources shipped in @fugood/llama.node (see docs/llama-server.md):
//   L=<dir>/node_modules/@fugood/llama.node/src/llama.cpp   # after shared/oracle/tools/setup.sh <dir>
//   apt-get install nlohmann-json3-dev
//   g++ -std=c++17 -O1 -I$L/common -I$L -I$L/include -o llama_jinja llama_jinja.cpp \
//       $L/common/jinja/*.cpp $L/common/unicode.cpp
#include "jinja/lexer.h"
#include "jinja/parser.h"
#include "jinja/runtime.h"
#include "jinja/caps.h"
#include "jinja/value.h"
#include <nlohmann/json.hpp>
#include <iostream>
#include <string>
using json = nlohmann::ordered_json;
// stdin: JSON lines {"template": str, "ctx": obj?}; stdout: {"caps":{...}} or {"prompt":...} / {"error":...}
int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    json out;
    try {
      json req = json::parse(line);
      std::string src = req.at("template");
      jinja::lexer lx;
      auto lr = lx.tokenize(src);
      auto prog = jinja::parse_from_tokens(lr);
      auto c = jinja::caps_get(prog);
      json caps = json::object();
      for (auto & [k, v] : c.to_map()) caps[k] = v;
      out["caps"] = caps;
      if (req.contains("ctx")) {
        jinja::context ctx(lr.source);
        jinja::global_from_json(ctx, req.at("ctx"), true);
        jinja::runtime rt(ctx);
        try {
          auto res = rt.execute(prog);
          auto parts = jinja::runtime::gather_string_parts(res);
          out["prompt"] = parts->as_string().str();
        } catch (const std::exception & e) { out["render_error"] = e.what(); }
      }
    } catch (const std::exception & e) { out["error"] = e.what(); }
    std::cout << out.dump(-1, ' ', false, json::error_handler_t::replace) << "\n" << std::flush;
  }
}
