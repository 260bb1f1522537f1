// The wiring seam: rerank on explicit careful searches, deep fallback on weak ones, planning,
// answer spans — each failing soft to the lexical response.
import { describe, expect, it } from "vitest";
import { Planner } from "../../src/strategies/plan/planner.js";
import { strategicBackend, strategiesActive } from "../../src/strategies/strategic-backend.js";
import type { Doc, Hit, KnowledgeBackend, SearchRequest, SearchResponse } from "../../src/types.js";
import { ScriptedLlm } from "../support/scripted-llm.js";

const hit = (id: string, relevance: number, over: Partial<Hit> = {}): Hit => ({
  collection: "docs",
  id,
  title: `Doc ${id}`,
  relevance,
  band: relevance >= 0.65 ? "high" : relevance >= 0.4 ? "medium" : "low",
  chunks: [{ content: `text of ${id}` }],
  ...over,
});

const manual: Doc = {
  collection: "docs",
  id: "manual.pdf",
  title: "Manual",
  text: "",
  sections: [
    {
      headingPath: ["Manual", "Install"],
      heading: "Install",
      level: 1,
      content: "Mount the sensor.",
      pages: { start: 1, end: 2 },
    },
    {
      headingPath: ["Manual", "Care"],
      heading: "Care",
      level: 1,
      content: "Replace the desiccant pack yearly.",
      pages: { start: 3, end: 3 },
    },
  ],
};

function backend(responses: Record<string, Hit[]>): KnowledgeBackend & { requests: SearchRequest[] } {
  const requests: SearchRequest[] = [];
  return {
    requests,
    collections: () => ["docs"],
    async search(request): Promise<SearchResponse> {
      requests.push(request);
      const results = responses[request.query] ?? [];
      return {
        query: request.query,
        results,
        bestScore: results[0]?.relevance ?? 0,
        reranked: request.rerank === true,
      };
    },
    async getDocument(collection, id) {
      return collection === "docs" && id === "manual.pdf" ? manual : undefined;
    },
  };
}

const settings = {
  rerankStrategy: "single-pass" as const,
  planning: false,
  answerSpans: false,
  deepFallback: "off" as const,
};
const strong = { q: [hit("a", 0.9), hit("b", 0.8), hit("c", 0.7)] };

