import { describe, expect, it } from "vitest";
import { pickRequery, queryIdentity } from "../../src/corrective/requery.js";

describe("pickRequery", () => {
  const tried = new Set([queryIdentity("original query")]);

  it("rewrite first, then broader, then narrower", () => {
    const hints = { broaderQuery: "broad", narrowerQuery: "narrow" };
    expect(pickRequery("rewrite", hints, tried)).toBe("rewrite");
    expect(pickRequery(undefined, hints, tried)).toBe("broad");
    expect(pickRequery(undefined, { narrowerQuery: " narrow " }, tried)).toBe("narrow");
  });

  it("skips the original, repeats (case and spacing ignored), blanks and oversized candidates", () => {
    const seen = new Set([...tried, queryIdentity("broad")]);
    expect(pickRequery("  Original   QUERY ", { broaderQuery: "BROAD", narrowerQuery: "narrow" }, seen)).toBe(
      "narrow",
    );
    expect(pickRequery("   ", { broaderQuery: "x".repeat(4_001) }, seen)).toBeUndefined();
    expect(pickRequery(undefined, { relatedTerms: ["a", "b"] }, seen)).toBeUndefined();
  });
});
