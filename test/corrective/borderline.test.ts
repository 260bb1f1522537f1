import { describe, expect, it } from "vitest";
import { isBorderline } from "../../src/corrective/borderline.js";

const clear = { weak: false, hitCount: 3, hitsWithoutRelevance: 0 };

describe("isBorderline (grader auto: weak, unless the index already says which words no document has)", () => {
  it("a weak result is borderline, with hits or none (a 'No results' search)", () => {
    expect(isBorderline({ ...clear, weak: true, bestRelevance: 0.3 })).toBe(true);
    expect(isBorderline({ weak: true, hitCount: 0, hitsWithoutRelevance: 0 })).toBe(true);
    expect(isBorderline({ ...clear, weak: true, bestRelevance: 0.3, unmatchedTerms: 0 })).toBe(true);
  });

  it("a weak result whose query holds words no document contains stays with the signal", () => {
    expect(isBorderline({ ...clear, weak: true, bestRelevance: 0.3, unmatchedTerms: 1 })).toBe(false);
  });

  it("a result the signal does not flag stays with the signal, medium band included", () => {
    expect(isBorderline({ ...clear, bestRelevance: 0.5 })).toBe(false);
    expect(isBorderline({ ...clear, bestRelevance: 0.9 })).toBe(false);
    expect(isBorderline({ weak: false, hitCount: 0, hitsWithoutRelevance: 0 })).toBe(false);
  });
});
