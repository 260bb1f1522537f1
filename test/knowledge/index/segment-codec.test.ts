// A stored segment's terms as ids: what goes in comes back, in every form a document's terms
// take, and a segment whose bytes do not add up is reported, never read.
import { describe, expect, it } from "vitest";
import { CollectionIndex } from "../../../src/knowledge/index/collection-index.js";
import { isTermIds, LexicalIndex, type TermSequence } from "../../../src/knowledge/index/lexical-index.js";
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
      content: `content ${i} of ${id} 😀 — “quoted” ✓`,
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

const segmentOf = (documents: StoredDocument[], postings = false): Buffer => {
  const builder = new SegmentBuilder();
  for (const d of documents) builder.add(d);
  return builder.finish({ postings });
};

/** Where a segment's term ids and postings' units start (segment-codec.ts's layout). */
function offsets(bytes: Buffer): { ids: number; units: number } {
  const headerLength = bytes.readUInt32LE(4);
  const header = JSON.parse(bytes.toString("utf8", 8, 8 + headerLength)) as {
    vocabulary: string;
    documents: { sections: unknown[] }[];
  };
  const sections = header.documents.reduce((n, d) => n + d.sections.length, 0);
  const counts = 8 + headerLength + ((4 - ((8 + headerLength) % 4)) % 4);
  const ids = counts + 8 * sections;
  let terms = 0;
  for (let i = 0; i < 2 * sections; i++) terms += bytes.readUInt32LE(counts + 4 * i);
  const vocabulary = header.vocabulary.split(" ").length;
  return { ids, units: ids + 4 * terms + 4 * (vocabulary + 1) };
}

/** The segment's documents, or a failure naming why it was refused. */
function decoded(bytes: Buffer) {
  const result = decodeSegment(bytes);
  if ("damaged" in result) throw new Error(result.damaged);
  return result;
}

