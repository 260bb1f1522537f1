// The signal's free path never misleads: "not covered" only when a key query word (one carrying
// a large share of the query's weight) occurs in no document, and a re-query's hits appended only
// when it beats the original on the original's scale. Both are the failures a new user met on an
// API reference: "connect to a PostgreSQL database" got 5 unrelated hits appended and no "not
// covered"; "write unit tests without installing a framework" was told "not covered".
import { describe, expect, it } from "vitest";
import { isBetterThanOriginal, REASON_KEY_TERM_ABSENT } from "../../src/corrective/corrective-pass.js";
import { KEY_ABSENT_TERM_MIN_SHARE, keyAbsentTermsOf } from "../../src/corrective/signal-grader.js";
import { renderSearchResponse } from "../../src/knowledge-tool/render.js";
import type { RetryHints, SearchResponse } from "../../src/types.js";
import { hit, response, run, stubBackend } from "./corrective-fixtures.js";

const weakOriginal = (query: string, hints: RetryHints): SearchResponse =>
  response(query, [hit("wiki", "1", "Weak", 0.2)], hints);

async function correct(original: SearchResponse, answer: (query: string) => SearchResponse) {
  const backend = stubBackend((r) => answer(r.query));
  const out = await run({
    backend,
    originalQuery: original.query,
    question: original.query,
    originalText: renderSearchResponse(original, { brief: false }),
    originalResponse: original,
  });
  return { out, backend };
}

describe("not covered needs a key word absent from every document", () => {
  it("the subject occurs nowhere: not covered, naming it, and no re-query whose hits answer another question", async () => {
    const original = weakOriginal("connect to a PostgreSQL database", {
      unmatchedTerms: ["postgresql"],
      unmatchedShare: 0.55,
      rescueQueries: [{ query: "connect database", strategy: "drop_unmatched", keptShare: 0.55 }],
    });
    // A re-query would reach the high band: what it finds is about databases, not PostgreSQL.
    const { out, backend } = await correct(original, (q) =>
      response(q, [hit("wiki", "9", "Unrelated", 0.9)]),
    );
    expect(backend.requests).toHaveLength(0);
    expect(out.text).not.toContain("Unrelated");
    expect(out.metadata.notCovered).toEqual({ terms: ["postgresql"], reason: REASON_KEY_TERM_ABSENT });
    expect(out.text.split("\n---\n").at(-1)).toMatch(
      /^\[corrective retrieval — not covered: .*"postgresql"\]$/,
    );
  });

  it("an aside occurs nowhere: 'no better match', never 'not covered'", async () => {
    const original = weakOriginal("write unit tests without installing a framework", {
      unmatchedTerms: ["framework"],
      unmatchedShare: 0.25,
      rescueQueries: [{ query: "write unit tests installing", strategy: "drop_unmatched", keptShare: 0.75 }],
    });
    const { out, backend } = await correct(original, (q) => response(q, [hit("wiki", "2", "Tests", 0.3)]));
    expect(backend.requests.map((r) => r.query)).toEqual(["write unit tests installing"]);
    expect(out.metadata.notCovered).toBeUndefined();
    expect(out.metadata.noBetterMatch).toBeDefined();
    expect(out.text).not.toContain("not covered");
  });

  it("key means the absent words' share of the query's weight at or above the threshold; no share, no evidence", () => {
    const terms = ["zyx"];
    expect(keyAbsentTermsOf({ unmatchedTerms: terms, unmatchedShare: KEY_ABSENT_TERM_MIN_SHARE })).toEqual(
      terms,
    );
    expect(
      keyAbsentTermsOf({ unmatchedTerms: terms, unmatchedShare: KEY_ABSENT_TERM_MIN_SHARE - 0.01 }),
    ).toEqual([]);
    expect(keyAbsentTermsOf({ unmatchedTerms: terms })).toEqual([]);
    // Absent words weigh together: "stock" and "vesting" in "stock options vesting schedule".
    const two = ["stock", "vesting"];
    expect(keyAbsentTermsOf({ unmatchedTerms: two, unmatchedShare: 0.3 })).toEqual(two);
    expect(keyAbsentTermsOf({ unmatchedTerms: two, unmatchedShare: 0.2 })).toEqual([]);
    expect(keyAbsentTermsOf({ unmatchedTerms: terms, unmatchedShare: Number.NaN })).toEqual([]);
  });
});

describe("a re-query's hits are appended only when it beats the original on the original's scale", () => {
  const result = (origin: string, best: number, keptShare?: number) => ({
    query: "q2",
    origin,
    response: response("q2", [hit("wiki", "5", "New", best)]),
    ...(keptShare === undefined ? {} : { keptShare }),
  });

  it("a shorter query's high score, times the share of the query it kept, must beat the original's best", () => {
    expect(isBetterThanOriginal(result("informative_core", 0.7, 0.3), 0.24)).toBe(false);
    expect(isBetterThanOriginal(result("informative_core", 0.7, 0.9), 0.24)).toBe(true);
    expect(isBetterThanOriginal(result("informative_core", 0.6, 1), 0.24)).toBe(false);
  });

  it("a candidate that adds the ranking's own words is no evidence; a footer's, without a share, keeps the high band", () => {
    expect(isBetterThanOriginal(result("feedback_expansion", 0.95, 0.9), 0.1)).toBe(false);
    expect(isBetterThanOriginal(result("feedback_terms", 0.95, 0.9), 0.1)).toBe(false);
    expect(isBetterThanOriginal(result("broader_query", 0.7), 0.2)).toBe(true);
    expect(isBetterThanOriginal(result("broader_query", 0.6), 0.2)).toBe(false);
  });

  it("end to end: an expansion reaching the high band appends nothing; a near-whole query that does, appends", async () => {
    const hints: RetryHints = {
      rescueQueries: [
        { query: "session retry", strategy: "informative_core", keptShare: 0.2 },
        { query: "session retry hdrs req", strategy: "feedback_expansion", keptShare: 0.3 },
      ],
    };
    const answers = (q: string) => response(q, [hit("wiki", q, `Hit ${q}`, 0.8)]);
    const quiet = await correct(weakOriginal("requests session retry with backoff", hints), answers);
    expect(quiet.backend.requests).toHaveLength(2);
    expect(quiet.out.metadata.newHits).toEqual([0]);
    expect(quiet.out.text).not.toContain("## Hit");
    const whole: RetryHints = {
      rescueQueries: [{ query: "session retry exponential", strategy: "drop_common_terms", keptShare: 0.9 }],
    };
    const found = await correct(weakOriginal("requests session retry exponential", whole), answers);
    expect(found.out.text).toContain("## Hit session retry exponential");
  });
});
