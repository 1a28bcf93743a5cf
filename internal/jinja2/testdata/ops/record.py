"""Writes cases.json: Python's answers for binary operators and for repr and str.

"ops" are {"op", "a", "b", "out": repr(a op b)} or, when Python raises, "err" and "msg"
(the exception's name and message) instead of "out", for random operands; "slices" are
{"s", "slice": [start, stop, step], "out": repr(s[start:stop:step])} or the error, for
random bounds (Jinja2 compiles a slice to Python's own subscript); "reprs" are
{"v", "repr", "str"} of chosen values. A value is {"v": JSON value} or {"f": repr of a
float}. ops_test.go checks Add, Sub... and Value.Repr and String against them. Run it
here: python3 record.py
"""
import json
import math
import random

random.seed(1)
vals = [0, 1, -1, 2, 3, -7, 7, 10, 2**62, 2**63, -2**63, 10**20, 0.0, -0.0, 0.5, -2.5, 3.0, 1e308, -1e-300, 7.5, 1e16,
        True, False, None, "", "a", "ab", "Ab", "10", [], [1], [1, 2], ["a"], {}, {"a": 1}, [1, [2]], "é"]
ops = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b, "/": lambda a, b: a / b,
       "//": lambda a, b: a // b, "%": lambda a, b: a % b, "<": lambda a, b: a < b, "<=": lambda a, b: a <= b,
       ">": lambda a, b: a > b, ">=": lambda a, b: a >= b, "==": lambda a, b: a == b, "in": lambda a, b: a in b}
def enc(v):
    if isinstance(v, float): return {"f": repr(v)}
    return {"v": v}
cases = []
for _ in range(2500):
    op = random.choice(list(ops)); a = random.choice(vals); b = random.choice(vals)
    if op == "*" and isinstance(b, int) and not isinstance(b, bool) and abs(b) > 100 and isinstance(a, (str, list)): continue
    if op == "*" and isinstance(a, int) and not isinstance(a, bool) and abs(a) > 100 and isinstance(b, (str, list)): continue
    try:
        r = ops[op](a, b)
        cases.append({"op": op, "a": enc(a), "b": enc(b), "out": repr(r)})
    except Exception as e:
        cases.append({"op": op, "a": enc(a), "b": enc(b), "err": type(e).__name__, "msg": str(e)})
# slices
seqs = ["", "a", "abcdef", "h\u00e9llo w\u00f6rld", "\U0001f642ab\U0001f642", [], [1], [1, 2, 3, 4, 5], ["a", "b"], {"k": 1}, 5]
bounds = [None, 0, 1, 2, 3, -1, -2, -3, 5, 10, -10, 2**64, -2**64, 1.5, "a", True]
slices = []
for _ in range(1500):
    seq, bound = random.choice(seqs), [random.choice(bounds), random.choice(bounds), random.choice(bounds + [None] * 5)]
    try:
        slices.append({"s": seq, "slice": bound, "out": repr(seq[bound[0]:bound[1]:bound[2]])})
    except Exception as e:
        slices.append({"s": seq, "slice": bound, "err": type(e).__name__, "msg": str(e)})

# repr and str of values
reprs = []
samples = ["it's", 'say "hi"', "both ' and \"", "tab\tnl\nnul\x00del\x7f", "\u00e9\u200b\u2028\U0001f600\ud7ff", "\\", "\x85\xa0\xad",
           [1.5, None, True, "x"], {"k": [1, {"z": None}]}, 1e16, 1e-5, 123456789.0, 0.1 + 0.2, 1e22, -0.0, float("inf"), 2**70, [["a"]], {"a'b": "c\"d"}]
for s in samples:
    reprs.append({"v": enc(s) if not isinstance(s, float) or math.isfinite(s) else {"f": repr(s)}, "repr": repr(s), "str": str(s)})
with open("cases.json", "w", encoding="utf-8") as f:
    f.write('{"ops": [\n' + ",\n".join(json.dumps(c, ensure_ascii=False) for c in cases) + '\n],\n')
    f.write('"slices": [\n' + ",\n".join(json.dumps(c, ensure_ascii=False) for c in slices) + '\n],\n')
    f.write('"reprs": [\n' + ",\n".join(json.dumps(c, ensure_ascii=False) for c in reprs) + "\n]}\n")
