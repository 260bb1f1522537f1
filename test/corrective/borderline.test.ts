import { describe, expect, it } from "vitest";
import { isBorderline } from "../../src/corrective/borderline.js";

describe("isBorderline", () => {
  it("the medium band and unknown relevance are borderline", () => {
    expect(isBorderline({ hitCount: 2, bestRelevance: 0.4, hitsWithoutRelevance: 0 })).toBe(true);
    expect(isBorderline({ hitCount: 2, bestRelevance: 0.649, hitsWithoutRelevance: 0 })).toBe(true);
    expect(isBorderline({ hitCount: 2, bestRelevance: 0.9, hitsWithoutRelevance: 1 })).toBe(true);
    expect(isBorderline({ hitCount: 1, hitsWithoutRelevance: 0 })).toBe(true);
  });

  it("no hits, a high top hit and a low top hit are clear", () => {
    expect(isBorderline({ hitCount: 0, hitsWithoutRelevance: 0 })).toBe(false);
    expect(isBorderline({ hitCount: 3, bestRelevance: 0.65, hitsWithoutRelevance: 0 })).toBe(false);
    expect(isBorderline({ hitCount: 3, bestRelevance: 0.39, hitsWithoutRelevance: 0 })).toBe(false);
  });
});
