"""Writes reference.json: the answers of Python and glibc for internal/pystr's tests
(reference_test.go).

As the Python that Jinja2 runs on gives them, for hand-picked and random inputs:
html.unescape (UnescapeHTML) and markupsafe's Markup.striptags (Striptags); str's
upper, lower, casefold, title, capitalize, swapcase, islower, isupper, istitle,
splitlines(True), strip, lstrip and rstrip; Jinja2's wordwrap (textwrap.wrap of each
line, as jinja2.filters.do_wordwrap calls it); datetime.strftime of a naive datetime;
and, over every code point, re's \\w and the line breaks of str.splitlines. And as
glibc's strftime gives them (glibc_strftime.c, compiled with cc: what llama.cpp's
strftime_now calls), random formats for times in a few time zones. Run it in
internal/pystr/testdata: python3 record.py
"""
import datetime
import html
import html.entities
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import textwrap
import time

from markupsafe import Markup

hand = [
    "", "plain", "&", "&;", "&#;", "&#x;", "&#", "&#x", "&#X", "& amp;", "&amp;amp;",
    "&&amp;", "&#0000000000065;", "&#x0000041;", "&" + "a" * 40 + ";", "&amp" * 3,
    "&ampx", "&AMP;", "&AMP", "&notin;", "&notit;", "&not", "&noti", "&#65;&#66",
    "x&lt;y&gt;z", "&copyright", "&copy;right", "&#99999999999999999999;",
    "&#x110000;", "&#xd800;", "&#1;", "&#1", "&#12abc", "&#x41g", "&éé;", "&a\u3000b;",
    "&ab\rc;", "&nGt;", "&nLt;x", "&Aacute", "&aacute;x", "&#128;&#x9f;&#13;&#0;",
    "<a <!-- x --> b>tail", "x <!-- <b> --> y <i>z</i> &quot;q&quot;",
    "<!-- unclosed <b>bold</b>", "<!<!-- a -->-- b -->c", "<!-->x", "<!--->x",
    "<<a>b>", "a<b", "a>b<c", "<!-- x", "<b\nclass='y'>t</b>", "a\u3000 \t\nb\x1cc",
    "<p>one</p>\n\n<p>two &amp; three</p>", "<!-- a --><!-- b -->c<!-- d",
    "<!-<!-- -->->x", "<!--<!-- -->-->y", "&lt;b&gt;not a tag&lt;/b&gt;",
]
entities = ["x&%sy" % name for name in sorted(html.entities.html5)[::4]]  # a quarter: the lookup
legacy = ["&%szz;" % name for name in sorted(html.entities.html5) if not name.endswith(";")]
numeric = []
for n in list(range(0, 0x200)) + [0xd7ff, 0xd800, 0xdfff, 0xe000, 0xfdcf, 0xfdd0, 0xfdef,
                                  0xfdf0, 0xfffe, 0xffff, 0x1fffe, 0x10fffe, 0x10ffff, 0x110000]:
    numeric += ["&#%d;" % n, "&#X%Xz" % n]

random.seed(20261207)
pieces = ["<", ">", "!", "-", "--", "<!--", "-->", "&", "#", ";", "x", "X", "3", "a",
          "amp", "lt", "gt", "copy", "not", "in", " ", "\n", "\u3000", "é", "<b>", "</b>"]
rand = ["".join(random.choice(pieces) for _ in range(random.randint(1, 14))) for _ in range(800)]

texts = hand + rand

# str's methods, on texts rich in what their rules are about: final sigma, title case
# letters, multi-character mappings, case-ignorable characters, Unicode whitespace and
# line breaks
letters = list("aAzZ '.:-_1\t\n") + [
    "\u03a3", "\u03c3", "\u03c2", "\u0301", "\u00df", "\ufb01", "\u0130", "\u0131", "\u01c5",
    "\u01c4", "\u01c6", "\u216b", "\u00b2", "\u2460", "\u1c90", "\u10d0", "\u13a0", "\uab70",
    "\u3000", "\x1c", "\x85", "\u2028", "\r", "\r\n", "\u00b7", "\u2019", "\u1f80", "\u1f88",
    "\u0345", "\u03b0", "\u0149", "\u1e9e", "\u2126", "\u212a", "\u00c5", "\u0587", "\u1f50",
    "\u24b6", "\u24d0", "\U00010400", "\U00010428", "\u02b0", "\u00aa", "\u0660", "\u00bd",
    "\u1fb3", "\u1fbc", "\u00e9", "\u200d", "\u00ad", "\ufeff"]
words = ["", "hello world", "they're bill's friends", "\u039f\u0394\u039f\u03a3 \u039f\u0394\u039f\u03a3.",
         "\u01c5ungla", "\u0130stanbul", "\ufb01sh", "a\r\nb\rc\nd\x85e\u2028f", "\x1c\x1d\x1e\x1fx"]
words += ["".join(random.choice(letters) for _ in range(random.randint(1, 8))) for _ in range(400)]
strs = [{"s": w, "upper": w.upper(), "lower": w.lower(), "casefold": w.casefold(), "title": w.title(),
         "capitalize": w.capitalize(), "swapcase": w.swapcase(), "islower": w.islower(),
         "isupper": w.isupper(), "istitle": w.istitle(), "splitlines": w.splitlines(True),
         "strip": w.strip(), "lstrip": w.lstrip(), "rstrip": w.rstrip()} for w in words]

