"""Writes markup.json: Python's answers for internal/pystr's markup functions.

html.unescape (UnescapeHTML) and markupsafe's Markup.striptags (Striptags) of
hand-picked and random texts, as the Python that Jinja2 runs on gives them. Run it in
internal/pystr/testdata: python3 markup.py
"""
import html
import html.entities
import json
import random

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
out = {
    "unescape": [[t, html.unescape(t)] for t in texts + entities + legacy + numeric],
    "striptags": [[t, str(Markup(t).striptags())] for t in texts],
}
with open("markup.json", "w", encoding="utf-8") as f:
    json.dump(out, f, ensure_ascii=False, indent=0)
    f.write("\n")
