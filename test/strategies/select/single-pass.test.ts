// docs/reference/vectorless-strategies.md §12.1 (single-pass and selection parsing), with a scripted model.
import { describe, expect, it } from "vitest";
import { SinglePassStrategy } from "../../../src/strategies/select/single-pass.js";
import { computeTraceToken } from "../../../src/strategies/select/trace-token.js";
import { filterKnownIds, parseSelection } from "../../../src/strategies/tree/selection.js";
import { pickingLlm, ScriptedLlm } from "../../support/scripted-llm.js";
import { t3 } from "../fixtures.js";

const picks = (...p: [string, number?][]) =>
  JSON.stringify({
    picks: p.map(([id, confidence]) => (confidence === undefined ? { id } : { id, confidence })),
  });

describe("single-pass", () => {
  it("SinglePassHappy: picks sec_b with one call", async () => {
    const llm = pickingLlm(["sec_b"]);
    const r = await new SinglePassStrategy(llm).select(t3(), "how do I query?");
    expect(r.selectedIds).toEqual(["sec_b"]);
    expect(llm.calls).toBe(1);
    expect(r.hopsTaken).toBe(1);
  });

  it("SinglePassFiltersUnknownIDs: [sec_a, sec_fake, sec_a] → [sec_a]", async () => {
    const llm = new ScriptedLlm([JSON.stringify({ selected_section_ids: ["sec_a", "sec_fake", "sec_a"] })]);
    expect((await new SinglePassStrategy(llm).select(t3(), "q")).selectedIds).toEqual(["sec_a"]);
  });

  it("SinglePassToleratesCodeFences", async () => {
    const llm = new ScriptedLlm(['```json\n{"selected_section_ids":["sec_c"]}\n```']);
    expect((await new SinglePassStrategy(llm).select(t3(), "q")).selectedIds).toEqual(["sec_c"]);
  });

  it("SinglePassGracefulOnNonJSON: prose → empty selection after 3 calls, no error", async () => {
    const llm = new ScriptedLlm(["I think Setup is best."], "m", { repeatLast: true });
    const r = await new SinglePassStrategy(llm).select(t3(), "q");
    expect(r.selectedIds).toEqual([]);
    expect(llm.calls).toBe(3);
    expect(r.usage.llmCalls).toBe(3);
    expect(llm.lastUserPrompt()).toContain("IMPORTANT: respond with ONLY a JSON object");
  });

  it("SinglePassReturnsConfidences and never abstains on low confidences", async () => {
    let r = await new SinglePassStrategy(new ScriptedLlm([picks(["sec_a", 0.78], ["sec_b", 0.12])])).select(
      t3(),
      "q",
    );
    expect(r.selectedIds).toEqual(["sec_a", "sec_b"]);
    expect(r.confidences).toEqual(
      new Map([
        ["sec_a", 0.78],
        ["sec_b", 0.12],
      ]),
    );
    r = await new SinglePassStrategy(new ScriptedLlm([picks(["sec_a", 0.1], ["sec_b", 0.2])])).select(
      t3(),
      "q",
    );
    expect(r.selectedIds).toHaveLength(2);
    expect(r.confidences?.size).toBe(2);
  });

  it("SinglePassLegacyShapeNoConfidences", async () => {
    const llm = new ScriptedLlm([JSON.stringify({ selected_section_ids: ["sec_a", "sec_b"] })]);
    const r = await new SinglePassStrategy(llm).select(t3(), "q");
    expect(r.selectedIds).toHaveLength(2);
    expect(r.confidences).toBeNull();
  });

  it("SinglePassStampsTraceToken and TraceTokenMatchesExternalComputation", async () => {
    const run = () => new SinglePassStrategy(pickingLlm(["sec_b"])).select(t3(), "q");
    const [a, b] = [await run(), await run()];
    expect(a.traceToken).toMatch(/^[0-9a-f]{64}$/);
    expect(a.traceToken).toBe(b.traceToken);
    expect(a.traceToken).toBe(computeTraceToken("doc_x", "1", "scripted-model", ["sec_b"]));
  });

  it("empty tree: no call", async () => {
    const llm = pickingLlm([]);
    const r = await new SinglePassStrategy(llm).select({ documentId: "d", title: "t", root: null }, "q");
    expect(r.selectedIds).toEqual([]);
    expect(llm.calls).toBe(0);
  });

  it("SelectionPromptSurfacesCandidateQuestion: only the first question", async () => {
    const tree = t3();
    tree.root!.children[0]!.candidateQuestions = ["How do I install Atlas?", "What is the second question?"];
    const llm = pickingLlm([]);
    await new SinglePassStrategy(llm).select(tree, "q");
    expect(llm.lastUserPrompt()).toContain("answers: How do I install Atlas?");
    expect(llm.lastUserPrompt()).not.toContain("second question");
  });

  it("SelectionPromptSurfacesAxes: first three entities and numbers; empty or missing axes add nothing", async () => {
    const tree = t3();
    tree.root!.children[0]!.axes = { entities: ["E1", "E2", "E3", "E4"], numbers: ["1", "2", "3", "4"] };
    tree.root!.children[1]!.axes = {};
    const llm = pickingLlm([]);
    await new SinglePassStrategy(llm).select(tree, "q");
    const prompt = llm.lastUserPrompt();
    expect(prompt).toContain("entities: E1, E2, E3");
    expect(prompt).toContain("numbers: 1, 2, 3");
    expect(prompt).not.toContain("E4");
    expect(prompt.match(/entities: /g)).toHaveLength(1);
  });

  it("SelectionPromptOmitsAxesForOldSections", async () => {
    const llm = pickingLlm([]);
    await new SinglePassStrategy(llm).select(t3(), "q");
    expect(llm.lastUserPrompt()).not.toMatch(/entities: |numbers: /);
  });

  it("a transport error rejects (the caller falls back)", async () => {
    const llm = new ScriptedLlm([new Error("provider 500")]);
    await expect(new SinglePassStrategy(llm).select(t3(), "q")).rejects.toThrow(/provider 500/);
  });
});

