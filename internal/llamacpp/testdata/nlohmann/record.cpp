// Records what nlohmann::json::parse throws for each text of inputs.json (a JSON array of
// texts, each a string or, for bytes that are not UTF-8, an array of byte values) and
// writes errors.json: [{"bytes": [...], "error": what(), or "" when the text parses}],
// with the error as an array of byte values when it is not UTF-8 (it quotes the input).
// Built and run by record.sh.
#include <nlohmann/json.hpp>
#include <fstream>
#include <iostream>

using json = nlohmann::ordered_json;

int main(int argc, char ** argv) {
    std::ifstream in(argv[1]);
    json inputs = json::parse(in);
    json out = json::array();
    for (const auto & item : inputs) {
        std::string text;
        if (item.is_string()) {
            text = item.get<std::string>();
        } else {
            for (const auto & b : item) {
                text.push_back(static_cast<char>(b.get<int>()));
            }
        }
        std::string err;
        try {
            (void)json::parse(text);
        } catch (const std::exception & e) {
            err = e.what();
        }
        json bytes = json::array();
        for (unsigned char c : text) {
            bytes.push_back(static_cast<int>(c));
        }
        json error = err;
        try {
            (void)error.dump();
        } catch (const std::exception &) {
            error = json::array();
            for (unsigned char c : err) {
                error.push_back(static_cast<int>(c));
            }
        }
        out.push_back(json{{"bytes", bytes}, {"error", error}});
    }
    std::ofstream o(argv[2]);
    o << out.dump(1, ' ', true) << "\n";
}
