import { describe, expect, it } from "vitest";
import { KnowledgeEngine } from "../../src/backends/embedded/embedded-engine.js";
import {
  bodyBudgetAt,
  CUT_NOTE,
  cutText,
  LATER_HIT_CHARS,
  withinBudget,
} from "../../src/knowledge/context-budget.js";
import type { Hit } from "../../src/types.js";

const hit = (contents: string[]): Hit => ({
  collection: "c",
  id: "d",
  title: "T",
  relevance: 0.5,
  band: "medium",
  chunks: contents.map((content, i) => ({ heading: `h${i}`, content })),
});

describe("context budget", () => {
  it("leaves a hit that fits untouched", () => {
    const h = hit(["short text"]);
    expect(withinBudget(h, 100)).toBe(h);
  });

  it("cuts at a sentence end, drops chunks past the budget, and says how to read the rest", () => {
    const first = `${"One sentence here. ".repeat(10)}`.trim(); // 189 chars
    const cut = withinBudget(hit([first, "second chunk"]), 100);
    expect(cut.chunks).toHaveLength(1);
    const text = cut.chunks![0]!.content;
    expect(text.endsWith(CUT_NOTE)).toBe(true);
    const kept = text.slice(0, -CUT_NOTE.length).trimEnd();
    expect(kept.length).toBeLessThanOrEqual(100);
    expect(kept.endsWith(".")).toBe(true);
  });

  it("cuts at a word when no sentence ends in the second half", () => {
    expect(cutText("alpha beta gamma delta", 13)).toBe("alpha beta");
  });

  it("spends the most on the leading hits", () => {
    expect(bodyBudgetAt(0)).toBeGreaterThan(bodyBudgetAt(1));
    expect(bodyBudgetAt(1)).toBeGreaterThan(bodyBudgetAt(2));
    expect(bodyBudgetAt(9)).toBe(LATER_HIT_CHARS);
  });

  it("applies to the engine's full mode only; brief mode keeps its snippets", () => {
    const long = "kettle water boils. ".repeat(400);
    const engine = KnowledgeEngine.fromDocuments({
      kb: [
        { id: "a", title: "Kettle", sections: [{ headingPath: ["Kettle"], content: long }] },
        { id: "b", title: "Kettle two", sections: [{ headingPath: ["Kettle two"], content: long }] },
      ],
    });
    const full = engine.searchSync({ query: "kettle water" });
    expect(full.results).toHaveLength(2);
    const [a, b] = full.results.map((h) => h.chunks!.map((c) => c.content).join(""));
    expect(a!.length).toBeLessThanOrEqual(bodyBudgetAt(0) + CUT_NOTE.length + 1);
    expect(b!.length).toBeLessThanOrEqual(bodyBudgetAt(1) + CUT_NOTE.length + 1);
    expect(a).toContain(CUT_NOTE);
    const brief = engine.searchSync({ query: "kettle water", brief: true });
    expect(brief.results[0]!.snippet).toBeDefined();
    expect(brief.results[0]!.snippet).not.toContain(CUT_NOTE);
  });
});
