#!/usr/bin/env python3
"""Writes requests.jsonl: the project's own requests for the live llama.cpp comparison
(generated/llama_live_test.go): a few written by hand for the rules of the llama_server profile,
then conversations from a random generator with a fixed seed (mixed roles, tool calls and their
results, typed content, reasoning, Unicode, long histories, prefills, thinking switches).

    python3 testdata/llama_server/live/gen.py > testdata/llama_server/live/requests.jsonl

The output is checked in; the seed makes it the same on every run. Numbers are ints or floats
with a fraction: the llama.cpp binding reads requests as JavaScript, whose numbers drop the ".0"
of an integral float (llama-server itself keeps it, as the profile does).

The requests were written, before the profile rendered with llama.cpp's engine semantics, to
stay clear of where that engine deviates from Jinja2: no empty message
list (llama.cpp's lenient undefined), no null where a template prints it (llama.cpp prints ""),
no Unicode whitespace at the ends of a text (llama.cpp's trim strips ASCII whitespace only).
"""
import json
import random

SEED = 20261130

HAND = [
    {"id": "hand_developer", "messages": [{"role": "developer", "content": "Answer in French."},
                                          {"role": "user", "content": "Hello!"}]},
    {"id": "hand_system_typed", "messages": [
        {"role": "system", "content": [{"type": "text", "text": "Be brief."}, {"type": "text", "text": "Be kind."}]},
        {"role": "user", "content": [{"type": "text", "text": "Part one."}, {"type": "text", "text": "Part two."}]}]},
    {"id": "hand_null_content", "messages": [
        {"role": "user", "content": "Weather?"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Zürich\"}"}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "{\"temp\": 21.5}"}],
     "tools": [{"type": "function", "function": {"name": "get_weather", "description": "Weather in a city",
                                                 "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                                                                "required": ["city"]}}}]},
    {"id": "hand_prefill", "messages": [{"role": "user", "content": "Write a haiku."},
                                        {"role": "assistant", "content": "Autumn moonlight"}],
     "chat_template_kwargs": {"enable_thinking": False}},
    {"id": "hand_prefill_thinking", "messages": [{"role": "user", "content": "Write a haiku."},
                                                 {"role": "assistant", "content": "Autumn"}],
     "chat_template_kwargs": {"enable_thinking": True}},
    {"id": "hand_two_assistants", "messages": [{"role": "user", "content": "x"}, {"role": "assistant", "content": "a"},
                                               {"role": "assistant", "content": "b"}]},
    {"id": "hand_thinking_string", "messages": [{"role": "user", "content": "x"}],
     "chat_template_kwargs": {"enable_thinking": "yes"}},
    {"id": "hand_reasoning_empty", "messages": [
        {"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello!", "reasoning_content": ""},
        {"role": "user", "content": "Again"}]},
    {"id": "hand_object_args_order", "messages": [
        {"role": "user", "content": "Book it"},
        {"role": "assistant", "content": "", "tool_calls": [
            {"type": "function", "id": "c9", "function": {"name": "book", "arguments": {"z": 1, "a": [1.5, 2.5], "m": {"y": "v", "x": True}}}}]},
        {"role": "tool", "tool_call_id": "c9", "content": "ok"}, {"role": "user", "content": "Thanks"}]},
    {"id": "hand_add_bos", "messages": [{"role": "system", "content": "S"}, {"role": "user", "content": "U"}],
     "bos": "<|begin_of_text|>", "eos": "<|eot_id|>", "add_bos": True},
    {"id": "hand_no_generation_prompt", "add_generation_prompt": False, "messages": [
        {"role": "user", "content": "Q"}, {"role": "assistant", "content": "A"}, {"role": "user", "content": "Q2"}]},
    {"id": "hand_extra_keys", "messages": [{"role": "user", "content": "Hi", "name": "bob", "metadata": {"k": 1}}]},
    {"id": "hand_kwargs", "messages": [{"role": "user", "content": "Hi"}],
     "chat_template_kwargs": {"custom_instructions": "Speak like a pirate.", "reasoning_effort": "high"}},
    {"id": "hand_later_system", "messages": [
        {"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"},
        {"role": "system", "content": "Now be formal."}, {"role": "user", "content": "Greetings"}]},
    # JSON that Python's json.loads reads and llama-server's nlohmann::json does not: NaN,
    # infinities, numbers beyond a double's range, in the request or in the JSON text of a
    # tool call's arguments or result; and a BOM, which nlohmann skips
    {"id": "hand_request_nan", "messages": [{"role": "user", "content": "Hi"}], "temperature": float("nan")},
    {"id": "hand_request_big_int", "messages": [{"role": "user", "content": "Hi"}], "seed": 10 ** 400},
    {"id": "hand_arguments_nonfinite", "messages": [
        {"role": "user", "content": "Weather?"},
        {"role": "assistant", "content": "", "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\", \"t\": NaN}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "{\"temp\": Infinity}"}, {"role": "user", "content": "Thanks"}]},
    {"id": "hand_arguments_overflow", "messages": [
        {"role": "user", "content": "Weather?"},
        {"role": "assistant", "content": "", "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": "[1e400]"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "-1e400"}, {"role": "user", "content": "Thanks"}]},
    {"id": "hand_arguments_bom", "messages": [
        {"role": "user", "content": "Weather?"},
        {"role": "assistant", "content": "", "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": "\ufeff{\"city\": \"Paris\"}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "\ufeff{\"temp\": 12}"}, {"role": "user", "content": "Thanks"}]},
]

WORDS = ["hello", "world", "naïve", "café", "Zürich", "東京", "データ", "😀", "🚀", "مرحبا", "שלום", "\"quoted\"", "'single'",
         "<tag>", "&amp;", "back\\slash", "tab\there", "new\nline", "  spaced  ", "{{ x }}", "{% if %}", "<|im_end|>", "[INST]",
         "3.14", "42", "null", "true", "ß", "İstanbul", "ǅ", "nb\u00a0sp", "end."]

TOOLS = [
    {"type": "function", "function": {"name": "get_weather", "description": "Get the weather (°C) in a city",
                                      "parameters": {"type": "object", "properties": {
                                          "city": {"type": "string", "description": "City name"},
                                          "unit": {"type": "string", "enum": ["c", "f"]}}, "required": ["city"]}}},
    {"type": "function", "function": {"name": "search_docs", "description": "Search the documentation",
                                      "parameters": {"type": "object", "properties": {
                                          "query": {"type": "string"}, "limit": {"type": "integer", "default": 5},
                                          "filters": {"type": "object", "properties": {"lang": {"type": "string"}}}}}}},
    {"type": "function", "function": {"name": "convert", "description": "Convert an amount",
                                      "parameters": {"type": "object", "properties": {
                                          "amount": {"type": "number"}, "from": {"type": "string"}, "to": {"type": "string"}},
                                          "required": ["amount", "from", "to"]}}},
]


def text(r, lo=1, hi=12):
    return " ".join(r.choice(WORDS) for _ in range(r.randint(lo, hi)))


def content(r):
    if r.random() < 0.12:
        return [{"type": "text", "text": text(r)} for _ in range(r.randint(1, 3))]
    return text(r)


def arguments(r, name):
    args = {"get_weather": {"city": r.choice(["Paris", "Zürich", "東京"]), "unit": r.choice(["c", "f"])},
            "search_docs": {"query": text(r, 1, 4), "limit": r.randint(1, 9), "filters": {"lang": r.choice(["en", "fr"])}},
            "convert": {"amount": r.choice([1, 2.5, 100.25, 1e-3]), "from": "EUR", "to": "JPY"}}[name]
    return json.dumps(args, ensure_ascii=r.random() < 0.5) if r.random() < 0.6 else args


def conversation(r, i):
    tools = r.sample(TOOLS, r.randint(1, 3)) if r.random() < 0.45 else []
    msgs = []
    first = r.random()
    if first < 0.35:
        msgs.append({"role": "system", "content": content(r)})
    elif first < 0.45:
        msgs.append({"role": "developer", "content": text(r)})
    turns = r.randint(1, 14 if r.random() < 0.2 else 4)
    call_n = 0
    for t in range(turns):
        msgs.append({"role": "user", "content": content(r)})
        if r.random() < 0.08:
            msgs.append({"role": "user", "content": text(r)})
        if r.random() < 0.05:
            msgs.append({"role": "system", "content": text(r)})
            msgs.append({"role": "user", "content": text(r)})
        if t == turns - 1 and r.random() < 0.7:
            break  # the conversation ends with the user
        a = {"role": "assistant", "content": text(r)}
        if r.random() < 0.25:
            a["reasoning_content"] = text(r) if r.random() < 0.8 else ""
        if tools and r.random() < 0.5:
            calls = []
            for _ in range(r.randint(1, 3 if r.random() < 0.4 else 1)):
                call_n += 1
                name = r.choice(tools)["function"]["name"]
                calls.append({"id": "call_%d_%d" % (i, call_n), "type": "function",
                              "function": {"name": name, "arguments": arguments(r, name)}})
            a["tool_calls"] = calls
            a["content"] = r.choice(["", None, text(r, 1, 3)])
            msgs.append(a)
            for c in calls:
                msgs.append({"role": "tool", "tool_call_id": c["id"],
                             "content": r.choice([json.dumps({"result": text(r, 1, 3)}, ensure_ascii=False), text(r, 1, 5)])})
            msgs.append({"role": "assistant", "content": text(r)})
        else:
            msgs.append(a)
    req = {"id": "random_%02d" % i, "messages": msgs}
    if tools:
        req["tools"] = tools
    if r.random() < 0.25:
        req["chat_template_kwargs"] = {"enable_thinking": r.random() < 0.5}
    if r.random() < 0.1:
        req["add_generation_prompt"] = False
    return req


def main():
    r = random.Random(SEED)
    reqs = list(HAND) + [conversation(r, i) for i in range(48)]
    for q in reqs:
        print(json.dumps(q, ensure_ascii=False))


if __name__ == "__main__":
    main()
