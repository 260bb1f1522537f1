// Single-pass rerank of search hits (adapted from docs/reference/vectorless-strategies.md §12.10) and answer spans on hits.
import { describe, expect, it } from "vitest";
import { attachAnswerSpans } from "../../src/strategies/answer/attach-answer-spans.js";
import { rerankHitsSinglePass } from "../../src/strategies/select/rerank-hits.js";
import type { Hit } from "../../src/types.js";
import { ScriptedLlm } from "../support/scripted-llm.js";

const hit = (id: string, content = `content of ${id}`): Hit => ({
  collection: "c",
  id,
  title: `Title ${id}`,
  relevance: 0.5,
  band: "medium",
  chunks: [{ content }],
});
const hits = [hit("one"), hit("two"), hit("three")];
const ids = (hs: Hit[]) => hs.map((h) => h.id);

describe("single-pass rerank of hits", () => {
  it("HappyPath: picks first by confidence, then the rest in input order", async () => {
    const llm = new ScriptedLlm([
      JSON.stringify({
        picks: [
          { id: "hit_3", confidence: 0.45 },
          { id: "hit_2", confidence: 0.92 },
        ],
      }),
    ]);
    const r = await rerankHitsSinglePass(llm, "q", hits);
    expect(ids(r.hits)).toEqual(["two", "three", "one"]);
    expect(r.reranked).toBe(true);
    expect(r.usage.llmCalls).toBe(1);
    expect(llm.lastUserPrompt()).toContain("[hit_1] Title one");
    expect(llm.lastUserPrompt()).toContain("content of one");
  });

  it("EmptyInput: no call", async () => {
    const llm = new ScriptedLlm([]);
    expect((await rerankHitsSinglePass(llm, "q", [])).hits).toEqual([]);
    expect(llm.calls).toBe(0);
  });

  it("LLMFailure: input order, not reranked, the error reported", async () => {
    const r = await rerankHitsSinglePass(new ScriptedLlm([new Error("provider 500")]), "q", hits);
    expect(ids(r.hits)).toEqual(["one", "two", "three"]);
    expect(r.reranked).toBe(false);
    expect(r.error).toMatch(/provider 500/);
  });

  it("BadJSONExhaustsRetries: 3 calls, input order", async () => {
    const llm = new ScriptedLlm(["prose"], "m", { repeatLast: true });
    const r = await rerankHitsSinglePass(llm, "q", hits);
    expect(llm.calls).toBe(3);
    expect(ids(r.hits)).toEqual(["one", "two", "three"]);
    expect(r.reranked).toBe(false);
  });

  it("UnknownIDDropped, DuplicateIDs first wins, every input exactly once", async () => {
    const llm = new ScriptedLlm([
      JSON.stringify({
        picks: [
          { id: "hit_bogus", confidence: 1 },
          { id: "hit_3", confidence: 0.6 },
          { id: "hit_3", confidence: 0.1 },
        ],
      }),
    ]);
    const r = await rerankHitsSinglePass(llm, "q", hits);
    expect(ids(r.hits)).toEqual(["three", "one", "two"]);
  });

  it("only the first N candidates are shown; the others keep their place after them", async () => {
    const many = Array.from({ length: 5 }, (_, i) => hit(`h${i}`));
    const llm = new ScriptedLlm([JSON.stringify({ selected_section_ids: ["hit_2"] })]);
    const r = await rerankHitsSinglePass(llm, "q", many, { candidates: 2 });
    expect(ids(r.hits)).toEqual(["h1", "h0", "h2", "h3", "h4"]);
    expect(llm.lastUserPrompt()).not.toContain("[hit_3]");
  });
});

describe("answer spans on hits", () => {
  it("quotes the top hits from their best section; failures leave no quote", async () => {
    const llm = new ScriptedLlm((req) => {
      const section = req.messages[0]!.content;
      if (section.includes("content of two")) return new Error("provider 500");
      return JSON.stringify({
        found: true,
        quote: section.includes("content of one") ? "of one" : "not there",
      });
    });
    const out = await attachAnswerSpans(llm, "q", hits, { maxConcurrency: 2 });
    expect(out[0]!.quote).toEqual({ text: "of one", start: 8, end: 14 });
    expect(out[1]!.quote).toBeUndefined();
    expect(out[2]!.quote).toEqual({ text: "not there", start: -1, end: -1 });
    expect(hits[0]!.quote).toBeUndefined();
  });
});
