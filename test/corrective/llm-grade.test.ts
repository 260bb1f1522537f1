import { describe, expect, it } from "vitest";
import {
  gradeWithModel,
  normalizeGrade,
  REASON_GRADER_UNAVAILABLE,
  REASON_GRADER_UNPARSEABLE,
} from "../../src/corrective/llm-grade.js";
import { silent } from "./corrective-fixtures.js";

const input = { question: "q", text: "t", digestSource: "t", collections: ["wiki"] };

describe("normalizeGrade", () => {
  it("keeps a valid verdict and drops the query fields of a 'correct' one", () => {
    expect(
      normalizeGrade({
        verdict: "correct",
        reason: " covered ",
        rewrittenQuery: "x",
        suggestedCollection: "c",
      }),
    ).toEqual({
      verdict: "correct",
      reason: "covered",
    });
  });

  it("trims the rewrite and collection of non-correct verdicts; drops blank or oversized ones", () => {
    expect(
      normalizeGrade({
        verdict: "ambiguous",
        reason: "r",
        rewrittenQuery: " LA_BUC_02 SED list ",
        suggestedCollection: " confluence ",
      }),
    ).toEqual({
      verdict: "ambiguous",
      reason: "r",
      rewrittenQuery: "LA_BUC_02 SED list",
      suggestedCollection: "confluence",
    });
    expect(normalizeGrade({ verdict: "insufficient", rewrittenQuery: "  ", suggestedCollection: 4 })).toEqual(
      {
        verdict: "insufficient",
        reason: "results do not clearly cover the question",
      },
    );
    expect(
      normalizeGrade({ verdict: "insufficient", reason: "r", rewrittenQuery: "x".repeat(5_000) }),
    ).toEqual({
      verdict: "insufficient",
      reason: "r",
    });
  });

  it("anything that is not a grade is 'correct' (unparseable)", () => {
    for (const raw of [null, "insufficient", 42, {}, { verdict: "garbage" }, { verdict: 1 }]) {
      expect(normalizeGrade(raw)).toEqual({ verdict: "correct", reason: REASON_GRADER_UNPARSEABLE });
    }
  });
});

describe("gradeWithModel", () => {
  it("passes the inputs and an abort signal through", async () => {
    let seen: unknown;
    const grade = await gradeWithModel(
      async (i) => {
        seen = i;
        return { verdict: "ambiguous", reason: "r" };
      },
      input,
      { timeoutMs: 1_000, log: silent },
    );
    expect(grade).toEqual({ verdict: "ambiguous", reason: "r" });
    expect(seen).toMatchObject(input);
    expect((seen as { signal: AbortSignal }).signal).toBeInstanceOf(AbortSignal);
  });

  it("a throw (sync or async), a timeout or an abort means 'correct'", async () => {
    const cases = [
      () => {
        throw new Error("sync");
      },
      async () => {
        throw new Error("async");
      },
      () => new Promise<never>(() => {}),
    ];
    for (const fn of cases) {
      expect(await gradeWithModel(fn as never, input, { timeoutMs: 20, log: silent })).toEqual({
        verdict: "correct",
        reason: REASON_GRADER_UNAVAILABLE,
      });
    }
    const controller = new AbortController();
    const pending = gradeWithModel(() => new Promise<never>(() => {}), input, {
      timeoutMs: 60_000,
      signal: controller.signal,
      log: silent,
    });
    controller.abort();
    expect((await pending).verdict).toBe("correct");
  });

  it("the grader's own signal fires when its time is up", async () => {
    let aborted = false;
    await gradeWithModel(
      ({ signal }) =>
        new Promise<never>(() => {
          signal?.addEventListener("abort", () => {
            aborted = true;
          });
        }),
      input,
      { timeoutMs: 10, log: silent },
    );
    expect(aborted).toBe(true);
  });
});
