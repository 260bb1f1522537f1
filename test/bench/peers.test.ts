import { afterEach, describe, expect, it } from "vitest";
import { Fts5Peer, fts5OrQuery } from "../../bench/peers/fts5.js";
import { bigramTokens, peerAnalysis } from "../../bench/peers/language-analysis.js";
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

describe("language-aware peer options (bench/multilingual/suite.ts)", () => {
  const german = peerAnalysis({ snowball: "german", stopwords: ["die", "der", "und"] });
  const japanese = peerAnalysis({ snowball: "english", stopwords: ["the"], cjk: "ja" });
  const pages: EvalDoc[] = [
    { id: "zeile", title: "Zeile einfügen", text: "Eine neue Zeile über der Markierung." },
    { id: "fusion", title: "Zellen verbinden", text: "Die Fusión der Zellen." },
    { id: "midashi", title: "見出し行を固定する", text: "スクロールしても表示されます。" },
  ];

  it("splits Han and Kana runs into overlapping bigrams, a lone character kept", () => {
    expect(bigramTokens("見出し行 を Calc")).toEqual(["見出", "出し", "し行", "を", "calc"]);
  });

  it("drops the language's stopwords and stems with its Snowball stemmer; CJK tokens pass unchanged", () => {
    expect(german.term("die")).toBeNull();
    expect(german.term("zeilen")).toBe(german.term("zeile"));
    expect(japanese.term("見出")).toBe("見出");
  });

  it("segments Japanese into words with Intl.Segmenter", () => {
    expect(japanese.segmenterTokens("見出し行を固定する")).toContain("固定");
  });

  it("MiniSearch with a Snowball stemmer finds the singular from the plural", () => {
    const peer = new MiniSearchPeer({ label: "snowball", tokenize: bigramTokens, processTerm: german.term });
    try {
      peer.build(pages);
      expect(peer.label).toBe("snowball");
      expect(peer.search("die Zeilen", 10)).toEqual(["zeile"]);
      expect(peer.search("見出し", 10)).toEqual(["midashi"]);
    } finally {
      peer.close();
    }
  });

  it("FTS5 with another tokenizer, bigram text and the language's query words", () => {
    const peer = new Fts5Peer({
      label: "unicode61",
      tokenize: "unicode61 remove_diacritics 2",
      prepareText: (text) => bigramTokens(text).join(" "),
      queryWords: (query) => bigramTokens(query).filter((w) => !german.stopwords.has(w)),
    });
    try {
      peer.build(pages);
      // Diacritics folded, no stemming: "fusion" finds "Fusión", "Zeilen" finds no "Zeile".
      expect(peer.search("fusion", 10)).toEqual(["fusion"]);
      expect(peer.search("Zeilen", 10)).toEqual([]);
      // "die" is a stopword here: only "Fusión"'s page holds the other word.
      expect(peer.search("die Fusion", 10)).toEqual(["fusion"]);
      expect(peer.search("見出し", 10)).toEqual(["midashi"]);
    } finally {
      peer.close();
    }
  });
});
