"""Writes cases.json: what Jinja2's filters give for random values and arguments.

Each case is {"f": the filter, "v": the value, "a": the positional arguments, "k": the
keyword arguments, "out": what {{ v | f(*a, **k) }} renders} or, when Jinja2 raises,
"err" and "msg" (the exception's name and message) instead of "out", for random values,
and then for lists of messages through the filters templates apply to them (map, select,
selectattr, groupby...). The filters that return a generator are followed by | list. The environment is transformers' (a sandbox,
trim_blocks and lstrip_blocks; its own tojson is left out). filters_test.go checks
CallFilter against them. Run it here: python3 record.py
"""
import json
import random

from jinja2.sandbox import ImmutableSandboxedEnvironment

random.seed(1)
env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True)
strs = ["", "hello world", "Hello World foo bar baz qux", "a" * 30, "one two three four five six seven eight nine ten eleven", "<b>x</b> & 'y'", "visit https://example.com/a-b?c=d or www.foo.org.", "mail me@x.org now", "line1\nline2\n\nline4", "  padded  ", "ǅungla ǆ", "they're bill's", "héllo wörld", "x" * 5 + " " + "y" * 90, "a-b c_d e.f", "1234.5"]
nums = [0, 1, -1, 42, 2.5, -2.5, 3.14159, 1e10, 1023, 1024, 1000000, 123456789, -0.0, 0.5, 1.5, 15.55]
lists = [[], [3, 1, 2], ["b", "A", "c", "a"], ["x"], [1, "1", 2], [{"n": "b", "v": 2}, {"n": "a", "v": 1}, {"n": "C", "v": 3}], [1.5, 2, -3], ["ab", "Ab", "aB"]]
dicts = [{}, {"b": 1, "a": 2, "C": 3}, {"x": "1", "y": None}]
def R(*xs): return random.choice(xs)
ints = [None, 0, 1, 2, 3, 5, 10, 20, -1]
gens = {
 "truncate": lambda: (R(*strs), [R(5, 10, 20, 255)] + R([], [R(True, False)], [R(True, False), R("...", "", ">")], [R(True, False), R("...", ""), R(0, 5, None)]), {}),
 "center": lambda: (R(*strs), R([], [R(0, 5, 40, 81)]), {}),
 "indent": lambda: (R(*strs), R([], [R(2, 4, "> ", "")], [R(2, "-"), R(True, False)], [R(2, "-"), R(True, False), R(True, False)]), {}),
 "wordcount": lambda: (R(*strs), [], {}),
 "wordwrap": lambda: (R(*strs), R([], [R(5, 10, 20)], [R(5, 10), R(True, False)], [R(5, 10), R(True, False), R("\n", "<br>")], [R(5, 10), R(True, False), None, R(True, False)]), {}),
 "filesizeformat": lambda: (R(*nums, "1000", "12"), R([], [R(True, False)]), {}),
 "round": lambda: (R(*nums), R([], [R(0, 1, 2, -1)], [R(0, 1, 2), R("common", "ceil", "floor")]), {}),
 "int": lambda: (R(*nums, "42", " 7 ", "0x1A", "1e3", "3.7", "abc", "0b101", "1_000", "-12", "٣"), R([], [R(0, -1)], [R(0, -1), R(10, 16, 2, 0)]), {}),
 "float": lambda: (R(*nums, "42", " 7.5 ", "1e3", "abc", "inf", "-nan", "1_000.5", "٣.٥"), R([], [R(0.0, -1.5)]), {}),
 "title": lambda: (R(*strs), [], {}),
 "capitalize": lambda: (R(*strs), [], {}),
 "trim": lambda: (R(*strs), R([], [R(None, " ", "ad", "x")]), {}),
 "replace": lambda: (R(*strs), [R("o", "l", "", " "), R("0", "", "__")] + R([], [R(0, 1, 2, -1)]), {}),
 "urlize": lambda: (R(*strs), R([], [R(None, 5, 10)], [R(None, 5), R(True, False)], [R(None, 5), R(True, False), R(None, "_blank")]), {}),
 "urlencode": lambda: (R(*strs, *dicts, [("a", "b c"), ("d", "é")]), [], {}),
 "xmlattr": lambda: (R({"class": "x y", "id": 5, "data": None, "t": "<&>"}, {}), R([], [R(True, False)]), {}),
 "sort": lambda: (R(*lists, "cab"), R([], [R(True, False)], [R(True, False), R(True, False)]), R({}, {"attribute": "n"}, {"attribute": "v"})),
 "unique": lambda: (R(*lists, "aAbB"), R([], [R(True, False)]), {}),
 "dictsort": lambda: (R(*dicts), R([], [R(True, False)], [R(True, False), R("key", "value")], [R(True, False), R("key", "value"), R(True, False)]), {}),
 "batch": lambda: (R(*lists), [R(1, 2, 3)] + R([], [R("x", None)]), {}),
 "slice": lambda: (R(*lists), [R(1, 2, 3)] + R([], [R("x", None)]), {}),
 "sum": lambda: (R([3, 1, 2], [1.5, 2, -3], [], [True, 2]), R([], [None, R(0, 10, 0.5)]), {}),
 "min": lambda: (R(*lists), R([], [R(True, False)]), R({}, {"attribute": "v"})),
 "max": lambda: (R(*lists), R([], [R(True, False)]), R({}, {"attribute": "v"})),
 "join": lambda: (R(*lists, "abc"), R([], [R("", ", ", "-")]), R({}, {"attribute": "n"})),
 "abs": lambda: (R(*nums), [], {}),
 "string": lambda: (R(*nums, *lists, *dicts, None, True), [], {}),
 "list": lambda: (R(*lists, "abc", *dicts), [], {}),
 "first": lambda: (R(*lists, "abc"), [], {}),
 "last": lambda: (R(*lists, "abc"), [], {}),
 "reverse": lambda: (R(*lists, "abc"), [], {}),
 "length": lambda: (R(*lists, "abc", *dicts), [], {}),
 "pprint": lambda: (R(*nums, *lists, *dicts, *strs[:6], None), [], {}),
 "escape": lambda: (R(*strs, *nums), [], {}),
 "forceescape": lambda: (R(*strs), [], {}),
 "striptags": lambda: (R(*strs), [], {}),
 "format": lambda: (R("%s-%s", "%d", "%.2f|%5s", "%(a)s"), R([1, "x"], [3.14159, "ab"], [7]), {}),
 "lower": lambda: (R(*strs), [], {}), "upper": lambda: (R(*strs), [], {}),
 "default": lambda: (R(None, "", 0, "x", []), R([], ["dflt"], ["dflt", R(True, False)]), {}),
}
cases = []
def record(name, v, a, k, tail):
    try:
        out = env.from_string("{{ v | " + name + "(*a, **k)" + tail + " }}").render(v=v, a=a, k=k)
        cases.append({"f": name, "v": v, "a": a, "k": k, "out": out})
    except Exception as e:
        cases.append({"f": name, "v": v, "a": a, "k": k, "err": type(e).__name__, "msg": str(e)})
