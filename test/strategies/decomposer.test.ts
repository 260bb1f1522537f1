// Reference §12.8 (decomposer).
import { describe, expect, it } from "vitest";
import { DecomposeError, decomposeAndSelect } from "../../src/strategies/decomposer.js";
import type { QueryPlan } from "../../src/strategies/planner.js";
import { Planner } from "../../src/strategies/planner.js";
import { SinglePassStrategy } from "../../src/strategies/single-pass.js";
import type { Strategy, StrategyResult } from "../../src/strategies/strategy.js";
import { ScriptedLlm } from "../support/scripted-llm.js";
import { t3 } from "./fixtures.js";

const usage = { inputTokens: 10, outputTokens: 4, totalTokens: 14, llmCalls: 1 };

function fake(answers: Record<string, string[] | Error>, withUsage = true): Strategy & { queries: string[] } {
  const queries: string[] = [];
  return {
    name: "fake",
    queries,
    async select(_tree, query): Promise<StrategyResult> {
      queries.push(query);
      const a = answers[query] ?? [];
      if (a instanceof Error) throw a;
      return {
        selectedIds: a,
        confidences: null,
        usage: withUsage ? { ...usage } : { inputTokens: 0, outputTokens: 0, totalTokens: 0, llmCalls: 0 },
        hopsTaken: 1,
      };
    },
  };
}

const multi = (subs: string[]): QueryPlan => ({
  intent: "comparison",
  entities: null,
  expectedDocAreas: null,
  isMultiHop: true,
  subQuestions: subs,
});

describe("decomposer", () => {
  it("FallthroughOnNilPlan / NonMultiHop / EmptySubQuestions: one call on the original query", async () => {
    for (const plan of [null, { ...multi(["x"]), isMultiHop: false }, multi([])]) {
      const s = fake({ orig: ["a"] });
      const r = await decomposeAndSelect(s, t3(), "orig", plan);
      expect(s.queries).toEqual(["orig"]);
      expect(r.selectedIds).toEqual(["a"]);
      expect(r.usage.totalTokens).toBe(14);
    }
  });

  it("PerSubQuestionDispatch: 3 subs in order, union, usage × 3", async () => {
    const s = fake({ s1: ["a"], s2: ["b"], s3: ["c"] });
    const r = await decomposeAndSelect(s, t3(), "orig", multi(["s1", "s2", "s3"]));
    expect(s.queries).toEqual(["s1", "s2", "s3"]);
    expect(r.selectedIds).toEqual(["a", "b", "c"]);
    expect(r.usage.totalTokens).toBe(42);
    expect(r.usage.llmCalls).toBe(3);
  });

  it("UnionDedup: {a,b}, {b,c}, {a} → [a, b, c]", async () => {
    const r = await decomposeAndSelect(
      fake({ s1: ["a", "b"], s2: ["b", "c"], s3: ["a"] }),
      t3(),
      "o",
      multi(["s1", "s2", "s3"]),
    );
    expect(r.selectedIds).toEqual(["a", "b", "c"]);
  });

  it("ErrorShortCircuits: sub2 fails → wrapped error with partial usage; sub3 never runs", async () => {
    const s = fake({ s1: ["a"], s2: new Error("boom"), s3: ["c"] });
    const error = await decomposeAndSelect(s, t3(), "o", multi(["s1", "s2", "s3"])).catch((e) => e);
    expect(error).toBeInstanceOf(DecomposeError);
    expect(error.message).toContain('decompose "s2": boom');
    expect(error.cause.message).toBe("boom");
    expect(error.partial.usage.llmCalls).toBe(1);
    expect(error.partial.selectedIds).toEqual(["a"]);
    expect(s.queries).toEqual(["s1", "s2"]);
  });

  it("NonCostStrategy: zero usage passes through", async () => {
    const r = await decomposeAndSelect(fake({ s1: ["a"] }, false), t3(), "o", multi(["s1"]));
    expect(r.selectedIds).toEqual(["a"]);
    expect(r.usage.totalTokens).toBe(0);
  });

  it("NilStrategyErrors", async () => {
    await expect(decomposeAndSelect(undefined, t3(), "q", null)).rejects.toThrow();
  });

  it("PlannerPlusDecomposerEndToEnd: a real single-pass over a scripted model", async () => {
    const planLlm = new ScriptedLlm([
      JSON.stringify({
        intent: "comparison",
        is_multi_hop: true,
        sub_questions: ["What about Setup?", "What about FAQ?"],
      }),
    ]);
    const { plan } = await new Planner(planLlm).plan("Compare setup with the FAQ");
    const llm = new ScriptedLlm((req) => {
      const q = req.messages[0]!.content.split("User query:\n")[1] ?? "";
      return JSON.stringify({ selected_section_ids: [q.includes("Setup") ? "sec_a" : "sec_c"] });
    });
    const r = await decomposeAndSelect(new SinglePassStrategy(llm), t3(), "Compare setup with the FAQ", plan);
    expect(r.selectedIds).toEqual(["sec_a", "sec_c"]);
    expect(llm.calls).toBe(2);
  });
});
