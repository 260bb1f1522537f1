import { describe, expect, it } from "vitest";
import {
  AUTO_ASK_BELOW,
  isBorderline,
  responseEvidence,
  unmatchedTermsOf,
} from "../../src/corrective/borderline.js";
import { WEAK_BEST_SCORE } from "../../src/knowledge-tool/weakness.js";

const clear = { weak: false, hitCount: 3, hitsWithoutRelevance: 0 };

describe("isBorderline (grader auto: weak or just above the weak line, unless the index already says which words no document has)", () => {
  it("a weak result is borderline, with hits or none (a 'No results' search)", () => {
    expect(isBorderline({ ...clear, weak: true, bestRelevance: 0.3 })).toBe(true);
    expect(isBorderline({ weak: true, hitCount: 0, hitsWithoutRelevance: 0 })).toBe(true);
    expect(isBorderline({ ...clear, weak: true, bestRelevance: 0.3, unmatchedTerms: 0 })).toBe(true);
  });

  it("a query in another language than the documents is borderline whatever it scored, unmatched words or not", () => {
    expect(isBorderline({ ...clear, bestRelevance: 0.95, languageMismatch: true })).toBe(true);
    expect(
      isBorderline({ ...clear, weak: true, bestRelevance: 0.2, unmatchedTerms: 3, languageMismatch: true }),
    ).toBe(true);
    expect(isBorderline({ ...clear, bestRelevance: 0.95, languageMismatch: false })).toBe(false);
  });

  it("a weak result whose query holds words no document contains stays with the signal", () => {
    expect(isBorderline({ ...clear, weak: true, bestRelevance: 0.3, unmatchedTerms: 1 })).toBe(false);
  });

  it("a result just above the weak line is borderline: a near miss and a found answer score alike there", () => {
    expect(AUTO_ASK_BELOW).toBeGreaterThan(WEAK_BEST_SCORE);
    expect(isBorderline({ ...clear, bestRelevance: WEAK_BEST_SCORE })).toBe(true);
    expect(isBorderline({ ...clear, bestRelevance: (WEAK_BEST_SCORE + AUTO_ASK_BELOW) / 2 })).toBe(true);
    expect(isBorderline({ ...clear, bestRelevance: 0.5 })).toBe(false);
    expect(isBorderline({ ...clear, bestRelevance: 0.5, unmatchedTerms: 2 })).toBe(false);
  });

  it("a result the signal is confident about stays with the signal, and so does one with no readable relevance", () => {
    expect(isBorderline({ ...clear, bestRelevance: AUTO_ASK_BELOW })).toBe(false);
    expect(isBorderline({ ...clear, bestRelevance: 0.9 })).toBe(false);
    expect(isBorderline({ ...clear })).toBe(false);
    expect(isBorderline({ ...clear, bestRelevance: Number.NaN })).toBe(false);
    expect(isBorderline({ weak: false, hitCount: 0, hitsWithoutRelevance: 0, bestRelevance: 0.5 })).toBe(
      false,
    );
  });
});

describe("responseEvidence (the orchestrator's and eval's reading of an in-process response)", () => {
  const hit = { collection: "c", id: "d", title: "D", relevance: 0.2, band: "low" as const };
  const weak = { query: "q", results: [hit], bestScore: 0.2, reranked: false };

  it("counts the words no document contains, so auto leaves that search to the signal", () => {
    const evidence = responseEvidence({ ...weak, retryHints: { unmatchedTerms: ["stock", "", 7] as never } });
    expect(evidence).toEqual({
      weak: true,
      hitCount: 1,
      bestRelevance: 0.2,
      hitsWithoutRelevance: 0,
      unmatchedTerms: 1,
    });
    expect(isBorderline(evidence)).toBe(false);
    expect(isBorderline(responseEvidence(weak))).toBe(true);
  });

  it("an empty response is weak; a confident one is not", () => {
    expect(responseEvidence({ ...weak, results: [], bestScore: 0 }).weak).toBe(true);
    expect(responseEvidence({ ...weak, bestScore: 0.7 }).weak).toBe(false);
  });
});

describe("unmatchedTermsOf", () => {
  it("keeps non-empty strings only, and nothing without hints", () => {
    expect(unmatchedTermsOf({ unmatchedTerms: ["a", "", 3, "b"] as never })).toEqual(["a", "b"]);
    expect(unmatchedTermsOf(undefined)).toEqual([]);
    expect(unmatchedTermsOf({ unmatchedTerms: "a" as never })).toEqual([]);
  });
});
