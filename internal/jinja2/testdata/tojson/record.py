"""Writes cases.json: what transformers' tojson filter gives for random values and
keyword arguments (indent, ensure_ascii, sort_keys, separators).

Each case is {"v": the value, "k": the keyword arguments, "out": the JSON text} or,
when Python raises, "err" and "msg" instead of "out". tojson_test.go checks the tojson
filter against them. Run it here: python3 record.py
"""
import json
import random

random.seed(1)


def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
    # transformers' (../shared/oracle/tools/hf_render.py)
    return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)


atoms = [0, -1, 2**63, 10**30, 1.5, -0.0, 1e16, 1e-7, 123456789.123, 1e300, True, False, None, "", "a\"b\\c", "é\u2028\U0001f600", "\x00\x1f\x7f", "</script>", "ü"]
def rv(d=0):
    r = random.random()
    if d > 2 or r < 0.5: return random.choice(atoms)
    if r < 0.75: return [rv(d+1) for _ in range(random.randint(0, 3))]
    return {random.choice(["b", "a", "C", "é", "1", ""]): rv(d+1) for _ in range(random.randint(0, 3))}
cases = []
for _ in range(2000):
    v = rv()
    kw = {}
    if random.random() < 0.5: kw["indent"] = random.choice([None, 0, 2, 4, "\t", "ab", -1, True])
    if random.random() < 0.3: kw["ensure_ascii"] = random.choice([True, False])
    if random.random() < 0.3: kw["sort_keys"] = random.choice([True, False])
    if random.random() < 0.3: kw["separators"] = random.choice([[",", ":"], [", ", ": "], ["|", "="]])
    try:
        out = tojson(v, **kw)
        cases.append({"v": v, "k": kw, "out": out})
    except Exception as e:
        cases.append({"v": v, "k": kw, "err": type(e).__name__, "msg": str(e)})
# separators that are no pair of strs, which json.dumps fails on where it uses them
misuse = random.Random(2)
for _ in range(600):
    v = rv()
    kw = {"separators": misuse.choice([[","], [",", ":", ";"], [1, 2], [",", 2], [1, ":"], [None, None], [",", None], 5, "ab", []])}
    if misuse.random() < 0.5: kw["indent"] = misuse.choice([None, 2])
    try:
        out = tojson(v, **kw)
        cases.append({"v": v, "k": kw, "out": out})
    except Exception as e:
        cases.append({"v": v, "k": kw, "err": type(e).__name__, "msg": str(e)})
with open("cases.json", "w", encoding="utf-8") as f:
    f.write("[\n" + ",\n".join(json.dumps(c, ensure_ascii=False) for c in cases) + "\n]\n")
