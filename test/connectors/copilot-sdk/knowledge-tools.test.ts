import type { Tool, ToolInvocation } from "@github/copilot-sdk";
import { describe, expect, it } from "vitest";
import { createKnowledgeTools } from "../../../src/connectors/copilot-sdk/knowledge-tools.js";
import type { KnowledgeBackend, SearchRequest } from "../../../src/types.js";

function backend(
  overrides: Partial<KnowledgeBackend> = {},
): KnowledgeBackend & { requests: SearchRequest[] } {
  const requests: SearchRequest[] = [];
  return {
    requests,
    collections: () => ["handbook", "wiki"],
    search: async (request) => {
      requests.push(request);
      return { query: request.query, results: [], bestScore: 0, reranked: false };
    },
    ...overrides,
  };
}

const render = (r: { query: string }, brief: boolean) => `rendered ${r.query} brief=${brief}`;
const invocation = (signal?: AbortSignal): ToolInvocation => ({
  sessionId: "s",
  toolCallId: "c",
  toolName: "search_knowledge",
  arguments: {},
  ...(signal ? { signal } : {}),
});
const run = (tool: Tool<unknown> | undefined, args: unknown, signal?: AbortSignal) =>
  Promise.resolve(tool!.handler!(args, invocation(signal)));

describe("knowledge tools", () => {
  it("search_knowledge maps Huginn's arguments onto a SearchRequest and returns the rendered text", async () => {
    const b = backend();
    const [search] = createKnowledgeTools({ backend: b, renderResult: render });
    const out = await run(search, {
      query: "q",
      collection: "wiki",
      limit: 3,
      brief: true,
      min_relevance: 0.5,
      rerank: true,
    });
    expect(out).toBe("rendered q brief=true");
    expect(b.requests[0]).toEqual({
      query: "q",
      collections: ["wiki"],
      limit: 3,
      brief: true,
      minRelevance: 0.5,
      rerank: true,
    });
  });

  it("accepts nulls for unset optional arguments", async () => {
    const b = backend();
    const [search] = createKnowledgeTools({ backend: b, renderResult: render });
    expect(await run(search, { query: "q", collection: null, limit: null, brief: null })).toBe(
      "rendered q brief=false",
    );
    expect(b.requests[0]).toEqual({ query: "q" });
  });

  it("invalid arguments, a foreign collection and a failing backend are failure results, not throws", async () => {
    const [search] = createKnowledgeTools({
      backend: backend({ search: async () => Promise.reject(new Error("index is rebuilding")) }),
      renderResult: render,
    });
    expect(await run(search, { limit: 3 })).toMatchObject({
      resultType: "failure",
      textResultForLlm: expect.stringContaining("query"),
    });
    expect(await run(search, "not an object")).toMatchObject({ resultType: "failure" });
    expect(await run(search, { query: "q", collection: "secret" })).toMatchObject({
      resultType: "failure",
      textResultForLlm: "Collection 'secret' is not available. Available: handbook, wiki",
    });
    expect(await run(search, { query: "q" })).toMatchObject({
      resultType: "failure",
      textResultForLlm: "search_knowledge failed: index is rebuilding",
    });
  });

  it("a stopped question does not start a search", async () => {
    const b = backend();
    const stopped = new AbortController();
    stopped.abort();
    const [search] = createKnowledgeTools({
      backend: b,
      renderResult: render,
      turnSignal: () => stopped.signal,
    });
    expect(await run(search, { query: "q" })).toMatchObject({ resultType: "failure" });
    expect(b.requests).toHaveLength(0);
  });

  it("get_document is offered only when the backend can fetch documents", async () => {
    expect(createKnowledgeTools({ backend: backend(), renderResult: render }).map((t) => t.name)).toEqual([
      "search_knowledge",
    ]);
    const tools = createKnowledgeTools({
      backend: backend({
        getDocument: async (collection, id) =>
          id === "1" ? { collection, id, title: "Leave", url: "https://x.test/1", text: "Body." } : undefined,
      }),
      renderResult: render,
    });
    const getDocument = tools.find((t) => t.name === "get_document");
    expect(await run(getDocument, { collection: "wiki", doc_id: "1" })).toBe(
      "# Leave\nhttps://x.test/1\n\nBody.",
    );
    expect(await run(getDocument, { collection: "wiki", doc_id: "2" })).toMatchObject({
      resultType: "failure",
    });
    expect(await run(getDocument, { collection: "secret", doc_id: "1" })).toMatchObject({
      resultType: "failure",
    });
  });
});
