import { describe, expect, it } from "vitest";
import {
  chooseRequery,
  REASON_KEY_TERM_ABSENT,
  REASON_NO_CANDIDATE,
} from "../../src/corrective/corrective-pass.js";
import { hit, response, stubBackend } from "./corrective-fixtures.js";
import { passOver } from "./pass-support.js";

const backend = stubBackend(() => response("x", []), ["wiki", "handbook"]);
const insufficient = { verdict: "insufficient" as const, reason: "weak" };

describe("chooseRequery", () => {
  it("the signal's candidates from the hints, over the allow-list, counted as tried", () => {
    const pass = passOver(
      response("vacation days", [hit("wiki", "1", "A", 0.2)], { broaderQuery: "vacation" }),
      {
        backend,
      },
    );
    const plan = chooseRequery(pass, insufficient);
    expect(plan).toEqual({
      candidates: [{ query: "vacation", origin: expect.any(String) }],
      collections: ["wiki", "handbook"],
      fromModel: false,
      tried: expect.any(Set),
    });
    expect("tried" in plan && plan.tried.has("vacation")).toBe(true);
  });

  it("a key word no document holds on a first round: stop, owing the not-covered line", () => {
    const pass = passOver(response("zyx", [], { unmatchedTerms: ["zyx"], unmatchedShare: 1 }), { backend });
    expect(chooseRequery(pass, insufficient)).toEqual({
      stop: REASON_KEY_TERM_ABSENT,
      notCovered: { reason: REASON_KEY_TERM_ABSENT, terms: ["zyx"] },
    });
  });

  it("an unmatched word of unknown or small weight and no candidate: stop, owing no not-covered line", () => {
    for (const hints of [{ unmatchedTerms: ["zyx"] }, { unmatchedTerms: ["zyx"], unmatchedShare: 0.1 }]) {
      const pass = passOver(response("zyx", [], hints), { backend });
      expect(chooseRequery(pass, insufficient)).toEqual({ stop: REASON_NO_CANDIDATE });
    }
  });

  it("a model grade with no query of its own: stop with the model's reason", () => {
    const pass = {
      ...passOver(response("q", [hit("wiki", "1", "A", 0.2)], { broaderQuery: "other" }), { backend }),
      gradedByModel: true,
    };
    expect(chooseRequery(pass, { verdict: "insufficient", reason: "silent on it" })).toMatchObject({
      notCovered: { reason: "silent on it", terms: [] },
    });
  });

  it("a search scoped outside the allow-list has nowhere to re-query", () => {
    const pass = passOver(response("q", [hit("elsewhere", "1", "A", 0.2)], { broaderQuery: "other" }), {
      backend,
      originalCollections: ["elsewhere"],
    });
    const decision = chooseRequery(pass, insufficient);
    expect(decision).toHaveProperty("stop");
    expect(decision).not.toHaveProperty("notCovered");
  });
});
