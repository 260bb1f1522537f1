// Reference §12.9 (cached wrapper, trace tokens) and §12.5 (auto routing).
import { describe, expect, it } from "vitest";
import { AutoStrategy } from "../../src/strategies/auto-strategy.js";
import { CachedStrategy } from "../../src/strategies/cached-strategy.js";
import { SinglePassStrategy } from "../../src/strategies/single-pass.js";
import type { Strategy, StrategyResult } from "../../src/strategies/strategy.js";
import { computeTraceToken, SYSTEM_PROMPT_VERSION } from "../../src/strategies/trace-token.js";
import { pickingLlm } from "../support/scripted-llm.js";
import { agTree, pagedTree, t3 } from "./fixtures.js";

describe("cached strategy", () => {
  it("CachedHit, CachedSelectWithCostHit, CachedName", async () => {
    const llm = pickingLlm(["sec_b"]);
    const cached = new CachedStrategy(new SinglePassStrategy(llm));
    const miss = await cached.select(t3(), "q");
    const hit = await cached.select(t3(), "q");
    expect(llm.calls).toBe(1);
    expect(miss.usage.llmCalls).toBe(1);
    expect(hit.usage.llmCalls).toBe(0);
    expect(hit.reasoning).toBe("cached");
    expect(hit.selectedIds).toEqual(["sec_b"]);
    expect(cached.name).toBe("single-pass");
  });

  it("CachedDifferentQueryMisses, CachedStats, CachedInvalidateAll", async () => {
    const llm = pickingLlm(["sec_b"]);
    const cached = new CachedStrategy(new SinglePassStrategy(llm), { maxEntries: 50 });
    await cached.select(t3(), "q1");
    await cached.select(t3(), "q2");
    expect(llm.calls).toBe(2);
    await cached.select(t3(), "q1");
    expect(cached.stats()).toMatchObject({ hits: 1, misses: 2, maxEntries: 50 });
    cached.invalidateAll();
    await cached.select(t3(), "q1");
    expect(llm.calls).toBe(3);
  });

  it("errors are not cached", async () => {
    let fail = true;
    const inner: Strategy = {
      name: "x",
      async select(): Promise<StrategyResult> {
        if (fail) throw new Error("down");
        return {
          selectedIds: ["a"],
          confidences: null,
          usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0, llmCalls: 1 },
          hopsTaken: 1,
        };
      },
    };
    const cached = new CachedStrategy(inner);
    await expect(cached.select(t3(), "q")).rejects.toThrow();
    fail = false;
    expect((await cached.select(t3(), "q")).selectedIds).toEqual(["a"]);
  });
});

describe("computeTraceToken", () => {
  const token = computeTraceToken("doc", "1", "m", ["a", "b", "c"]);
  it("shape, determinism, sort invariance, input not mutated", () => {
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(computeTraceToken("doc", "1", "m", ["a", "b", "c"])).toBe(token);
    for (const p of [
      ["c", "b", "a"],
      ["b", "a", "c"],
      ["a", "c", "b"],
    ])
      expect(computeTraceToken("doc", "1", "m", p)).toBe(token);
    const ids = ["b", "a"];
    computeTraceToken("doc", "1", "m", ids);
    expect(ids).toEqual(["b", "a"]);
  });
  it("input sensitivity, delimiter collisions, empty selection, prompt version", () => {
    for (const other of [
      computeTraceToken("doc2", "1", "m", ["a", "b", "c"]),
      computeTraceToken("doc", "2", "m", ["a", "b", "c"]),
      computeTraceToken("doc", "1", "m2", ["a", "b", "c"]),
      computeTraceToken("doc", "1", "m", ["a", "b"]),
      computeTraceToken("doc", "1", "m", ["a", "b", "c", "d"]),
      computeTraceToken("doc", "1", "m", []),
    ]) {
      expect(other).not.toBe(token);
    }
    expect(computeTraceToken("d", "1", "m", ["a,b", "c"])).not.toBe(
      computeTraceToken("d", "1", "m", ["a", "b,c"]),
    );
    expect(computeTraceToken("d", "1", "m", [])).toMatch(/^[0-9a-f]{64}$/);
    expect(SYSTEM_PROMPT_VERSION).toBe("v1");
  });
});

describe("auto routing", () => {
  const named = (name: string): Strategy => ({
    name,
    select: async () => ({
      selectedIds: [name],
      confidences: null,
      usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0, llmCalls: 0 },
      hopsTaken: 1,
    }),
  });
  const withLeafTokens = (tokens: number, paged = true) => {
    const tree = paged ? pagedTree() : agTree();
    const leaves = [
      tree.root!.children[0]!.children[0]!,
      tree.root!.children[0]!.children[1]!,
      tree.root!.children[1]!.children[0]!,
    ];
    for (const l of leaves) l.tokens = 0;
    leaves[0]!.tokens = tokens;
    if (paged) tree.root!.children[1]!.children[1]!.tokens = 0;
    return tree;
  };

  it("RoutesByExplicitThreshold", async () => {
    const auto = new AutoStrategy(named("small"), named("large"), 100);
    expect(auto.route(withLeafTokens(40))?.name).toBe("small");
    expect(auto.route(withLeafTokens(1000))?.name).toBe("large");
  });

  it("DerivesThresholdFromBudget: 1000/200 → 800", () => {
    const auto = new AutoStrategy(named("small"), named("large"));
    const budget = { maxTokens: 1000, reservedForPrompt: 200 };
    expect(auto.route(withLeafTokens(500), budget)?.name).toBe("small");
    expect(auto.route(withLeafTokens(2000), budget)?.name).toBe("large");
  });

  it("Name, NonPagedFallsBackToSmall, NilSafe", async () => {
    const auto = new AutoStrategy(named("small"), named("large"), 100);
    expect(auto.name).toBe("auto");
    expect(auto.route(withLeafTokens(1000, false))?.name).toBe("small");
    const none = new AutoStrategy(undefined, undefined);
    expect((await none.select(pagedTree(), "q")).selectedIds).toEqual([]);
    expect(new AutoStrategy(undefined, named("large")).route(agTree())?.name).toBe("large");
  });
});
