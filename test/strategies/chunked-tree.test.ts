// Reference §12.2 (chunked-tree).
import { describe, expect, it } from "vitest";
import { ChunkedTreeStrategy } from "../../src/strategies/chunked-tree.js";
import { splitIntoSlices } from "../../src/strategies/slice-splitter.js";
import { quarterChars } from "../../src/strategies/token-estimate.js";
import { pickingLlm, ScriptedLlm } from "../support/scripted-llm.js";
import { agTree, t3 } from "./fixtures.js";

describe("chunked-tree", () => {
  it("ChunkedTreeSinglesliceWhenItFits: one call, ids in document order", async () => {
    const llm = pickingLlm(["sec_b", "sec_a"]);
    const r = await new ChunkedTreeStrategy(llm, quarterChars).select(t3(), "q", { maxTokens: 100_000 });
    expect(r.selectedIds).toEqual(["sec_a", "sec_b"]);
    expect(llm.calls).toBe(1);
  });

  it("ChunkedTreeSplitsWhenOverBudget: MaxTokens 25 → [sec_a, sec_c] over at least 2 calls", async () => {
    const llm = pickingLlm(["sec_a", "sec_c"]);
    const r = await new ChunkedTreeStrategy(llm, quarterChars).select(t3(), "q", {
      maxTokens: 25,
      reservedForPrompt: 0,
    });
    expect(r.selectedIds).toEqual(["sec_a", "sec_c"]);
    expect(llm.calls).toBeGreaterThanOrEqual(2);
  });

  it("ChunkedTreeIDFabricationIsFiltered, and an id from another slice is not selectable", async () => {
    const llm = new ScriptedLlm(() => JSON.stringify({ selected_section_ids: ["sec_made_up", "sec_c"] }));
    const strategy = new ChunkedTreeStrategy(llm, quarterChars);
    const r = await strategy.select(t3(), "q", { maxTokens: 25, reservedForPrompt: 0 });
    expect(r.selectedIds).not.toContain("sec_made_up");
    expect(r.selectedIds).toEqual(["sec_c"]);
  });

  it("DefaultSplitterFastPath: a small tree is one slice whose breadcrumb names the document", () => {
    const slices = splitIntoSlices(t3(), 100_000, quarterChars);
    expect(slices).toHaveLength(1);
    expect(slices[0]!.breadcrumb).toContain("Atlas");
  });

  it("splits nested subtrees with breadcrumbs, numbered once, and peripheral siblings", () => {
    const slices = splitIntoSlices(agTree(), 20, quarterChars);
    expect(slices.length).toBeGreaterThan(1);
    expect(slices.every((s) => /\(slice \d+ of \d+\)$/.test(s.breadcrumb))).toBe(true);
    expect(slices.some((s) => s.breadcrumb.includes("→ Atlas Guide"))).toBe(true);
    expect(slices.every((s) => !/slice .* slice/.test(s.breadcrumb))).toBe(true);
    const ids = slices.flatMap((s) => s.views.map((v) => v.id));
    expect(new Set(ids)).toEqual(new Set(["sec_root", "sec_a", "sec_a1", "sec_a2", "sec_b", "sec_b1"]));
    expect(ids).toHaveLength(6);
  });

  it("ChunkedTreeMergesConfidences: the max wins across slices", async () => {
    const llm = new ScriptedLlm(() =>
      JSON.stringify({
        picks: [
          { id: "sec_a", confidence: 0.6 },
          { id: "sec_c", confidence: 0.9 },
        ],
      }),
    );
    const r = await new ChunkedTreeStrategy(llm, quarterChars).select(t3(), "q");
    expect(r.confidences).toEqual(
      new Map([
        ["sec_a", 0.6],
        ["sec_c", 0.9],
      ]),
    );
  });

  it("ChunkedTreeStampsTraceToken", async () => {
    const r = await new ChunkedTreeStrategy(pickingLlm(["sec_a"]), quarterChars).select(t3(), "q");
    expect(r.traceToken).toHaveLength(64);
  });

  it("bounded concurrency: never more than maxParallelCalls in flight", async () => {
    let inFlight = 0;
    let peak = 0;
    const llm = {
      model: "m",
      chat: async () => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await new Promise((r) => setImmediate(r));
        inFlight--;
        return {
          text: '{"selected_section_ids":[]}',
          model: "m",
          usage: { inputTokens: 1, outputTokens: 1 },
        };
      },
    };
    await new ChunkedTreeStrategy(llm, quarterChars).select(agTree(), "q", {
      maxTokens: 12,
      reservedForPrompt: 0,
      maxParallelCalls: 2,
    });
    expect(peak).toBeLessThanOrEqual(2);
    expect(peak).toBeGreaterThan(0);
  });

  it("a slice's transport error fails the call", async () => {
    const llm = new ScriptedLlm([new Error("provider 500")], "m", { repeatLast: true });
    await expect(
      new ChunkedTreeStrategy(llm, quarterChars).select(t3(), "q", { maxTokens: 25, reservedForPrompt: 0 }),
    ).rejects.toThrow(/provider 500/);
  });
});
