import { describe, expect, it } from "vitest";
import {
  AUTO_ASK_BELOW,
  AUTO_BAND_TOP,
  AUTO_MAX_GAP,
  isBorderline,
  responseEvidence,
  unmatchedTermsOf,
} from "../../src/corrective/signal-grader.js";
import { WEAK_BEST_SCORE } from "../../src/weakness.js";

const clear = { weak: false, hitCount: 3, hitsWithoutRelevance: 0 };

describe("isBorderline (grader auto: weak, another language, or a middling top hit that barely outscores the next)", () => {
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

  it("a weak result whose query holds words no document contains is left to the signal's not-covered evidence", () => {
    expect(isBorderline({ ...clear, weak: true, bestRelevance: 0.2, unmatchedTerms: 1 })).toBe(false);
    expect(isBorderline({ ...clear, weak: true, bestRelevance: 0.2, unmatchedTerms: 0 })).toBe(true);
    expect(isBorderline({ ...clear, weak: false, bestRelevance: 0.9, unmatchedTerms: 2 })).toBe(false);
  });

  it("a top hit in the borderline band that barely outscores the second is asked about; one that stands out is not", () => {
    expect(AUTO_BAND_TOP).toBeGreaterThan(AUTO_ASK_BELOW);
    const inBand = (AUTO_ASK_BELOW + AUTO_BAND_TOP) / 2;
    expect(
      isBorderline({ ...clear, bestRelevance: inBand, secondRelevance: inBand - AUTO_MAX_GAP / 2 }),
    ).toBe(true);
    expect(isBorderline({ ...clear, bestRelevance: WEAK_BEST_SCORE, secondRelevance: WEAK_BEST_SCORE })).toBe(
      true,
    );
    // A clear lead over the second hit: the signal keeps it, even low in the band.
    expect(
      isBorderline({ ...clear, bestRelevance: inBand, secondRelevance: inBand - AUTO_MAX_GAP * 2 }),
    ).toBe(false);
    expect(isBorderline({ ...clear, bestRelevance: WEAK_BEST_SCORE + 0.01, secondRelevance: 0 })).toBe(false);
    // Above the band, near-equal hits are both good: no call.
    expect(isBorderline({ ...clear, bestRelevance: AUTO_BAND_TOP, secondRelevance: AUTO_BAND_TOP })).toBe(
      false,
    );
    expect(isBorderline({ ...clear, bestRelevance: 0.8, secondRelevance: 0.79 })).toBe(false);
  });

  it("without the second hit's relevance (a text result), the band just above the weak line decides", () => {
    expect(AUTO_ASK_BELOW).toBeGreaterThan(WEAK_BEST_SCORE);
    expect(isBorderline({ ...clear, bestRelevance: WEAK_BEST_SCORE })).toBe(true);
    expect(isBorderline({ ...clear, bestRelevance: (WEAK_BEST_SCORE + AUTO_ASK_BELOW) / 2 })).toBe(true);
    expect(isBorderline({ ...clear, bestRelevance: 0.5 })).toBe(false);
    expect(isBorderline({ ...clear, bestRelevance: 0.5, unmatchedTerms: 2 })).toBe(false);
    expect(isBorderline({ ...clear, bestRelevance: 0.28, secondRelevance: Number.NaN })).toBe(true);
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

  it("counts the words no document contains and reads the second-best relevance (0 with one hit)", () => {
    const evidence = responseEvidence({ ...weak, retryHints: { unmatchedTerms: ["stock", "", 7] as never } });
    expect(evidence).toEqual({
      weak: true,
      hitCount: 1,
      bestRelevance: 0.2,
      hitsWithoutRelevance: 0,
      unmatchedTerms: 1,
      secondRelevance: 0,
    });
    // A word no document holds is the signal's evidence of absence: no model call.
    expect(isBorderline(evidence)).toBe(false);
  });

  it("asks on a middling top hit with a close second, not on the same top hit standing alone", () => {
    const top = { ...hit, id: "a", relevance: 0.35, band: "medium" as const };
    const close = { ...hit, id: "b", relevance: 0.33, band: "medium" as const };
    const far = { ...hit, id: "c", relevance: 0.1 };
    // Ranked out of relevance order: the second-best relevance is read, not the second rank.
    const near = responseEvidence({ ...weak, results: [top, far, close], bestScore: 0.35 });
    expect(near.secondRelevance).toBe(0.33);
    expect(isBorderline(near)).toBe(true);
    const alone = responseEvidence({ ...weak, results: [top, far], bestScore: 0.35 });
    expect(alone.weak).toBe(false);
    expect(isBorderline(alone)).toBe(false);
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
