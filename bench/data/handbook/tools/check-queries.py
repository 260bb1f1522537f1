#!/usr/bin/env python3
"""Consistency checks of the handbook query files.

usage: check-queries.py [TARGET]

Every queries.<lang>.jsonl of the folder above: the same ids in the same order, the same kind,
style, vocab, relevant and note as the English file (only `text` differs), allowed field values,
1-3 relevant pages for an answerable query and none for an unanswerable one, and the counts the
README gives. With TARGET (a folder holding <lang>/docs for every language, as build-bot.sh
builds them) every relevant page must exist in every language. Exits 1 on the first failure.
"""
import collections
import glob
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.dirname(HERE)
LANGS = ["en-us", "nb-no", "de-de", "fr-fr", "es-es", "pt-br", "it-it", "ru-ru", "ja-jp"]
EXPECTED = {"total": 83, "answerable": 63, "paraphrase": 41, "unanswerable": 20}


def fail(message):
    sys.exit(f"check-queries: {message}")


def load(lang):
    path = os.path.join(DATA, f"queries.{lang}.jsonl")
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def check_fields(q):
    if set(q) != {"id", "text", "style", "kind", "vocab", "relevant", "note"}:
        fail(f"{q.get('id')}: fields {sorted(q)}")
    if q["style"] not in ("question", "keywords"):
        fail(f"{q['id']}: style {q['style']}")
    if q["kind"] == "answerable":
        if q["vocab"] not in ("overlap", "paraphrase") or not 1 <= len(q["relevant"]) <= 3:
            fail(f"{q['id']}: answerable needs vocab and 1-3 relevant pages")
    elif q["kind"] == "unanswerable":
        if q["vocab"] is not None or q["relevant"]:
            fail(f"{q['id']}: unanswerable has vocab or relevant pages")
    else:
        fail(f"{q['id']}: kind {q['kind']}")
    if not q["text"].strip() or not q["note"].strip():
        fail(f"{q['id']}: empty text or note")


def main(target=None):
    files = sorted(os.path.basename(p)[8:-6] for p in glob.glob(os.path.join(DATA, "queries.*.jsonl")))
    if files != sorted(LANGS):
        fail(f"query files {files}, expected {sorted(LANGS)}")
    english = load("en-us")
    for q in english:
        check_fields(q)
    if len({q["id"] for q in english}) != len(english):
        fail("duplicate ids")
    kinds = collections.Counter(q["kind"] for q in english)
    counts = {
        "total": len(english),
        "answerable": kinds["answerable"],
        "paraphrase": sum(q["vocab"] == "paraphrase" for q in english),
        "unanswerable": kinds["unanswerable"],
    }
    if counts != EXPECTED:
        fail(f"counts {counts}, README says {EXPECTED}")
    for lang in LANGS[1:]:
        queries = load(lang)
        if [q["id"] for q in queries] != [q["id"] for q in english]:
            fail(f"{lang}: ids differ from en-us")
        for q, e in zip(queries, english):
            check_fields(q)
            if {k: v for k, v in q.items() if k != "text"} != {k: v for k, v in e.items() if k != "text"}:
                fail(f"{lang} {q['id']}: fields other than text differ from en-us")
            if q["text"] == e["text"] and q["style"] != "keywords":
                # a keyword search of product names ("kubernetes cluster kubeadm debian") may be
                # the same in every language; a question may not
                fail(f"{lang} {q['id']}: question text is the English text")
    if target:
        pages = {p for q in english for p in q["relevant"]}
        for lang in LANGS:
            missing = [p for p in pages if not os.path.isfile(os.path.join(target, lang, "docs", p))]
            if missing:
                fail(f"{lang}: relevant pages missing in {target}/{lang}/docs: {missing}")
    print(f"ok: {len(LANGS)} languages, {counts}" + (f", relevant pages present in {target}" if target else ""))


if __name__ == "__main__":
    main(*sys.argv[1:2])
