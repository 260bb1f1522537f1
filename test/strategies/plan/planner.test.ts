// docs/reference/vectorless-strategies.md §12.7 (planner).
import { describe, expect, it } from "vitest";
import { Planner, parsePlan } from "../../../src/strategies/plan/planner.js";
import { ScriptedLlm } from "../../support/scripted-llm.js";

const plan = (o: object = {}) =>
  JSON.stringify({ intent: "factual_lookup", entities: ["Atlas", "2024"], is_multi_hop: false, ...o });

describe("planner", () => {
  it("PlannerHappyPath", async () => {
    const llm = new ScriptedLlm([plan()]);
    const r = await new Planner(llm).plan("What did Atlas earn in 2024?");
    expect(r.plan).toMatchObject({
      intent: "factual_lookup",
      entities: ["Atlas", "2024"],
      isMultiHop: false,
    });
    expect(r.usage.llmCalls).toBe(1);
  });

  it("PlannerCacheHitSkipsLLM", async () => {
    const llm = new ScriptedLlm([plan()]);
    const planner = new Planner(llm);
    await planner.plan("q1");
    const second = await planner.plan("q1");
    expect(llm.calls).toBe(1);
    expect(second.usage.llmCalls).toBe(0);
    expect(second.usage.totalTokens).toBe(0);
    expect(planner.stats().hits).toBe(1);
  });

  it("PlannerCacheMissOnDifferentQuery", async () => {
    const llm = new ScriptedLlm([plan()], "m", { repeatLast: true });
    const planner = new Planner(llm);
    await planner.plan("q1");
    await planner.plan("q2");
    expect(llm.calls).toBe(2);
  });

  it("PlannerConcurrentSameQuery: 16 concurrent identical queries → 1 call", async () => {
    const llm = new ScriptedLlm([plan()], "m", { repeatLast: true });
    const planner = new Planner(llm);
    const all = await Promise.all(Array.from({ length: 16 }, () => planner.plan("same")));
    expect(llm.calls).toBe(1);
    expect(all.every((r) => r.plan?.intent === "factual_lookup")).toBe(true);
  });

  it("PlannerRetryOnBadJSON: 3 prose replies → null plan, no error, 3 calls", async () => {
    const llm = new ScriptedLlm(["nope"], "m", { repeatLast: true });
    const r = await new Planner(llm).plan("q");
    expect(r.plan).toBeNull();
    expect(llm.calls).toBe(3);
    expect(r.usage.llmCalls).toBe(3);
  });

  it("PlannerSucceedsAfterRetry", async () => {
    const r = await new Planner(new ScriptedLlm(["prose", plan()])).plan("q");
    expect(r.plan).not.toBeNull();
    expect(r.usage.llmCalls).toBe(2);
  });

  it("PlannerTransportErrorBubbles", async () => {
    await expect(new Planner(new ScriptedLlm([new Error("provider 500")])).plan("q")).rejects.toThrow(
      /provider 500/,
    );
  });

  it("PlannerEmptyQueryNoOp and NilPlannerSafe", async () => {
    const llm = new ScriptedLlm([]);
    expect((await new Planner(llm).plan("   ")).plan).toBeNull();
    expect(llm.calls).toBe(0);
    const none = await new Planner(undefined).plan("q");
    expect(none).toEqual({
      plan: null,
      usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0, llmCalls: 0 },
    });
  });

  it("ParsePlanCleansData", () => {
    const r = parsePlan(
      '```json\n{"intent":"  comparison ","entities":["A"," ",""],"is_multi_hop":true,"sub_questions":["x?","  ","y?"]}\n```',
    );
    if (!r.ok) throw new Error(r.error);
    expect(r.plan.intent).toBe("comparison");
    expect(r.plan.entities).toEqual(["A"]);
    expect(r.plan.subQuestions).toEqual(["x?", "y?"]);
    expect(r.plan.isMultiHop).toBe(true);
  });

  it("ParsePlanSelfCorrectsMultiHopWithoutSubs", () => {
    const r = parsePlan('{"intent":"comparison","is_multi_hop":true,"sub_questions":[]}');
    expect(r.ok && r.plan.isMultiHop).toBe(false);
    expect(parsePlan("").ok).toBe(false);
  });

  it("PlannerCacheImmutability", async () => {
    const planner = new Planner(new ScriptedLlm([plan()]));
    const first = await planner.plan("q");
    first.plan!.entities!.push("MUTATED");
    first.plan!.intent = "changed";
    const second = await planner.plan("q");
    expect(second.plan!.entities).toEqual(["Atlas", "2024"]);
    expect(second.plan!.intent).toBe("factual_lookup");
  });

  it("expired entries miss (TTL)", async () => {
    let now = 0;
    const llm = new ScriptedLlm([plan()], "m", { repeatLast: true });
    const planner = new Planner(llm, { ttlMs: 1000, now: () => now });
    await planner.plan("q");
    now = 2000;
    await planner.plan("q");
    expect(llm.calls).toBe(2);
  });
});
