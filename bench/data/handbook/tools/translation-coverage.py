#!/usr/bin/env python3
"""How much of a language's handbook is still English.

usage: translation-coverage.py EN_DOCS LANG_DOCS [QUERIES_JSONL]

A text block (a paragraph, heading, list item or table cell over 40 characters; code listings
and the page chrome left out) counts as untranslated when the English page has the same block.
A page is "mostly English" when over half of its blocks are. With a query file it also counts
the relevant pages that are mostly English and lists the answerable queries whose first (or
every) relevant page is. Prints one JSON object.
"""
import html
import json
import os
import re
import sys

CHROME = re.compile(
    r'<head>.*?</head>|<div id="banner">.*?</div>|<p id="title">.*?</p>'
    r'|<ul class="docnav[^"]*">.*?</ul>|<pre\b.*?</pre>',
    re.S,
)
BLOCK = re.compile(
    r'<(div class="para"|h[1-6]|li|td|th|p)\b[^>]*>(.*?)</(?:div|h[1-6]|li|td|th|p)>', re.S
)


def blocks(path):
    with open(path, encoding="utf-8") as f:
        page = CHROME.sub(" ", f.read())
    out = []
    for m in BLOCK.finditer(page):
        text = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", m.group(2)))).strip()
        if len(text) > 40:
            out.append(text)
    return out


def main(en_dir, lang_dir, queries=None):
    total = same = 0
    mostly = set()
    for name in sorted(os.listdir(en_dir)):
        if not name.endswith(".html"):
            continue
        english = set(blocks(os.path.join(en_dir, name)))
        own = blocks(os.path.join(lang_dir, name))
        n = sum(1 for b in own if b in english)
        total += len(own)
        same += n
        if own and n / len(own) > 0.5:
            mostly.add(name)
    result = {
        "blocks": total,
        "untranslatedBlocks": same,
        "untranslatedShare": round(same / max(total, 1), 4),
        "pagesMostlyEnglish": sorted(mostly),
    }
    if queries:
        with open(queries, encoding="utf-8") as f:
            answerable = [q for q in map(json.loads, f) if q["kind"] == "answerable"]
        relevant = {p for q in answerable for p in q["relevant"]}
        result["relevantPages"] = len(relevant)
        result["relevantPagesMostlyEnglish"] = sorted(relevant & mostly)
        result["queryIdsFirstRelevantMostlyEnglish"] = [
            q["id"] for q in answerable if q["relevant"][0] in mostly
        ]
        result["queryIdsAllRelevantMostlyEnglish"] = [
            q["id"] for q in answerable if all(p in mostly for p in q["relevant"])
        ]
    print(json.dumps(result, ensure_ascii=False))


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    main(*sys.argv[1:])
