import { describe, expect, it } from "vitest";
import { isBorderline } from "../../src/corrective/borderline.js";

const clear = { weak: false, hitCount: 3, hitsWithoutRelevance: 0 };

describe("isBorderline (grader auto: weak, or the best band is medium)", () => {
  it("a weak result is borderline, with hits or none (a 'No results' search)", () => {
    expect(isBorderline({ ...clear, weak: true, bestRelevance: 0.3 })).toBe(true);
    expect(isBorderline({ weak: true, hitCount: 0, hitsWithoutRelevance: 0 })).toBe(true);
  });

  it("the medium band and unknown relevance are borderline", () => {
    expect(isBorderline({ ...clear, bestRelevance: 0.4 })).toBe(true);
    expect(isBorderline({ ...clear, bestRelevance: 0.649 })).toBe(true);
    expect(isBorderline({ ...clear, bestRelevance: 0.9, hitsWithoutRelevance: 1 })).toBe(true);
    expect(isBorderline({ ...clear, hitCount: 1 })).toBe(true);
  });

  it("a confident high top hit, and a text that is no search result at all, stay with the signal", () => {
    expect(isBorderline({ ...clear, bestRelevance: 0.65 })).toBe(false);
    expect(isBorderline({ weak: false, hitCount: 0, hitsWithoutRelevance: 0 })).toBe(false);
  });
});
