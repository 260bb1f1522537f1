// docs/reference/vectorless-strategies.md §12.3 (agentic), scripted turn by turn.
import { describe, expect, it } from "vitest";
import { parseAgentAction } from "../../../src/strategies/select/agent-action.js";
import { AgenticStrategy } from "../../../src/strategies/select/agentic.js";
import { ScriptedLlm } from "../../support/scripted-llm.js";
import { agTree, empty } from "../fixtures.js";

const act = (o: object) => JSON.stringify(o);

describe("agentic", () => {
  it("AgenticHappyPath: expand → read → done", async () => {
    const llm = new ScriptedLlm([
      act({ action: "expand", section_id: "sec_a" }),
      act({ action: "read", section_id: "sec_a1" }),
      act({ action: "done", picked_ids: ["sec_a1"], reasoning: "install steps are in a1" }),
    ]);
    const r = await new AgenticStrategy(llm).select(agTree(), "how do I install?");
    expect(r.selectedIds).toEqual(["sec_a1"]);
    expect(r.hopsTaken).toBe(3);
    expect(r.usage.llmCalls).toBe(3);
    expect(r.reasoning).not.toBe("");
    expect(llm.lastUserPrompt(2)).toContain("Install steps: run vle ingest");
    expect(llm.lastUserPrompt(1)).toContain("[sec_a1] Install");
    expect(llm.lastUserPrompt(0)).toContain("Initial outline (depth=1):");
    expect(llm.lastUserPrompt(0)).not.toContain("sec_a1");
  });

  it("AgenticExpandExpandDone", async () => {
    const llm = new ScriptedLlm([
      act({ action: "expand", section_id: "sec_a" }),
      act({ action: "expand", section_id: "sec_b" }),
      act({ action: "done", picked_ids: ["sec_a1", "sec_b1"] }),
    ]);
    const r = await new AgenticStrategy(llm).select(agTree(), "q");
    expect(r.selectedIds).toEqual(["sec_a1", "sec_b1"]);
    expect(r.hopsTaken).toBe(3);
  });

  it("AgenticHopCap: always expanding, MaxHops 4 → 4 calls, empty, no error", async () => {
    const llm = new ScriptedLlm([act({ action: "expand", section_id: "sec_a" })], "m", { repeatLast: true });
    const r = await new AgenticStrategy(llm, { maxHops: 4 }).select(agTree(), "q");
    expect(r.hopsTaken).toBe(4);
    expect(llm.calls).toBe(4);
    expect(r.selectedIds).toEqual([]);
    expect(r.stopped).toBe("hops");
  });

  it("AgenticBadJSONGraceful: prose every turn, MaxHops 3 → nudged, empty, hops 3", async () => {
    const llm = new ScriptedLlm(["Let me think about it."], "m", { repeatLast: true });
    const r = await new AgenticStrategy(llm, { maxHops: 3 }).select(agTree(), "q");
    expect(r.selectedIds).toEqual([]);
    expect(r.hopsTaken).toBe(3);
    expect(llm.lastUserPrompt()).toContain("not a valid JSON action");
  });

  it("AgenticDoneWithConfidences and AgenticDoneLegacyShapeNoConfidences", async () => {
    let r = await new AgenticStrategy(
      new ScriptedLlm([
        act({
          action: "done",
          picks: [
            { id: "sec_a1", confidence: 0.85 },
            { id: "sec_b1", confidence: 0.42 },
          ],
        }),
      ]),
    ).select(agTree(), "q");
    expect(r.confidences).toEqual(
      new Map([
        ["sec_a1", 0.85],
        ["sec_b1", 0.42],
      ]),
    );
    r = await new AgenticStrategy(
      new ScriptedLlm([act({ action: "done", picked_ids: ["sec_a1", "sec_b1"] })]),
    ).select(agTree(), "q");
    expect(r.selectedIds).toHaveLength(2);
    expect(r.confidences).toBeNull();
  });

  it("AgenticFiltersUnknownPicks: [sec_a1, sec_fake, sec_a1] → [sec_a1], hops 1", async () => {
    const r = await new AgenticStrategy(
      new ScriptedLlm([act({ action: "done", picked_ids: ["sec_a1", "sec_fake", "sec_a1"] })]),
    ).select(agTree(), "q");
    expect(r.selectedIds).toEqual(["sec_a1"]);
    expect(r.hopsTaken).toBe(1);
  });

  it("AgenticEmptyTree: no call", async () => {
    const llm = new ScriptedLlm([]);
    const r = await new AgenticStrategy(llm).select(empty(), "q");
    expect(r.selectedIds).toEqual([]);
    expect(llm.calls).toBe(0);
  });

  it("AgenticReadFallbackWhenNoContent: read on an internal node shows its summary", async () => {
    const llm = new ScriptedLlm([
      act({ action: "read", section_id: "sec_a" }),
      act({ action: "done", picked_ids: ["sec_a1"] }),
    ]);
    const r = await new AgenticStrategy(llm).select(agTree(), "q");
    expect(llm.lastUserPrompt(1)).toContain("summary");
    expect(r.selectedIds).toEqual(["sec_a1"]);
  });

  it("observations for unknown ids, leaves, outline levels and unsupported actions", async () => {
    const llm = new ScriptedLlm([
      act({ action: "expand", section_id: "sec_nope" }),
      act({ action: "expand", section_id: "sec_a1" }),
      act({ action: "outline", level: 0 }),
      act({ action: "dance" }),
      act({ action: "done", picked_ids: [] }),
    ]);
    await new AgenticStrategy(llm).select(agTree(), "q");
    expect(llm.lastUserPrompt(1)).toContain('unknown section_id "sec_nope"');
    expect(llm.lastUserPrompt(2)).toContain("is a leaf (no children)");
    expect(llm.lastUserPrompt(3)).toContain("Observation (outline):");
    expect(llm.lastUserPrompt(3)).not.toContain("sec_a1");
    expect(llm.lastUserPrompt(4)).toContain('unsupported action "dance"');
  });

  it("caps a read observation", async () => {
    const tree = agTree();
    tree.root!.children[0]!.children[0]!.content = "x".repeat(50_000);
    const llm = new ScriptedLlm([
      act({ action: "read", section_id: "sec_a1" }),
      act({ action: "done", picked_ids: [] }),
    ]);
    await new AgenticStrategy(llm, { readChars: 1000 }).select(tree, "q");
    expect(llm.lastUserPrompt(1).length).toBeLessThan(1200);
  });
});

