import { afterEach, describe, expect, it } from "vitest";
import { Fts5Peer, fts5OrQuery } from "../../bench/peers/fts5.js";
import { MiniSearchPeer } from "../../bench/peers/minisearch.js";
import type { Peer } from "../../bench/peers/peer.js";
import type { EvalDoc } from "../../src/evaluation/dataset.js";

const docs: EvalDoc[] = [
  { id: "a", title: "Boundary layers", text: "The boundary layer thickens downstream of the leading edge." },
  { id: "b", title: "Heat transfer", text: "Heat is transferred from the hot wall to the flowing gas." },
  { id: "c", title: "Supersonic wings", text: "Shock waves form over them when flying faster than sound." },
  { id: "d", title: "Notes", text: "A short note about wings and walls." },
];

const makers: [string, () => Peer][] = [
  ["FTS5", () => new Fts5Peer()],
  ["MiniSearch", () => new MiniSearchPeer()],
];

describe.each(makers)("%s peer", (_label, make) => {
  let peer: Peer | undefined;
  const built = () => {
    peer = make();
    peer.build(docs);
    return peer;
  };
  afterEach(() => peer?.close());

  it("matches on stems: 'transferring' finds 'transferred'", () => {
    expect(built().search("transferring heat", 10)[0]).toBe("b");
  });

  it("ORs the query's words and ranks the document with more of them first", () => {
    const ids = built().search("shock wings", 10);
    expect(ids[0]).toBe("c");
    expect(ids).toContain("d");
  });

  it("weighs the title above the text", () => {
    // "wings" is in c's title only and in d's (shorter) text only: the title weight puts c first.
    expect(built().search("wings", 10)).toEqual(["c", "d"]);
  });

  it("returns at most k ids", () => {
    expect(built().search("wings walls boundary heat", 2)).toHaveLength(2);
  });

  it("returns nothing for a query of stopwords only", () => {
    expect(built().search("the of and", 10)).toEqual([]);
  });
});

describe("fts5OrQuery", () => {
  it("keeps FTS5 query syntax in a user's query from breaking the MATCH expression", () => {
    const peer = new Fts5Peer();
    peer.build(docs);
    try {
      for (const query of [
        '"heat',
        "heat*",
        "NEAR(heat wall)",
        "-heat",
        "title:heat",
        "heat AND",
        "^heat",
        "(heat",
      ]) {
        expect(peer.search(query, 10), query).toContain("b");
      }
    } finally {
      peer.close();
    }
  });

  it("drops stopwords, quotes each word and ORs them", () => {
    expect(fts5OrQuery("What is the NEAR heat-transfer?")).toBe('"near" OR "heat" OR "transfer"');
  });

  it("is empty when no word remains", () => {
    expect(fts5OrQuery("the, of; and!")).toBe("");
  });
});
