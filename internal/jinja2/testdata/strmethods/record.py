"""Writes cases.json: Python's answers for str methods called with random arguments, and
for encode.

Each case is {"s": the str, "m": the method, "a": its arguments (a list among them is a
tuple for startswith and endswith, a list for join), "out": repr of the result} or, when
Python raises, "err" and "msg" (the exception's name and message) instead of "out".
strmethods_test.go checks CallMethod against them. Run it here: python3 record.py
"""
import json
import random

random.seed(1)
strs = ["", "a", "abc", "aXbXc", "  hi  ", "\t x \n", "hello world", "a,b,,c", "ß", "ﬁ", "ΣΑΣ", "x\u3000y\x1cz", "a\r\nb\nc\rd\x85e", "1234", "¹²³", "٣", "Ⅻ", "abcabcabc", "ab\tc\td", "_id1", "1x", "class", "é\u0301", "🙂x🙂", "\x00\x7f", "a  b   c", "xxhixx", "-12", "+3", "٠١"]
subs = ["", "a", "b", "X", "x", "ab", "bc", "abc", " ", ",", "\t", "hi", "🙂", "ß", "xx", "\n", "c"]
ints = [None, 0, 1, 2, 3, -1, -2, -100, 100, 5, 10, 20]
def rs(): return random.choice(strs + subs)
def rint(): return random.choice(ints)
def argsfor(m):
    if m in ("split", "rsplit"):
        return random.choice([[], [None], [rs()], [rs(), rint()], [None, rint()]])
    if m in ("strip", "lstrip", "rstrip"):
        return random.choice([[], [None], [rs()]])
    if m in ("startswith", "endswith"):
        p = random.choice([rs(), [rs(), rs()]])
        return random.choice([[p], [p, rint()], [p, rint(), rint()]])
    if m == "replace":
        return random.choice([[rs(), rs()], [rs(), rs(), rint()]])
    if m in ("find", "rfind", "index", "rindex", "count"):
        return random.choice([[rs()], [rs(), rint()], [rs(), rint(), rint()]])
    if m in ("partition", "rpartition", "removeprefix", "removesuffix"):
        return [rs()]
    if m in ("center", "ljust", "rjust"):
        return random.choice([[rint()], [rint(), random.choice([" ", "*", "ab", "é", ""])]])
    if m == "zfill": return [rint()]
    if m == "expandtabs": return random.choice([[], [rint()]])
    if m == "splitlines": return random.choice([[], [True], [False]])
    if m == "join": return [random.choice([["a", "b"], [], ["x"], "abc"])]
    return []
methods = "split rsplit strip lstrip rstrip startswith endswith replace find rfind index rindex count upper lower title capitalize swapcase casefold join splitlines partition rpartition removeprefix removesuffix center ljust rjust zfill isdigit isdecimal isnumeric isalpha isalnum isspace isascii islower isupper istitle expandtabs isidentifier isprintable".split()
cases = []
def record(s, m, a):
    pa = [tuple(x) if isinstance(x, list) and m in ("startswith", "endswith") else x for x in a]
    try:
        out = getattr(s, m)(*pa)
        cases.append({"s": s, "m": m, "a": a, "out": repr(out)})
    except Exception as e:
        cases.append({"s": s, "m": m, "a": a, "err": type(e).__name__, "msg": str(e)})
for _ in range(4000):
    m = random.choice(methods); s = random.choice(strs)
    record(s, m, argsfor(m))
# misuse: arguments of other types and counts, whose errors Python names
misuse = random.Random(2)
def wrong():
    return misuse.choice([1, -3, None, True, [1], ["a"], "ab", "", "x"])
for _ in range(1500):
    m = misuse.choice(methods); s = misuse.choice(strs)
    record(s, m, [wrong() for _ in range(misuse.choice([0, 1, 1, 2, 2, 3, 4]))])
# encode, whose errors name the characters it cannot encode
for s in strs:
    for codec in ("ascii", "latin-1", "utf-8"):
        for errors in ("strict", "ignore", "replace"):
            record(s, "encode", [codec, errors])
with open("cases.json", "w", encoding="utf-8") as f:
    f.write("[\n" + ",\n".join(json.dumps(c, ensure_ascii=False) for c in cases) + "\n]\n")