# Jinja2's wordwrap
pieces = ["a", "bb", "ccc", "hello", "world", "super-long-hyphenated-word", "x-y", "--", "-a",
          "a-", "foo--bar", "1-2", "\u00e9\u00e9-\u00fc", "a.", "e.g.", "!", "'q'", "long" * 6, "\u65e5\u672c"]
gaps = [" ", " ", "  ", "\n", "\t", "", "\r\n", " \n "]
wordwrap = []
for _ in range(400):
    s = "".join(random.choice(pieces) + random.choice(gaps) for _ in range(random.randint(1, 10)))
    width, blw, boh = random.randint(1, 16), random.random() < 0.7, random.random() < 0.7
    sep = random.choice(["\n", "<br>", ""])
    out = sep.join(sep.join(textwrap.wrap(line, width=width, expand_tabs=False, replace_whitespace=False,
                                          break_long_words=blw, break_on_hyphens=boh))
                   for line in s.splitlines())
    wordwrap.append({"s": s, "width": width, "breakLongWords": blw, "breakOnHyphens": boh,
                     "wrapstring": sep, "out": out})

# datetime.strftime: directives with glibc's flags, widths and modifiers (in UTC, where
# %s, the seconds since the epoch of the local time, is what a naive datetime gives)
os.environ["TZ"] = "UTC"
time.tzset()
directives = list("aAbBcCdDeFgGhHIjklmMnpPrRsStTuUVwWxXyYzZ%") + ["Ey", "Od", "EY", "Oe", "EC", "+", "Q", "f", ":z"]
dates = [datetime.datetime(2026, 11, 30, 12), datetime.datetime(1, 1, 1), datetime.datetime(999, 12, 31, 23, 59, 59, 999999),
         datetime.datetime(2024, 2, 29, 0, 5, 7, 123), datetime.datetime(2021, 1, 1), datetime.datetime(2020, 12, 31, 13, 1),
         datetime.datetime(2027, 1, 3, 9), datetime.datetime(9999, 12, 31), datetime.datetime(2010, 1, 4), datetime.datetime(1970, 1, 1, 0, 0, 5)]
strftime = []
for _ in range(1000):
    fmt = "".join(("%" + random.choice(["", "", "", "_", "-", "0", "^", "#"]) + random.choice(["", "", "", "1", "3", "10"])
                   + random.choice(directives)) if random.random() < 0.8 else random.choice(["x", " ", "-", "%", "\u00e9"])
                  for _ in range(random.randint(1, 4)))
    d = random.choice(dates)
    strftime.append({"format": fmt, "time": [d.year, d.month, d.day, d.hour, d.minute, d.second, d.microsecond],
                     "out": d.strftime(fmt)})


def ranges(pred):
    out = []
    for c in range(sys.maxunicode + 1):
        if 0xD800 <= c < 0xE000 or not pred(chr(c)):
            continue
        if out and out[-1][1] == c - 1:
            out[-1][1] = c
        else:
            out.append([c, c])
    return out


# C's strftime of glibc, for llama.cpp: times with a zone (not %s, the seconds since the
# epoch, which glibc counts from the process's time zone rather than the zone of the time)
glibc_directives = [d for d in directives if d != "s"] + ["Ez", "Oz", "EZ", "Ou", "Eu", "OC", "Og", "Ej", "OY", "Ox", "E%", "O%"]
zones = [(0, "UTC"), (19800, "IST"), (-12600, "NST"), (50400, "LINT"), (-36000, "HST")]
glibc_cases = []
for _ in range(1000):
    fmt = "".join(("%" + random.choice(["", "", "", "_", "-", "0", "^", "#"]) + random.choice(["", "", "", "1", "3", "10"])
                   + random.choice(glibc_directives)) if random.random() < 0.85 else random.choice(["x", " ", "-", "\u00e9"])
                  for _ in range(random.randint(1, 3)))
    d, (offset, zone) = random.choice(dates), random.choice(zones)
    glibc_cases.append({"format": fmt, "time": [d.year, d.month, d.day, d.hour, d.minute, d.second],
                        "offset": offset, "zone": zone})
with tempfile.TemporaryDirectory() as tmp:
    exe = os.path.join(tmp, "glibc_strftime")
    subprocess.run(["cc", "-o", exe, "glibc_strftime.c"], check=True)
    lines = "".join("%d %d %d %d %d %d %d %s\t%s\n" % (*c["time"], c["offset"], c["zone"], c["format"])
                    for c in glibc_cases)
    outs = subprocess.run([exe], input=lines.encode(), capture_output=True, check=True).stdout.decode().split("\n")
for c, out in zip(glibc_cases, outs):
    c["out"] = bytes.fromhex(out).decode()


word = re.compile(r"\w")
out = {
    "unescape": [[t, html.unescape(t)] for t in texts + entities + legacy + numeric],
    "striptags": [[t, str(Markup(t).striptags())] for t in texts],
    "strings": strs,
    "wordwrap": wordwrap,
    "strftime": strftime,
    "glibc_strftime": glibc_cases,
    "word": ranges(lambda ch: word.match(ch) is not None),
    "linebreak": ranges(lambda ch: len(("a" + ch + "b").splitlines()) == 2),
}
with open("reference.json", "w", encoding="utf-8") as f:
    f.write("{\n")
    for i, (name, cases) in enumerate(out.items()):
        # a case a line
        f.write(json.dumps(name) + ": [\n")
        f.write(",\n".join(json.dumps(c, ensure_ascii=False, separators=(",", ":")) for c in cases))
        f.write("\n]" + (",\n" if i < len(out) - 1 else "\n"))
    f.write("}\n")
