import { describe, expect, it } from "vitest";
import { analyzerFor } from "../../../src/knowledge/analysis/registry.js";
import { feedbackHints } from "../../../src/knowledge/hints/feedback-hints.js";
import { retryHints } from "../../../src/knowledge/hints/retry-hints.js";

const expansion = [
  { termId: 1, term: "holidai", weight: 0.4 },
  { termId: 2, term: "allow", weight: 0.3 },
  { termId: 3, term: "leav", weight: 0.2 },
  { termId: 4, term: "25", weight: 0.1 },
];
const en = analyzerFor("en");
const text = ["Holiday allowance: 25 days of annual leave. Holidays are booked in the portal."];

describe("feedbackHints", () => {
  it("offers the corpus's words for the topic that the query lacks, as surface words", () => {
    const hints = feedbackHints("annual leave", expansion, text, en);
    expect(hints.relatedTerms).toEqual(["holiday", "allowance"]);
    expect(hints.narrowerQuery).toBe("annual leave holiday allowance");
    expect(hints.narrowerQueryStrategy).toBe("feedback_terms");
  });

  it("offers nothing when every feedback term is already in the query", () => {
    expect(feedbackHints("holiday allowance leave", expansion.slice(0, 3), text, en)).toEqual({});
  });
});

describe("retryHints", () => {
  it("combines Huginn's broader rule with corpus hints, naming each strategy", () => {
    const hints = retryHints(
      "annual leave carry over rules",
      feedbackHints("annual leave carry over rules", expansion, text, en),
      en,
    );
    expect(hints).toMatchObject({
      // "over" is an English filler word (the collection's stopwords), trimmed once "rules" is dropped.
      broaderQuery: "annual leave carry",
      broaderQueryStrategy: "drop_last_word",
      narrowerQueryStrategy: "feedback_terms",
    });
  });

  it("is undefined when there is nothing to offer", () => {
    expect(retryHints("vpn", {}, en)).toBeUndefined();
  });
});