describe("parseSelection", () => {
  const ok = (raw: string) => {
    const r = parseSelection(raw);
    if (!r.ok) throw new Error(r.error);
    return r.selection;
  };
  it("plain, empty and prose-before", () => {
    expect(ok('{"selected_section_ids":["a","b"]}')).toEqual({ ids: ["a", "b"], confidences: null });
    expect(ok('{"selected_section_ids":[]}')).toEqual({ ids: [], confidences: null });
    expect(ok('Sure, here you go: {"selected_section_ids":["x"]}').ids).toEqual(["x"]);
  });
  it("an empty reply is an empty selection, not an error (no retry)", () => {
    expect(ok("   ")).toEqual({ ids: [], confidences: null });
    expect(parseSelection("no json here").ok).toBe(false);
  });
  it("NewShape, MixedShape, Clamps, PicksDedup, NoConfidences", () => {
    expect(ok(picks(["a", 0.82], ["b", 0.31]))).toEqual({
      ids: ["a", "b"],
      confidences: new Map([
        ["a", 0.82],
        ["b", 0.31],
      ]),
    });
    expect(ok(picks(["a", 0.5], ["b"])).confidences).toEqual(new Map([["a", 0.5]]));
    expect(ok(picks(["a", 1.7], ["b", -0.3])).confidences).toEqual(
      new Map([
        ["a", 1],
        ["b", 0],
      ]),
    );
    expect(ok(picks(["a", 0.7], ["a", 0.2])).confidences).toEqual(new Map([["a", 0.7]]));
    expect(ok(picks(["a"], ["b"]))).toEqual({ ids: ["a", "b"], confidences: null });
  });
  it("picks win over selected_section_ids; legacy ids are not deduped until filtered", () => {
    expect(ok('{"picks":[{"id":"a"}],"selected_section_ids":["b"]}').ids).toEqual(["a"]);
    const legacy = ok('{"selected_section_ids":["a"," a ","", "b"]}');
    expect(legacy.ids).toEqual(["a", "a", "b"]);
    expect(filterKnownIds(legacy, new Set(["a"])).ids).toEqual(["a"]);
  });
});
