"""Writes cases.json: Python's str % value and '{:spec}'.format(value) for random specs.

Each case is {"kind": "percent" or "format", "fmt": ..., "val": ..., "out": ...} or, when
Python raises, "err" and "msg", the exception's name and message, instead of "out". A value is {"v": JSON value}
(an int, bool, str or null) or {"f": repr of a float} ("nan", "inf" and "-inf" too).
format_test.go checks formatPercent and str.format against them. Run it here:
python3 record.py
"""
import json
import math
import random

random.seed(3)
values = [0, 1, -1, 7, 42, -42, 255, 1000000, -1234567, 2**31, 2**53 + 1, 2**63, -2**63 - 5, 10**20,
          0.0, -0.0, 1.0, -1.5, 0.5, 1.5, 2.5, 3.14159, 1 / 3, 2 / 3, 1e16, 1.0e-7, 123456789.125, 1e300,
          5e-324, 9.999, 0.05, 0.15, 1234.5678, float("nan"), float("inf"), float("-inf"),
          True, False, None, "abc", "", "h\u00e9llo", "12"]


def encode(v):
    if isinstance(v, float):
        return {"f": "nan" if math.isnan(v) else repr(v)}
    return {"v": v}


def answer(f):
    try:
        return {"out": f()}
    except Exception as e:
        return {"err": type(e).__name__, "msg": str(e)}


cases = []
for spec in ["%\u00e9", "ab%5\u00e9", "%\u00ff", "%5%", "%.2%", "%-#%", "x%\u2028", "%~", "%\x7f"]:
    cases.append({"kind": "percent", "fmt": spec, "val": encode(1), **answer(lambda: spec % (1,))})
for _ in range(3000):
    v = random.choice(values)
    if random.random() < 0.5:
        spec = ("%" + "".join(random.sample(["-", "+", " ", "#", "0"], random.randint(0, 2)))
                + random.choice(["", "", "5", "12", "1"]) + random.choice(["", "", ".0", ".2", ".10", "."])
                + random.choice("sdifeEgGxXocra%"))
        cases.append({"kind": "percent", "fmt": spec, "val": encode(v), **answer(lambda: spec % (v,))})
    else:
        fill = random.choice(["", "", "*", "0", "x"]) if random.random() < 0.3 else ""
        spec = (fill + random.choice(["<", ">", "^", "="])) if fill else random.choice(["", "", "<", ">", "^", "="])
        spec += (random.choice(["", "", "+", "-", " "]) + random.choice(["", "", "#"]) + random.choice(["", "", "0"])
                 + random.choice(["", "", "5", "12"]) + random.choice(["", "", ",", "_"])
                 + random.choice(["", "", ".0", ".2", ".10"])
                 + random.choice(["", "", "b", "c", "d", "e", "E", "f", "F", "g", "G", "n", "o", "s", "x", "X", "%"]))
        f = "{:" + spec + "}"
        cases.append({"kind": "format", "fmt": f, "val": encode(v), **answer(lambda: f.format(v))})
with open("cases.json", "w", encoding="utf-8") as out:
    out.write("[\n" + ",\n".join(json.dumps(c, ensure_ascii=False) for c in cases) + "\n]\n")
