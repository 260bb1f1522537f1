import { describe, expect, it } from "vitest";
import {
  AUTO_ABSENCE_SHARE,
  AUTO_SPREAD_OFFSET,
  AUTO_SPREAD_PER_KEY_TERM,
  autoAsksOnCoverage,
  hasCoverage,
} from "../../src/corrective/auto-ask-rule.js";
import { isBorderline, responseEvidence } from "../../src/corrective/signal-grader.js";
import type { Hit, SearchResponse } from "../../src/types.js";

const clear = {
  weak: false,
  hitCount: 5,
  bestRelevance: 0.6,
  fifthRelevance: 0.1,
  keyTermsInTopHit: 1,
  unmatchedShare: 0,
};
/** The widest spread of the top five still asked about, for a top hit holding this share of the key terms. */
const allowance = (key: number) => AUTO_SPREAD_PER_KEY_TERM * key - AUTO_SPREAD_OFFSET;

describe("auto's ask rule on a search that reports its query coverage", () => {
  it("asks about a weak search unless the words no document holds carry much of the query", () => {
    const weak = { ...clear, weak: true, bestRelevance: 0.2, fifthRelevance: 0, keyTermsInTopHit: 0 };
    expect(autoAsksOnCoverage({ ...weak, unmatchedShare: 0 })).toBe(true);
    // One minor word of a long question is in no document: still a miss worth a model call.
    expect(autoAsksOnCoverage({ ...weak, unmatchedShare: AUTO_ABSENCE_SHARE / 2 })).toBe(true);
    // Most of the query is in no document: the signal's evidence of absence, no call.
    expect(autoAsksOnCoverage({ ...weak, unmatchedShare: AUTO_ABSENCE_SHARE })).toBe(false);
    expect(autoAsksOnCoverage({ ...weak, unmatchedShare: 0.8 })).toBe(false);
  });

  it("asks when the top five lie close together and the top hit holds the query's key words", () => {
    const close = allowance(1) - 0.01;
    expect(autoAsksOnCoverage({ ...clear, bestRelevance: 0.5, fifthRelevance: 0.5 - close })).toBe(true);
    // The same spread for a top hit lacking half the key words: left to the signal.
    expect(
      autoAsksOnCoverage({
        ...clear,
        bestRelevance: 0.5,
        fifthRelevance: 0.5 - close,
        keyTermsInTopHit: 0.5,
      }),
    ).toBe(false);
    // A top hit that stands out from the fifth: left to the signal.
    expect(autoAsksOnCoverage({ ...clear, bestRelevance: 0.8, fifthRelevance: 0.8 - allowance(1) })).toBe(
      false,
    );
  });

  it("never asks on spread about a top hit holding too few of the key words, however flat the list", () => {
    const few = AUTO_SPREAD_OFFSET / AUTO_SPREAD_PER_KEY_TERM;
    expect(
      autoAsksOnCoverage({ ...clear, bestRelevance: 0.4, fifthRelevance: 0.4, keyTermsInTopHit: few }),
    ).toBe(false);
    expect(
      autoAsksOnCoverage({ ...clear, bestRelevance: 0.4, fifthRelevance: 0.4, keyTermsInTopHit: 0 }),
    ).toBe(false);
  });

  it("the spread rule holds for a weak search too: a flat list whose top hit holds the key words is asked about", () => {
    const weak = { ...clear, weak: true, bestRelevance: 0.22, fifthRelevance: 0.2, unmatchedShare: 0.5 };
    expect(autoAsksOnCoverage(weak)).toBe(true);
    expect(autoAsksOnCoverage({ ...weak, keyTermsInTopHit: 0.2 })).toBe(false);
  });

  it("is the rule only where every value it reads is known and in 0..1", () => {
    expect(hasCoverage(clear)).toBe(true);
    const { keyTermsInTopHit: _key, ...noKey } = clear;
    expect(hasCoverage(noKey)).toBe(false);
    const { fifthRelevance: _fifth, ...noFifth } = clear;
    expect(hasCoverage(noFifth)).toBe(false);
    expect(hasCoverage({ ...clear, unmatchedShare: Number.NaN })).toBe(false);
    expect(hasCoverage({ ...clear, keyTermsInTopHit: 1.5 })).toBe(false);
  });
});

describe("isBorderline on an in-process response that reports its query coverage", () => {
  const hit = (id: string, relevance: number): Hit => ({
    collection: "c",
    id,
    title: id.toUpperCase(),
    relevance,
    band: relevance >= 0.65 ? "high" : relevance >= 0.2 ? "medium" : "low",
  });
  const response = (relevances: number[], coverage?: SearchResponse["queryCoverage"]): SearchResponse => ({
    query: "q",
    results: relevances.map((r, i) => hit(`d${i}`, r)),
    bestScore: relevances[0] ?? 0,
    reranked: false,
    ...(coverage ? { queryCoverage: coverage } : {}),
  });
  const flat = [0.55, 0.5, 0.48, 0.45, 0.4];

  it("reads the fifth relevance and the coverage, and decides by the coverage rule", () => {
    const evidence = responseEvidence(response(flat, { keyTermsInTopHit: 1, unmatchedShare: 0 }));
    expect(evidence).toMatchObject({ fifthRelevance: 0.4, keyTermsInTopHit: 1, unmatchedShare: 0 });
    // Above the old band (0.43) with a clear lead over the second: the band rule would not ask.
    expect(isBorderline(evidence)).toBe(true);
    expect(isBorderline(responseEvidence(response(flat, { keyTermsInTopHit: 0.3, unmatchedShare: 0 })))).toBe(
      false,
    );
  });

  it("with fewer than five hits the fifth relevance is 0, so a lone top hit stands out", () => {
    const evidence = responseEvidence(response([0.5], { keyTermsInTopHit: 1, unmatchedShare: 0 }));
    expect(evidence.fifthRelevance).toBe(0);
    expect(isBorderline(evidence)).toBe(false);
  });

  it("without coverage (a Huginn response) the band rule decides as before", () => {
    const evidence = responseEvidence(response(flat));
    expect(evidence.keyTermsInTopHit).toBeUndefined();
    expect(isBorderline(evidence)).toBe(false);
    expect(isBorderline(responseEvidence(response([0.35, 0.33, 0.1])))).toBe(true);
  });

  it("a query in another language than the documents is asked about whatever the coverage says", () => {
    const evidence = responseEvidence(response([0.9, 0.1], { keyTermsInTopHit: 0, unmatchedShare: 0.9 }));
    expect(isBorderline(evidence)).toBe(false);
    expect(isBorderline({ ...evidence, languageMismatch: true })).toBe(true);
  });
});
