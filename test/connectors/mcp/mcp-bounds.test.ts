// Every MCP tool call is bounded and fails soft: a search that never answers becomes an error
// result at the call's deadline; a corrective pass that overruns leaves the search's own text;
// a backend that throws becomes an error result; concurrent calls do not wait on each other.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { setLogger } from "../../../src/telemetry/logger.js";
import type { Hit, KnowledgeBackend, SearchRequest, SearchResponse } from "../../../src/types.js";
import { connectInMemory, type Harness, silent } from "./mcp-harness.js";

const config = {
  description: "Fake knowledge.",
  knowledge: { backend: "huginn" as const, huginn: { url: "http://localhost:8321", collections: ["wiki"] } },
  correctiveRetrieval: { enabled: true, retryBudget: 1, grader: "signal" as const },
};

const hit = (id: string, relevance: number): Hit => ({
  collection: "wiki",
  id,
  title: id,
  relevance,
  band: relevance >= 0.65 ? "high" : relevance >= 0.4 ? "medium" : "low",
  snippet: `About ${id}.`,
});

const weak = (query: string): SearchResponse => ({
  query,
  results: [hit(`${query}.md`, 0.3)],
  bestScore: 0.3,
  reranked: true,
  retryHints: { broaderQuery: `${query} broad` },
});

/** Answers `search` with `answer`, which may never settle. */
function fakeBackend(answer: (r: SearchRequest) => Promise<SearchResponse>): KnowledgeBackend {
  return { collections: () => ["wiki"], search: (r) => answer(r) };
}

const never = () => new Promise<SearchResponse>(() => {});
let mcp: Harness | undefined;

beforeAll(() => setLogger(silent));
afterEach(async () => {
  await mcp?.close();
  mcp = undefined;
});

describe("MCP tool calls are bounded and fail soft", () => {
  it("a search that never answers is an error result at the call's deadline", async () => {
    mcp = await connectInMemory({ config, backend: fakeBackend(never), env: {}, callTimeoutMs: 200 });
    expect(await mcp.call("search_knowledge", { query: "q", brief: true })).toEqual({
      text: "search_knowledge did not finish within 200 ms.",
      isError: true,
    });
  });

  it("a corrective pass that overruns the deadline leaves the search's own text", async () => {
    const backend = fakeBackend((r) => (r.rerank === true ? never() : Promise.resolve(weak(r.query))));
    mcp = await connectInMemory({ config, backend, env: {}, callTimeoutMs: 300 });
    const corrected = await mcp.call("search_knowledge", { query: "vpn", brief: true });
    await mcp.close();
    mcp = await connectInMemory({ config, backend, env: { CORRECTIVE_RETRIEVAL_DISABLED: "1" } });
    const original = await mcp.call("search_knowledge", { query: "vpn", brief: true });
    expect(corrected).toEqual({ text: original.text, isError: false });
    expect(original.text).toContain('*Weak match — try: broader query: "vpn broad"*');
  });

  it("a backend that throws is an error result naming the tool; the server keeps serving", async () => {
    let calls = 0;
    const backend = fakeBackend(async (r) => {
      calls++;
      if (calls === 1) throw new Error("index is corrupt");
      return { query: r.query, results: [hit("a.md", 0.9)], bestScore: 0.9, reranked: true };
    });
    mcp = await connectInMemory({ config, backend, env: {} });
    expect(await mcp.call("search_knowledge", { query: "q" })).toEqual({
      text: "search_knowledge failed: index is corrupt",
      isError: true,
    });
    expect((await mcp.call("search_knowledge", { query: "q" })).isError).toBe(false);
  });

  it("a slow call does not hold up the others on the same connection", async () => {
    const backend = fakeBackend((r) =>
      r.query === "slow"
        ? never()
        : Promise.resolve({ ...weak(r.query), results: [hit("a.md", 0.9)], bestScore: 0.9 }),
    );
    mcp = await connectInMemory({ config, backend, env: {}, callTimeoutMs: 1_000 });
    const slow = mcp.call("search_knowledge", { query: "slow" });
    const fast = await Promise.all(["a", "b", "c"].map((query) => mcp!.call("search_knowledge", { query })));
    expect(fast.map((r) => r.isError)).toEqual([false, false, false]);
    expect(await slow).toEqual({ text: "search_knowledge did not finish within 1000 ms.", isError: true });
  });

  it("get_document on a backend without documents is not offered; list_collections names the collections", async () => {
    mcp = await connectInMemory({ config, backend: fakeBackend(never), env: {} });
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["list_collections", "search_knowledge"]);
    expect(await mcp.call("list_collections")).toEqual({
      text: "**Loaded collections:**\n\n- **wiki**",
      isError: false,
    });
  });
});
