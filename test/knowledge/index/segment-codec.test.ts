// A stored segment's terms as ids: what goes in comes back, in every form a document's terms
// take, and a segment whose bytes do not add up is reported, never read.
import { describe, expect, it } from "vitest";
import { CollectionIndex } from "../../../src/knowledge/index/collection-index.js";
import { isTermIds, type TermSequence } from "../../../src/knowledge/index/lexical-index.js";
import { decodeSegment, SegmentBuilder } from "../../../src/knowledge/index/segment-codec.js";
import type { StoredDocument } from "../../../src/knowledge/index/stored-document.js";

function document(id: string, sections: [string, string][]): StoredDocument {
  return {
    id,
    path: id,
    title: `Title of ${id}`,
    size: 10,
    mtimeMs: 1,
    contentHash: `hash-${id}`,
    language: "en",
    sections: sections.map(([titleTerms, bodyTerms], i) => ({
      headingPath: [`Title of ${id}`, `Part ${i}`],
      content: `content ${i} of ${id} — “quoted” ✓`,
      titleTerms,
      bodyTerms,
    })),
  };
}

const words = (terms: TermSequence): string[] =>
  isTermIds(terms)
    ? Array.from(terms.ids, (id) => terms.vocabulary[id]!)
    : typeof terms === "string"
      ? terms === ""
        ? []
        : terms.split(" ")
      : [...terms];

const segmentOf = (documents: StoredDocument[]): Buffer => {
  const builder = new SegmentBuilder();
  for (const d of documents) builder.add(d);
  return builder.finish();
};

describe("segment codec", () => {
  const originals = [
    document("a.md", [
      ["titl a", "vacat day vacat allow"],
      ["titl a part", ""],
    ]),
    document("b.md", [["titl b", "sick leav call manag día 休暇"]]),
  ];

  it("gives back every document, its fields and its terms in order", () => {
    const decoded = decodeSegment(segmentOf(originals));
    if (!Array.isArray(decoded)) throw new Error(decoded.damaged);
    expect(decoded.map(({ sections, ...rest }) => rest)).toEqual(
      originals.map(({ sections, ...rest }) => rest),
    );
    expect(decoded.map((d) => d.sections.map((s) => [words(s.titleTerms), words(s.bodyTerms)]))).toEqual(
      originals.map((d) => d.sections.map((s) => [words(s.titleTerms), words(s.bodyTerms)])),
    );
    expect(decoded.map((d) => d.sections.map((s) => s.content))).toEqual(
      originals.map((d) => d.sections.map((s) => s.content)),
    );
  });

  it("re-encodes loaded documents (ids) beside new ones (packed) into one vocabulary", () => {
    const loaded = decodeSegment(segmentOf(originals));
    if (!Array.isArray(loaded)) throw new Error(loaded.damaged);
    const fresh = document("c.md", [["titl c", "vacat new word"]]);
    const again = decodeSegment(segmentOf([...loaded, fresh]));
    if (!Array.isArray(again)) throw new Error(again.damaged);
    expect(again.map((d) => d.sections.map((s) => words(s.bodyTerms)))).toEqual(
      [...originals, fresh].map((d) => d.sections.map((s) => words(s.bodyTerms))),
    );
    const vocabulary = again.flatMap((d) =>
      d.sections.map((s) => (isTermIds(s.bodyTerms) ? s.bodyTerms.vocabulary : [])),
    );
    expect(new Set(vocabulary).size).toBe(1);
  });

  it("an index built from decoded documents ranks as one built from the packed ones", () => {
    const decoded = decodeSegment(segmentOf(originals));
    if (!Array.isArray(decoded)) throw new Error(decoded.damaged);
    const fromIds = new CollectionIndex("docs", decoded);
    const fromPacked = new CollectionIndex("docs", originals);
    const stats = (index: CollectionIndex) => index.lexical.queryStats(["vacat", "sick", "休暇"]);
    expect(fromIds.lexical.search(stats(fromIds), 10)).toEqual(
      fromPacked.lexical.search(stats(fromPacked), 10),
    );
    expect(fromIds.lexical.vocabularySize).toBe(fromPacked.lexical.vocabularySize);
  });

  it("reports a segment cut short, lengthened, or naming a term it does not hold", () => {
    const bytes = segmentOf(originals);
    expect(decodeSegment(bytes.subarray(0, bytes.length - 4))).toMatchObject({
      damaged: expect.stringMatching(/bytes where its counts make/),
    });
    expect(decodeSegment(Buffer.concat([bytes, Buffer.alloc(4)]))).toMatchObject({
      damaged: expect.stringMatching(/bytes where its counts make/),
    });
    const wrongId = Buffer.from(bytes);
    wrongId.writeUInt32LE(0xffff_ffff, wrongId.length - 4);
    expect(decodeSegment(wrongId)).toEqual({ damaged: "holds a term id past its vocabulary" });
    expect(decodeSegment(Buffer.from("[]"))).toEqual({ damaged: "is not a segment of this version" });
  });

  it("reads ids from bytes that are not 4-byte aligned", () => {
    const bytes = segmentOf(originals);
    const shifted = Buffer.alloc(bytes.length + 1);
    bytes.copy(shifted, 1);
    const decoded = decodeSegment(shifted.subarray(1));
    if (!Array.isArray(decoded)) throw new Error(decoded.damaged);
    expect(decoded.map((d) => d.sections.map((s) => words(s.bodyTerms)))).toEqual(
      originals.map((d) => d.sections.map((s) => words(s.bodyTerms))),
    );
  });
});
