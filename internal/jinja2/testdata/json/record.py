#!/usr/bin/env python3
"""Records what Python's json.loads gives for each input of INPUTS into cases.json,
which TestParseJSONPython (jinja2/jsondecode_test.go) checks ParseJSON against: the
repr() of the result, or the type and message of the exception.

Run from this directory: python3 record.py (cases.json is checked in; rerun it after
changing INPUTS)."""

import json

# (name, JSON text)
INPUTS = [
    # integers: exact at any size, Python's limit of 4300 digits
    ("int zero", "0"),
    ("int minus zero", "-0"),
    ("int", "42"),
    ("int negative", "-17"),
    ("int 18 digits", "999999999999999999"),
    ("int max int64", "9223372036854775807"),
    ("int max int64 + 1", "9223372036854775808"),
    ("int min int64", "-9223372036854775808"),
    ("int min int64 - 1", "-9223372036854775809"),
    ("int 30 digits", "123456789012345678901234567890"),
    ("int 4300 digits", "7" * 4300),
    ("int -4300 digits", "-" + "7" * 4300),
    ("int 4301 digits", "7" * 4301),
    ("int -4301 digits", "-" + "7" * 4301),
    ("int leading zero", "01"),
    ("int minus leading zero", "-01"),
    ("int plus", "+1"),
    ("int minus alone", "-"),
    ("int hex", "0x10"),
    # floats: Python float semantics
    ("float one", "1.0"),
    ("float minus zero", "-0.0"),
    ("float zero exponent", "0e0"),
    ("float fraction", "0.1"),
    ("float exponent", "1e5"),
    ("float exponent upper", "2.5E-3"),
    ("float exponent plus", "1E+2"),
    ("float 1e16", "1e16"),
    ("float 1e22", "1e22"),
    ("float long", "123456789.123456789"),
    ("float overflow", "1e400"),
    ("float overflow negative", "-1e400"),
    ("float max", "1.7976931348623157e308"),
    ("float past max", "1.7976931348623159e308"),
    ("float underflow", "1e-400"),
    ("float smallest", "5e-324"),
    ("float min normal", "2.2250738585072014e-308"),
    ("float 4400 digits", "1" + "0" * 4400 + ".5"),
    ("float huge exponent", "1e99999999999999999999"),
    ("float dot without digits", "1."),
    ("float dot first", ".5"),
    ("float dot exponent", "1.e5"),
    ("float exponent without digits", "1e"),
    ("float exponent sign only", "1e+"),
    ("NaN", "NaN"),
    ("Infinity", "Infinity"),
    ("-Infinity", "-Infinity"),
    ("in a list", "[NaN, Infinity, -Infinity, -0.0, 1.0]"),
    ("-NaN", "-NaN"),
    ("nan", "nan"),
    ("infinity", "infinity"),
    ("Inf", "Inf"),
    ("NaN prefix", "Na"),
    ("Infinity with more", "Infinityx"),
    # strings
    ("str empty", '""'),
    ("str", '"abc"'),
    ("str simple escapes", r'"\" \\ \/ \b \f \n \r \t"'),
    ("str u escape ascii", r'"\u0041\u0062"'),
    ("str u escape latin", r'"\u00e9\u00E9"'),
    ("str u escape euro", r'"\u20ac"'),
    ("str u escape nul", r'"a\u0000b"'),
    ("str u escape controls", r'"\u0001\u001f\u007f\u0085"'),
    ("str surrogate pair", r'"\uD83D\uDE00"'),
    ("str surrogate pair lower", r'"x\ud83d\ude00y"'),
    ("str lone high surrogate", r'"\ud800"'),
    ("str lone low surrogate", r'"\udc00"'),
    ("str high surrogate then letter", r'"\ud800\u0041"'),
    ("str high surrogate then text", r'"\ud83dx"'),
    ("str pair reversed", r'"\ude00\ud83d"'),
    ("str raw UTF-8", '"é 😀 中文 ▁"'),
    ("str raw DEL", '"a\x7fb"'),
    ("str raw U+2028", '"a\u2028b"'),
    ("str raw zero width space", '"a\u200bb"'),
    ("str raw BOM inside", '"\ufeff"'),
    ("str long plain", '"' + "abcdefghij" * 30 + '"'),
    ("str long with escape at end", '"' + "abcdefghij" * 30 + r'\n"'),
    ("str quote in the middle", r'"say \"hi\" please"'),
    ("str raw control", '"a\x01b"'),
    ("str raw newline", '"a\nb"'),
    ("str raw tab", '"a\tb"'),
    ("str raw unit separator", '"\x1f"'),
    ("str bad escape", r'"\x41"'),
    ("str bad escape a", r'"\a"'),
    ("str short u escape", r'"\u12"'),
    ("str bad hex", r'"\u12G4"'),
    ("str unterminated", '"abc'),
    ("str unterminated after escape", r'"abc\"'),
    ("str unterminated in escape", '"abc\\'),
    ("str single quotes", "'abc'"),
    # whitespace: only space, tab, newline, carriage return
    ("whitespace", " \t\n\r 1 \t\n\r"),
    ("whitespace in containers", ' [ 1 , { "a" : 2 } ] '),
    ("form feed", "\f1"),
    ("vertical tab", "\v1"),
    ("no-break space", "\u00a01"),
    ("BOM", "\ufeff{}"),
    ("line separator after", "1\u2028"),
    # literals
    ("true", "true"),
    ("false", "false"),
    ("null", "null"),
    ("literals", "[true,false,null]"),
    ("True", "True"),
    ("nul", "nul"),
    ("truex", "truex"),
    ("tru", "tru"),
    # containers, key order, duplicate keys
    ("empty list", "[]"),
    ("empty dict", "{}"),
    ("nested empty", "[[], {}, [[]], {\"a\": {}}]"),
    ("nested", '[1, [2, [3, [4]]]]'),
    ("key order", '{"b": 1, "a": 2, "c": {"z": 1, "y": 2}}'),
    ("duplicate key", '{"a": 1, "b": 2, "a": 3}'),
    ("duplicate key thrice", '{"a": 1, "a": 2, "a": 3}'),
    ("duplicate key after escape", r'{"\u0061": 1, "b": 2, "a": 3}'),
    ("duplicate key in a large dict", "{" + ", ".join('"k%d": %d' % (i, i) for i in range(14)) + ', "k3": "again", "k13": null}'),
    ("large dict", "{" + ", ".join('"k%d": %d' % (i, i) for i in range(40)) + "}"),
    ("empty key", '{"": 1}'),
    ("unicode key", '{"clé": "valeur", "😀": 1}'),
    ("chat request", '{"messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello!", "tool_calls": [{"type": "function", "function": {"name": "f", "arguments": {"x": 1.5}}}]}], "tools": null, "add_generation_prompt": true}'),
    ("deep", "[" * 200 + "]" * 200),
    ("list of many", "[" + ",".join(str(i) for i in range(300)) + "]"),
    # syntax errors
    ("empty input", ""),
    ("only space", "   "),
    ("list trailing comma", "[1,]"),
    ("dict trailing comma", '{"a": 1,}'),
    ("list missing comma", "[1 2]"),
    ("dict missing colon", '{"a" 1}'),
    ("dict missing comma", '{"a": 1 "b": 2}'),
    ("dict number key", "{1: 2}"),
    ("dict key without value", '{"a"}'),
    ("dict key and colon only", '{"a":}'),
    ("list leading comma", "[,1]"),
    ("list double comma", "[1,,2]"),
    ("dict comma only", "{,}"),
    ("unclosed list", "[1, 2"),
    ("unclosed dict", '{"a": 1'),
    ("unclosed nested", '{"messages": [{"role": "user", "content": "hi'),
    ("extra close bracket", "[1]]"),
    ("extra close brace", "{}}"),
    ("close bracket", "]"),
    ("close brace", "}"),
    ("comma", ","),
    ("two values", "1 2"),
    ("two dicts", "{} {}"),
    ("mismatched brackets", "[1}"),
    ("mismatched braces", '{"a": 1]'),
    ("comment", "[1] // no"),
]


def record(text):
    try:
        return {"repr": repr(json.loads(text))}
    except Exception as e:  # the type and message of what json.loads raises
        return {"error": "%s: %s" % (type(e).__name__, e)}


def main():
    cases = [dict(name=name, json=text, **record(text)) for name, text in INPUTS]
    with open("cases.json", "w", encoding="utf-8") as f:
        json.dump(cases, f, ensure_ascii=False, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