describe("strategicBackend", () => {
  it("reranks only searches that ask for the careful pass", async () => {
    const llm = new ScriptedLlm([JSON.stringify({ picks: [{ id: "hit_3", confidence: 0.9 }] })]);
    const wrapped = strategicBackend(backend(strong), { llm, settings });
    expect((await wrapped.search({ query: "q" })).results.map((h) => h.id)).toEqual(["a", "b", "c"]);
    expect(llm.calls).toBe(0);
    expect((await wrapped.search({ query: "q", rerank: true })).results.map((h) => h.id)).toEqual([
      "c",
      "a",
      "b",
    ]);
    expect(llm.calls).toBe(1);
  });

  it("a failing model leaves the lexical response and reports the step", async () => {
    const errors: string[] = [];
    const llm = new ScriptedLlm([new Error("provider 500")]);
    const wrapped = strategicBackend(backend(strong), {
      llm,
      settings,
      onError: (step) => errors.push(step),
    });
    expect((await wrapped.search({ query: "q", rerank: true })).results.map((h) => h.id)).toEqual([
      "a",
      "b",
      "c",
    ]);
    expect(errors).toEqual(["rerank"]);
  });

  it("deep fallback: a weak careful search reads the paged document with treewalk and cites its pages", async () => {
    const llm = new ScriptedLlm([
      JSON.stringify({ tool: "get_document_structure" }),
      JSON.stringify({ tool: "get_pages", start_page: 3, end_page: 3 }),
      JSON.stringify({ tool: "done", answer: "Yearly.", cited_pages: [[3, 3]], confidence: 0.8 }),
    ]);
    const weak = { desiccant: [hit("manual.pdf", 0.2, { heading: "Install", pages: { start: 1, end: 2 } })] };
    const wrapped = strategicBackend(backend(weak), {
      llm,
      settings: { ...settings, rerankStrategy: "lexical", deepFallback: "auto" },
    });
    const response = await wrapped.search({ query: "desiccant", rerank: true });
    expect(response.results).toHaveLength(1);
    expect(response.results[0]).toMatchObject({
      id: "manual.pdf",
      heading: "Care",
      pages: { start: 3, end: 3 },
      relevance: 0.2,
    });
    expect(response.results[0]!.chunks).toEqual([
      { heading: "Care", content: "Replace the desiccant pack yearly." },
    ]);
    expect(llm.calls).toBe(3);
  });

  it("deep fallback reads only documents of the collections the request named", async () => {
    const reads: string[] = [];
    const base = backend({
      q: [hit("secret.pdf", 0.12, { collection: "hr" }), hit("manual.pdf", 0.1), hit("other.pdf", 0.08)],
    });
    base.getDocument = async (collection, id) => {
      reads.push(`${collection}/${id}`);
      return undefined;
    };
    const wrapped = strategicBackend(base, {
      llm: new ScriptedLlm([]),
      settings: { ...settings, rerankStrategy: "lexical", deepFallback: "agentic" },
    });
    await wrapped.search({ query: "q", rerank: true, collections: ["docs"] });
    // The leading documents inside the request's collections, the hr one passed over.
    expect(reads).toEqual(["docs/manual.pdf", "docs/other.pdf"]);
  });

  it("no deep fallback for a model's own search or a strong response", async () => {
    const llm = new ScriptedLlm([]);
    const weak = { q: [hit("manual.pdf", 0.2)] };
    const wrapped = strategicBackend(backend(weak), {
      llm,
      settings: { ...settings, rerankStrategy: "lexical", deepFallback: "auto" },
    });
    await wrapped.search({ query: "q" });
    const strongWrapped = strategicBackend(backend(strong), {
      llm,
      settings: { ...settings, rerankStrategy: "lexical", deepFallback: "auto" },
    });
    await strongWrapped.search({ query: "q", rerank: true });
    expect(llm.calls).toBe(0);
  });

  it("planning: a multi-hop question is searched per sub-question and merged", async () => {
    const planLlm = new ScriptedLlm([
      JSON.stringify({ intent: "comparison", is_multi_hop: true, sub_questions: ["x", "y"] }),
    ]);
    const inner = backend({ x: [hit("a", 0.5), hit("b", 0.4)], y: [hit("b", 0.7), hit("c", 0.3)] });
    const wrapped = strategicBackend(inner, {
      llm: new ScriptedLlm([]),
      planner: new Planner(planLlm),
      settings: { ...settings, rerankStrategy: "lexical", planning: true },
    });
    const response = await wrapped.search({ query: "compare x and y" });
    expect(inner.requests.map((r) => r.query)).toEqual(["x", "y"]);
    expect(response.results.map((h) => [h.id, h.relevance])).toEqual([
      ["b", 0.7],
      ["a", 0.5],
      ["c", 0.3],
    ]);
    expect(response.bestScore).toBe(0.7);
    expect(response.query).toBe("compare x and y");
  });

  it("answer spans on the top hits", async () => {
    const llm = new ScriptedLlm(() => JSON.stringify({ found: true, quote: "text" }));
    const wrapped = strategicBackend(backend(strong), {
      llm,
      settings: { ...settings, rerankStrategy: "lexical", answerSpans: true },
    });
    const response = await wrapped.search({ query: "q" });
    expect(response.results[0]!.quote).toEqual({ text: "text", start: 0, end: 4 });
  });

  it("strategiesActive", () => {
    expect(
      strategiesActive({
        rerankStrategy: "lexical",
        planning: false,
        answerSpans: false,
        deepFallback: "off",
      }),
    ).toBe(false);
    // Unset deepFallback means "off", as in a bot's config: no model calls nobody asked for.
    expect(strategiesActive({ rerankStrategy: "lexical", planning: false, answerSpans: false })).toBe(false);
    expect(
      strategiesActive({
        rerankStrategy: "lexical",
        planning: false,
        answerSpans: false,
        deepFallback: "auto",
      }),
    ).toBe(true);
  });
});
