#!/usr/bin/env python3
"""Writes unicodenames.json: \\N{...} escapes and what Python's unicode-escape codec (the
decoding of Jinja2's lexer) makes of each: the text, or the message Jinja2 reports.

The escapes: a sample of the characters Python names (as given, in lower case and in
mixed case), every alias of Unicode's NameAliases.txt, Hangul syllables and unified
ideographs (good and bad forms), names of characters Unicode added after Python's version
(from UnicodeData.txt, which Python's database does not have), and malformed escapes.

Usage: python3 record_unicodenames.py [/usr/share/unicode]
"""
import json
import random
import sys
import unicodedata

UCD = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/unicode"
rng = random.Random(14)
escapes = []

named = [chr(cp) for cp in range(0x110000) if unicodedata.name(chr(cp), None)]
for ch in rng.sample(named, 400):
    name = unicodedata.name(ch)
    escapes += [name, name.lower(), name.title()]
for line in open(UCD + "/NameAliases.txt", encoding="utf-8"):
    line = line.split("#")[0].strip()
    if line:
        escapes.append(line.split(";")[1])
later = []
for line in open(UCD + "/UnicodeData.txt", encoding="utf-8"):
    name = line.split(";")[1]
    if not name.startswith("<"):
        try:
            unicodedata.lookup(name)
        except KeyError:
            later.append(name)
escapes += rng.sample(later, min(40, len(later)))
for cp in rng.sample(range(0xAC00, 0xD7A4), 40):
    name = unicodedata.name(chr(cp))
    escapes += [name, name.lower(), "HANGUL SYLLABLE " + name[16:].lower()]
for cp in [0x3400, 0x4DBF, 0x4DC0, 0x4E00, 0x9FFF, 0x2A6DF, 0x2A6E0, 0x3134A, 0x3134B, 0x31350]:
    escapes += ["CJK UNIFIED IDEOGRAPH-%04X" % cp, "CJK UNIFIED IDEOGRAPH-%05X" % cp,
                "CJK UNIFIED IDEOGRAPH-%04x" % cp, "cjk unified ideograph-%04X" % cp]
escapes += ["HANGUL SYLLABLE ", "HANGUL SYLLABLE GGX", "HANGUL SYLLABLE A", "HANGUL SYLLABLE GAGG",
            "CJK UNIFIED IDEOGRAPH-", "CJK UNIFIED IDEOGRAPH-4E0", "CJK UNIFIED IDEOGRAPH-004E00",
            "TANGUT IDEOGRAPH-17000", "LATIN SMALL LETTER A ", " LATIN SMALL LETTER A",
            "LATIN  SMALL LETTER A", "NO SUCH NAME", "BULLET}x{"]
texts = ["\\N{%s}" % e for e in escapes]
texts += ["\\N", "\\N{", "\\N{}", "\\N{BULLET", "\\NBULLET}", "\\N{é}", "a\\N{BULLET}b\\N{bullet}",
          "\\N{BULLET}}"]

cases = []
for text in texts:
    try:
        cases.append({"escape": text, "text": text.encode("ascii", "backslashreplace").decode("unicode-escape")})
    except UnicodeDecodeError as e:
        cases.append({"escape": text, "error": str(e).split(":")[-1].strip()})
with open("unicodenames.json", "w", encoding="utf-8") as f:
    json.dump({"python": sys.version.split()[0], "unidata_version": unicodedata.unidata_version,
               "cases": cases}, f, ensure_ascii=False, indent=0)
    f.write("\n")
