"""Writes cases.json: what str.format gives in Jinja2's sandbox (its SandboxedFormatter,
a string.Formatter) for random format strings, arguments and keyword arguments.

Each case is {"f": the format string, "a": the arguments, "k": the keyword arguments,
"out": what {{ f.format(*a, **k) }} renders} or, when Jinja2 raises, "err" and "msg"
(the exception's name and message) instead of "out". strformat_test.go checks
CallMethod(f, "format") against them. Run it here: python3 record.py
"""
import json
import random

from jinja2.sandbox import ImmutableSandboxedEnvironment

random.seed(1)
env = ImmutableSandboxedEnvironment()
pieces = ["{}", "{0}", "{1}", "{2}", "{x}", "{y}", "{0[0]}", "{0[k]}", "{x[k]}", "{x.k}", "{0!r}", "{1!s}", "{x!a}", "{0:>5}", "{1:{x}}", "{:.{1}}",
          "{{", "}}", "{", "}", "text", " ", "é", "{0:}", "{!r}", "{0!z}", "{0:d}", "{ 0}", "{0 }", "{-1}", "{00}", "{0.}", "{0[}", "{0]}", "{x:!<3}", "{0:{1}{2}}"]
argsets = [[], [1], ["ab", 3], [[10, 20], 2, "x"], [{"k": "v"}, 1.5, None]]
kwsets = [{}, {"x": 4}, {"x": {"k": "K"}, "y": "Y"}, {"x": "é"}]
cases = []
for _ in range(2500):
    f = "".join(random.choice(pieces) for _ in range(random.randint(1, 4)))
    a, k = random.choice(argsets), random.choice(kwsets)
    try:
        out = env.from_string("{{ f.format(*a, **k) }}").render(f=f, a=a, k=k)
        cases.append({"f": f, "a": a, "k": k, "out": out})
    except Exception as e:
        cases.append({"f": f, "a": a, "k": k, "err": type(e).__name__, "msg": str(e)})
with open("cases.json", "w", encoding="utf-8") as f:
    f.write("[\n" + ",\n".join(json.dumps(c, ensure_ascii=False) for c in cases) + "\n]\n")