describe("parseAgentAction", () => {
  const ok = (raw: string) => {
    const r = parseAgentAction(raw);
    if (!r.ok) throw new Error(r.error);
    return r.action;
  };
  it("reads expand, outline with level, done with picked_ids, fences and prose", () => {
    expect(ok('{"action":"expand","section_id":" sec_a "}')).toEqual({
      action: "expand",
      sectionId: "sec_a",
    });
    expect(ok('{"action":"outline","level":3}')).toEqual({ action: "outline", level: 3 });
    expect(ok('{"action":"DONE","picked_ids":["a"],"reasoning":"r"}')).toMatchObject({
      action: "done",
      reasoning: "r",
      legacy: true,
    });
    expect(ok('```json\n{"action":"read","section_id":"x"}\n```')).toEqual({
      action: "read",
      sectionId: "x",
    });
    expect(ok('Okay: {"action":"read","section_id":"x"} and then more {"action":"done"}')).toEqual({
      action: "read",
      sectionId: "x",
    });
  });
  it("garbage and empty are errors", () => {
    expect(parseAgentAction("garbage").ok).toBe(false);
    expect(parseAgentAction("").ok).toBe(false);
    expect(parseAgentAction('{"section_id":"x"}').ok).toBe(false);
  });
});

describe("agentic over a synthetic root", () => {
  it("the initial outline shows the top-level sections only", async () => {
    const tree = agTree();
    tree.root = { id: "", title: "Atlas Guide", tokens: 0, children: tree.root!.children };
    const llm = new ScriptedLlm([JSON.stringify({ action: "done", picked_ids: [] })]);
    await new AgenticStrategy(llm).select(tree, "q");
    expect(llm.lastUserPrompt(0)).toContain("- [sec_a] Setup");
    expect(llm.lastUserPrompt(0)).not.toContain("sec_a1");
  });
});
