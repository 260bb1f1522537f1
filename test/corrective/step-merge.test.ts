import { describe, expect, it } from "vitest";
import {
  fuseRound,
  isUnconvincing,
  mergeStep,
  REASON_REQUERY_WEAK,
} from "../../src/corrective/corrective-pass.js";
import type { RequerySpan } from "../../src/telemetry/tool-span.js";
import { hit, response, stubBackend } from "./corrective-fixtures.js";
import { passOver } from "./pass-support.js";

const backend = stubBackend(() => response("x", []));
const answer = (query: string, ...hits: ReturnType<typeof hit>[]) => ({
  query,
  origin: "broader",
  response: response(query, hits),
});
const round = (): RequerySpan & { succeededWith?: unknown } => {
  const span = {
    succeededWith: undefined as unknown,
    succeeded: (result: unknown) => {
      span.succeededWith = result;
    },
    failed: () => undefined,
    candidateFailed: () => undefined,
  };
  return span as unknown as RequerySpan & { succeededWith?: unknown };
};
const plan = {
  candidates: [{ query: "a", origin: "broader" }],
  collections: ["wiki"],
  fromModel: false,
  tried: new Set<string>(),
};
const insufficient = { verdict: "insufficient" as const, reason: "weak" };

describe("fuseRound", () => {
  it("keeps only hits not already shown", () => {
    const { fused, fresh } = fuseRound(
      { answered: [answer("a", hit("wiki", "1", "Old", 0.9), hit("wiki", "2", "New", 0.8))] },
      new Set(["wiki/1"]),
    );
    expect(fused).toHaveLength(2);
    expect(fresh.map((h) => h.id)).toEqual(["2"]);
  });
});

describe("isUnconvincing", () => {
  it("a signal rescue is unless a re-query reaches the high band; a model's re-query never is", () => {
    expect(isUnconvincing([answer("a", hit("wiki", "2", "T", 0.2))], false)).toBe(true);
    expect(isUnconvincing([answer("a", hit("wiki", "2", "T", 0.2))], true)).toBe(false);
    expect(isUnconvincing([answer("a", hit("wiki", "2", "T", 0.5))], false)).toBe(true);
    expect(
      isUnconvincing(
        [answer("a", hit("wiki", "2", "T", 0.5)), answer("b", hit("wiki", "3", "U", 0.7))],
        false,
      ),
    ).toBe(false);
  });
});

describe("mergeStep", () => {
  it("appends the fresh hits under a note, counts them as shown and re-reads the result", () => {
    const start = passOver(response("q", [hit("wiki", "1", "Old", 0.2)]), { backend });
    const pass = { ...start, retries: 1 };
    const before = pass.body;
    const span = round();
    const merged = mergeStep(
      pass,
      plan,
      { round: span, answered: [answer("a", hit("wiki", "2", "Fresh", 0.9))] },
      insufficient,
    );
    expect(merged.outcome).toBe("appended");
    expect(merged.pass.body).not.toBe(before);
    expect(merged.pass.body).toContain("Old");
    expect(merged.pass.body).toContain("[corrective retrieval — re-query #1");
    expect(merged.pass.body).toContain("Fresh");
    expect(merged.pass).toMatchObject({ changed: true, hitsShown: 2, newHits: [1] });
    expect(merged.pass.known.has("wiki/2")).toBe(true);
    expect(merged.pass.reading.signalGrade.verdict).toBe("correct");
    expect(span.succeededWith).toEqual({ queries: ["a"], newHits: 1 });
  });

  it("drops every hit outside the call's scope, whatever the backend answered", () => {
    const start = passOver(response("q", [hit("wiki", "1", "Old", 0.2)]), {
      backend,
      allowedCollections: ["wiki"],
    });
    const pass = { ...start, retries: 1 };
    const leaked = (n: number) => hit("hr", `secret-${n}`, `Secret ${n}`, 0.99);
    const { outcome, pass: after } = mergeStep(
      pass,
      plan,
      {
        round: round(),
        answered: [answer("a", leaked(1), hit("wiki", "2", "Fresh", 0.9)), answer("b", leaked(2))],
        continuation: answer("q", leaked(3)),
      },
      insufficient,
    );
    expect(outcome).toBe("appended");
    expect(after.body).toContain("Fresh");
    expect(after.body).not.toContain("Secret");
    expect(after.body).not.toContain("hr");
    expect(after.added.map((h) => `${h.collection}/${h.id}`)).toEqual(["wiki/2"]);
  });

  it("a round whose every hit is outside the scope appends nothing", () => {
    const start = passOver(response("q", [hit("wiki", "1", "Old", 0.2)]), {
      backend,
      allowedCollections: ["wiki"],
    });
    const pass = { ...start, retries: 1 };
    const { outcome, pass: after } = mergeStep(
      pass,
      { ...plan, fromModel: true },
      { round: round(), answered: [answer("a", hit("Wiki", "9", "Secret", 0.99))] },
      insufficient,
    );
    expect(outcome).not.toBe("appended");
    expect(after.body).not.toContain("Secret");
    expect(after.body).not.toContain("`9`");
    expect(after.added).toEqual([]);
  });

  it("an unconvincing round stops, appends nothing new and records why", () => {
    const start = passOver(response("q", [hit("wiki", "1", "Old", 0.2)]), { backend });
    const pass = { ...start, retries: 1 };
    const { outcome, pass: after } = mergeStep(
      pass,
      plan,
      { round: round(), answered: [answer("a", hit("wiki", "2", "T", 0.2))] },
      insufficient,
    );
    expect(outcome).toBe("stop");
    expect(after).toMatchObject({ newHits: [0], verdicts: ["insufficient"], reasons: [REASON_REQUERY_WEAK] });
  });

  it("nothing new: the text stands and another round may run", () => {
    const start = passOver(response("q", [hit("wiki", "1", "Old", 0.9)]), { backend });
    const pass = { ...start, retries: 1 };
    const before = pass.body;
    const merged = mergeStep(
      pass,
      plan,
      { round: round(), answered: [answer("a", hit("wiki", "1", "Old", 0.9))] },
      insufficient,
    );
    expect(merged.outcome).toBe("unchanged");
    expect(merged.pass.body).toBe(before);
    expect(merged.pass.reasons).toEqual(['re-queries "a" added no new results']);
  });
});
