import { describe, expect, it } from "vitest";
import { analyze, termOf, words } from "../../../src/knowledge/index/analyzer.js";

describe("analyze", () => {
  it("lower-cases, drops English stopwords and stems to Porter stems", () => {
    expect(analyze("How many Vacation DAYS do I get?")).toEqual(["vacat", "dai"]);
  });

  it("matches inflections of the same word to one term", () => {
    expect(analyze("boundary layers")).toEqual(analyze("boundaries layer"));
  });

  it("keeps letters of any script and numbers; words with non-ASCII letters are not stemmed", () => {
    // The stemmer is English: it only sees plain a–z words ("ferie" → "feri"); "søknad" stays whole.
    expect(analyze("Ferie på Svalbard: 25 dager, søknad")).toEqual([
      "feri",
      "på",
      "svalbard",
      "25",
      "dager",
      "søknad",
    ]);
  });

  it("indexes Han characters one by one, so unspaced text is still searchable", () => {
    expect(analyze("年假")).toEqual(["年", "假"]);
  });

  it("normalises compatibility forms (NFKC) so full-width text matches", () => {
    expect(analyze("ＶＰＮ")).toEqual(analyze("vpn"));
  });

  it("drops tokens longer than a word can be (hashes, base64)", () => {
    expect(analyze(`key ${"a".repeat(41)} value`)).toEqual(["kei", "valu"]);
  });
});

describe("the ASCII fast path", () => {
  it("finds exactly the words the Unicode pattern finds", () => {
    const ascii = "Boundary-layer (M=2.5) flow's 3rd test; e-mail: ops@example.com\tTAB_x y__z";
    // A non-ASCII character at the end sends the same text through the Unicode pattern.
    expect([...words(ascii), "é"]).toEqual(words(`${ascii} é`));
    expect([...analyze(ascii), "é"]).toEqual(analyze(`${ascii} é`));
  });
});

describe("words and termOf", () => {
  it("words keeps stopwords; termOf maps them to nothing", () => {
    expect(words("The VPN")).toEqual(["the", "vpn"]);
    expect(termOf("the")).toBeUndefined();
    expect(termOf("layers")).toBe("layer");
  });
});