for _ in range(3000):
    name = random.choice(list(gens))
    v, a, k = gens[name]()
    record(name, v, a, k, " | list" if name in ("batch", "slice", "unique", "reverse") else "")
# the filters chat templates apply to lists of messages (their own random sequence)
rnd = random.Random(2)
messages = [{"role": "system", "content": "s"}, {"role": "user", "content": "u1"},
            {"role": "assistant", "content": None, "tool_calls": [1]}, {"role": "user", "content": "u2", "name": "bob"},
            {"role": "tool", "content": "r"}, {"content": "nr"}, {"role": "User", "content": ""}]
message_lists = ([[rnd.choice(messages) for _ in range(rnd.randint(0, 5))] for _ in range(30)]
                 + [[1, 2, 3, 4], ["a", "B", "c"], [0, "", None, "x", [], [1]]])
attrs = ["role", "content", "name", "tool_calls", "missing", "role.x"]
tests = [None, "defined", "undefined", "none", "equalto", "eq", "ne", "in", "string", "odd", "even", "true", "false",
         "lower", "upper", "nosuch"]
with_arg = ("equalto", "eq", "ne", "in")
test_args = ["user", "system", "User", None, 1, ["user", "tool"], ""]
for _ in range(1500):
    v = rnd.choice(message_lists)
    name = rnd.choice(["map", "select", "reject", "selectattr", "rejectattr", "groupby", "sum", "min", "max", "unique",
                       "join", "first", "last"])
    a, k = [], {}
    if name == "map":
        a, k = rnd.choice([([], {"attribute": rnd.choice(attrs)}), ([], {"attribute": rnd.choice(attrs), "default": "D"}),
                           (["upper"], {}), (["string"], {}), (["default", "X"], {}), (["nosuch"], {})])
    elif name in ("select", "reject", "selectattr", "rejectattr"):
        t = rnd.choice(tests)
        a = ([rnd.choice(attrs)] if name.endswith("attr") else []) + (
            [] if t is None else [t, rnd.choice(test_args)] if t in with_arg else [t])
    elif name == "groupby":
        a = [rnd.choice(attrs)]
        if rnd.random() < 0.3:
            k["default"] = "D"
        if rnd.random() < 0.3:
            k["case_sensitive"] = rnd.choice([True, False])
    elif name in ("sum", "min", "max", "unique", "join") and rnd.random() < 0.6:
        k = {"attribute": rnd.choice(attrs)}
    record(name, v, a, k, " | list" if name in ("map", "select", "reject", "selectattr", "rejectattr", "unique") else "")
# misuse: the filters given other numbers of arguments, or keyword arguments they lack
misuse = random.Random(3)
for _ in range(800):
    name = misuse.choice([n for n in gens if n != "format"] + ["attr", "groupby", "items", "count", "e", "d"])
    v = gens[name]()[0] if name in gens else misuse.choice([[1, 2], "abc", {"a": 1}])
    a = [misuse.choice([1, "x", None, True]) for _ in range(misuse.choice([0, 1, 2, 3, 5, 7]))]
    k = misuse.choice([{}, {}, {"zz": 1}, {"value": 1}, {"attribute": "a"}, {"width": 2}])
    record(name, v, a, k, " | list" if name in ("batch", "slice", "unique", "reverse") else "")

with open("cases.json", "w", encoding="utf-8") as f:
    f.write("[\n" + ",\n".join(json.dumps(c, ensure_ascii=False) for c in cases) + "\n]\n")