describe("segment codec", () => {
  const originals = [
    document("a.md", [
      ["titl a", "vacat day vacat allow"],
      ["titl a part", ""],
    ]),
    document("b.md", [["titl b", "sick leav call manag día 休暇"]]),
  ];

  it("gives back every document, its fields and its terms in order", () => {
    const { documents } = decoded(segmentOf(originals));
    expect(documents.map(({ sections, ...rest }) => rest)).toEqual(
      originals.map(({ sections, ...rest }) => rest),
    );
    expect(documents.map((d) => d.sections.map((s) => [words(s.titleTerms), words(s.bodyTerms)]))).toEqual(
      originals.map((d) => d.sections.map((s) => [words(s.titleTerms), words(s.bodyTerms)])),
    );
    expect(documents.map((d) => d.sections.map((s) => s.content))).toEqual(
      originals.map((d) => d.sections.map((s) => s.content)),
    );
  });

  it("re-encodes loaded documents (ids) beside new ones (packed) into one vocabulary", () => {
    const loaded = decoded(segmentOf(originals)).documents;
    const fresh = document("c.md", [["titl c", "vacat new word"]]);
    const again = decoded(segmentOf([...loaded, fresh])).documents;
    expect(again.map((d) => d.sections.map((s) => words(s.bodyTerms)))).toEqual(
      [...originals, fresh].map((d) => d.sections.map((s) => words(s.bodyTerms))),
    );
    const vocabulary = again.flatMap((d) =>
      d.sections.map((s) => (isTermIds(s.bodyTerms) ? s.bodyTerms.vocabulary : [])),
    );
    expect(new Set(vocabulary).size).toBe(1);
  });

  it("an index built from decoded documents ranks as one built from the packed ones", () => {
    const fromIds = new CollectionIndex("docs", decoded(segmentOf(originals)).documents);
    const fromPacked = new CollectionIndex("docs", originals);
    const stats = (index: CollectionIndex) => index.lexical.queryStats(["vacat", "sick", "休暇"]);
    expect(fromIds.lexical.search(stats(fromIds), 10)).toEqual(
      fromPacked.lexical.search(stats(fromPacked), 10),
    );
    expect(fromIds.lexical.vocabularySize).toBe(fromPacked.lexical.vocabularySize);
  });

  it("keeps the lexical index when asked: the same arrays a build makes, and an index from them that ranks alike", () => {
    expect(decoded(segmentOf(originals)).image).toBeUndefined();
    const { documents, image } = decoded(segmentOf(originals, true));
    expect(image).toBeDefined();
    const built = LexicalIndex.build(
      originals.flatMap((d) => d.sections.map((s) => ({ title: s.titleTerms, body: s.bodyTerms }))),
    ).image()!;
    const plain = (i: typeof built) =>
      Object.fromEntries(Object.entries(i).map(([k, v]) => [k, Array.from(v)]));
    expect(plain(image!)).toEqual(plain(built));
    const fromImage = new CollectionIndex("docs", documents, { image: image! });
    const fromPacked = new CollectionIndex("docs", originals);
    for (const query of [["vacat"], ["sick", "manag"], ["休暇", "titl"], ["absent"]]) {
      expect(fromImage.lexical.search(fromImage.lexical.queryStats(query), 10)).toEqual(
        fromPacked.lexical.search(fromPacked.lexical.queryStats(query), 10),
      );
    }
    expect(Array.from(fromImage.lexical.bodyStream(1))).toEqual(Array.from(fromPacked.lexical.bodyStream(1)));
  });

  it("an image that does not fit the documents is not used", () => {
    const { image } = decoded(segmentOf(originals, true));
    const others = decoded(
      segmentOf([...originals, document("c.md", [["titl c", "other words"]])]),
    ).documents;
    const index = new CollectionIndex("docs", others, { image: image! });
    expect(index.lexical.termId("other")).toBeDefined();
    expect(index.lexical.search(index.lexical.queryStats(["other"]), 10)).toHaveLength(1);
  });

  it("reports a segment cut short, lengthened, naming a term it does not hold, or postings out of bounds", () => {
    for (const postings of [false, true]) {
      const bytes = segmentOf(originals, postings);
      expect(decodeSegment(bytes.subarray(0, bytes.length - 4))).toMatchObject({
        damaged: expect.stringMatching(/bytes where its counts make/),
      });
      expect(decodeSegment(Buffer.concat([bytes, Buffer.alloc(4)]))).toMatchObject({
        damaged: expect.stringMatching(/bytes where its counts make/),
      });
    }
    const bytes = segmentOf(originals);
    const wrongId = Buffer.from(bytes);
    wrongId.writeUInt32LE(0xffff_ffff, offsets(bytes).ids);
    expect(decodeSegment(wrongId)).toEqual({ damaged: "holds a term id past its vocabulary" });
    const withPostings = segmentOf(originals, true);
    // The first posting's unit, past the segment's units.
    const wrongUnit = Buffer.from(withPostings);
    wrongUnit.writeUInt32LE(99, offsets(withPostings).units);
    expect(decodeSegment(wrongUnit)).toEqual({ damaged: "holds postings out of their bounds" });
    // Text whose bytes decode to fewer characters than its lengths say.
    const wrongText = Buffer.from(bytes);
    wrongText.write("\u00e9", bytes.length - 2, "utf8");
    expect(decodeSegment(wrongText)).toEqual({ damaged: "holds text that does not decode to its lengths" });
    expect(decodeSegment(Buffer.from("[]"))).toEqual({ damaged: "is not a segment of this version" });
  });

  it("reads ids and postings from bytes that are not 4-byte aligned", () => {
    const bytes = segmentOf(originals, true);
    const shifted = Buffer.alloc(bytes.length + 1);
    bytes.copy(shifted, 1);
    const { documents, image } = decoded(shifted.subarray(1));
    expect(documents.map((d) => d.sections.map((s) => words(s.bodyTerms)))).toEqual(
      originals.map((d) => d.sections.map((s) => words(s.bodyTerms))),
    );
    expect(Array.from(image!.postingBodyTf)).toEqual(Array.from(decoded(bytes).image!.postingBodyTf));
  });
});
