"""Writes cases.json: what Jinja2's tests, and the methods of list, dict, int and float,
give for random values and arguments.

"tests" are {"t": the test, "v": the value, "a": its arguments, "out": what
{{ v is t(*a) }} renders}; "methods" are {"m", "v", "a", "out": what {{ v.m(*a) }}
renders}; "ranges" are {"a", "out": what {{ range(*a)|list }} renders, or its length
"len" for a long one}; when Jinja2 raises, "err" and "msg" (the exception's name and message) are
there instead of "out". A value is {"v": JSON value} or {"f": repr of a float}. The
environment is transformers' (a sandbox). tests_test.go checks CallTest and CallMethod
against them. Run it here: python3 record.py
"""
import json
import math
import random

from jinja2.sandbox import ImmutableSandboxedEnvironment

random.seed(1)
env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True)
vals = [0, 1, -3, 4, 7, 2**70, 0.0, 1.5, -2.0, 4.0, True, False, None, "", "abc", "ABC", "aBc", "1", "é", [], [1, 2], {}, {"a": 1}]
tests = {"boolean": 0, "defined": 0, "divisibleby": 1, "eq": 1, "escaped": 0, "even": 0, "false": 0, "float": 0, "ge": 1, "gt": 1,
         "in": 1, "integer": 0, "iterable": 0, "le": 1, "lower": 0, "lt": 1, "mapping": 0, "ne": 1, "none": 0, "number": 0, "odd": 0,
         "sequence": 0, "string": 0, "true": 0, "undefined": 0, "upper": 0, "filter": 0, "test": 0}
def enc(v):
    return {"f": repr(v)} if isinstance(v, float) else {"v": v}


cases = []
for _ in range(2000):
    name = random.choice(list(tests)); v = random.choice(vals + ["upper", "lower", "round", "nope"])
    a = [random.choice(vals)] * tests[name]
    try:
        out = env.from_string("{{ v is " + name + "(*a) }}").render(v=v, a=a)
        cases.append({"t": name, "v": enc(v), "a": a, "out": out})
    except Exception as e:
        cases.append({"t": name, "v": enc(v), "a": a, "err": type(e).__name__, "msg": str(e)})
# methods of list, dict, int and float
mvals = [[3, 1, 2], ["a", "b", "a"], [], {"a": 1, "b": None}, {}, 5, -6, 0, 2**70, 1.5, -0.0, 2.0, float("inf")]
methods = {list: [("index", 1), ("index", 2), ("count", 1), ("copy", 0)], dict: [("get", 1), ("get", 2), ("keys", 0), ("values", 0), ("items", 0), ("copy", 0)],
           int: [("bit_length", 0), ("bit_count", 0), ("conjugate", 0), ("as_integer_ratio", 0)], float: [("is_integer", 0), ("hex", 0), ("as_integer_ratio", 0), ("conjugate", 0)]}
mcases = []
for _ in range(1000):
    v = random.choice(mvals); m, n = random.choice(methods[type(v)])
    a = [random.choice([1, "a", "b", 3, None, 0]) for _ in range(n)]
    try:
        out = env.from_string("{{ v." + m + "(*a) }}").render(v=v, a=a)
        mcases.append({"m": m, "v": enc(v), "a": a, "out": out})
    except Exception as e:
        mcases.append({"m": m, "v": enc(v), "a": a, "err": type(e).__name__, "msg": str(e)})
# the range global (the sandbox's safe_range)
rvals = [0, 1, 2, 3, -1, -2, 5, 10, -10, 100000, 100001, -100000, 2**63, 1.5, "3", None, True]
ranges = []
for _ in range(1000):
    a = [random.choice(rvals) for _ in range(random.randint(0, 4))]
    try:
        out = env.from_string("{{ range(*a)|list }}").render(a=a)
        if len(out) > 300:
            ranges.append({"a": a, "len": env.from_string("{{ range(*a)|length }}").render(a=a)})
        else:
            ranges.append({"a": a, "out": out})
    except Exception as e:
        ranges.append({"a": a, "err": type(e).__name__, "msg": str(e)})

# misuse: tests and methods given other numbers of arguments
misuse = random.Random(2)
mtests = list(tests) + ["sameas", "callable", "equalto", "greaterthan"]
for _ in range(600):
    name = misuse.choice(mtests); v = misuse.choice(vals)
    a = [misuse.choice(vals) for _ in range(misuse.choice([0, 1, 2, 3]))]
    try:
        out = env.from_string("{{ v is " + name + "(*a) }}").render(v=v, a=a)
        cases.append({"t": name, "v": enc(v), "a": a, "out": out})
    except Exception as e:
        cases.append({"t": name, "v": enc(v), "a": a, "err": type(e).__name__, "msg": str(e)})
for _ in range(400):
    v = misuse.choice(mvals); m, n = misuse.choice(methods[type(v)])
    a = [misuse.choice([1, "a", None]) for _ in range(misuse.choice([0, 1, 2, 3, 4]))]
    try:
        out = env.from_string("{{ v." + m + "(*a) }}").render(v=v, a=a)
        mcases.append({"m": m, "v": enc(v), "a": a, "out": out})
    except Exception as e:
        mcases.append({"m": m, "v": enc(v), "a": a, "err": type(e).__name__, "msg": str(e)})

with open("cases.json", "w", encoding="utf-8") as f:
    f.write('{"tests": [\n' + ",\n".join(json.dumps(c, ensure_ascii=False) for c in cases) + '\n],\n')
    f.write('"methods": [\n' + ",\n".join(json.dumps(c, ensure_ascii=False) for c in mcases) + '\n],\n')
    f.write('"ranges": [\n' + ",\n".join(json.dumps(c, ensure_ascii=False) for c in ranges) + "\n]}\n")
