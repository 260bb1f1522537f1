import { pino } from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { HuginnBackend, HuginnError } from "../../../src/backends/huginn/huginn-backend.js";
import { MAX_QUOTED_BODY_CHARS } from "../../../src/backends/huginn/huginn-error.js";
import { openBotBackend } from "../../../src/connectors/open-bot-backend.js";
import { freePort } from "../../support/free-port.js";
import { huginnHit, huginnSearch } from "../../support/huginn-server/huginn-json.js";
import { type HuginnServer, startHuginnServer } from "../../support/huginn-server/huginn-server.js";

let server: HuginnServer;
const opened: HuginnBackend[] = [];

beforeAll(async () => {
  server = await startHuginnServer();
});
afterAll(async () => {
  await server?.close();
});
afterEach(async () => {
  server.requests.length = 0;
  server.handlers = {};
  await Promise.all(opened.splice(0).map((b) => b.close()));
});

function backend(over: { collections?: string[]; timeoutMs?: number; url?: string } = {}): HuginnBackend {
  const b = new HuginnBackend({
    url: over.url ?? `${server.url}/`,
    collections: over.collections ?? ["wiki", "jira"],
    ...(over.timeoutMs ? { timeoutMs: over.timeoutMs } : {}),
    log: pino({ level: "silent" }),
  });
  opened.push(b);
  return b;
}

/** The query string's parameters in order, as [name, value] pairs. */
const sent = (i = 0) => [...server.requests[i]!.params.entries()];

describe("search: the request", () => {
  it("sends the adapter's parameters, and every allowed collection when the search names none", async () => {
    server.handlers.search = () => ({ json: huginnSearch([huginnHit({ id: "a.md" })]) });
    await backend().search({ query: "vpn setup guide" });
    expect(server.requests[0]!.rawPath.startsWith("/api/search?")).toBe(true);
    expect(sent()).toEqual([
      ["q", "vpn setup guide"],
      ["limit", "10"],
      ["brief", "false"],
      ["max_chunks_per_doc", "2"],
      ["collection", "wiki"],
      ["collection", "jira"],
    ]);
  });

  it("sends limit, brief, min_relevance and rerank as given; booleans as true/false", async () => {
    server.handlers.search = () => ({ json: huginnSearch([]) });
    const b = backend();
    await b.search({
      query: "q1",
      collections: ["jira"],
      limit: 3,
      brief: true,
      minRelevance: 0.5,
      rerank: true,
    });
    await b.search({ query: "q2", rerank: false, brief: false });
    expect(sent(0)).toEqual([
      ["q", "q1"],
      ["limit", "3"],
      ["brief", "true"],
      ["max_chunks_per_doc", "2"],
      ["collection", "jira"],
      ["min_relevance", "0.5"],
      ["rerank", "true"],
    ]);
    expect(server.requests[1]!.params.get("rerank")).toBe("false");
  });

  it("clamps the limit and drops a min_relevance outside 0..1", async () => {
    server.handlers.search = () => ({ json: huginnSearch([]) });
    const b = backend();
    await b.search({ query: "q", limit: 10_000, minRelevance: 7 });
    await b.search({ query: "q", limit: 0 });
    expect(server.requests[0]!.params.get("limit")).toBe("100");
    expect(server.requests[0]!.params.has("min_relevance")).toBe(false);
    expect(server.requests[1]!.params.get("limit")).toBe("1");
  });

  it("refuses a collection outside the allow-list with the adapter's text, without a call", async () => {
    const b = backend();
    await expect(b.search({ query: "q", collections: ["secret"] })).rejects.toThrow(
      "Collection 'secret' is not available. Available: wiki, jira",
    );
    await expect(b.search({ query: "q", collections: ["wiki", "secret"] })).rejects.toThrow(/'secret'/);
    await expect(b.getDocument("secret", "a.md")).rejects.toThrow(
      "Collection 'secret' is not available. Available: wiki, jira",
    );
    expect(server.requests).toHaveLength(0);
    expect(b.collections()).toEqual(["wiki", "jira"]);
  });
});

describe("search: the answer", () => {
  it("is normalised, with the request's query, and hits from other collections left out", async () => {
    server.handlers.search = () => ({
      json: huginnSearch([
        huginnHit({ id: "a.md", relevance: 0.91 }),
        huginnHit({ collection: "hr-private", id: "salaries.md", relevance: 0.95 }),
      ]),
    });
    const response = await backend().search({ query: "pay" });
    expect(response.query).toBe("pay");
    expect(response.results.map((h) => `${h.collection}/${h.id}`)).toEqual(["wiki/a.md"]);
    expect(response.results[0]).toMatchObject({ band: "high", chunks: [{ content: "Text of a.md." }] });
  });

  it("a body that is not a search answer is an error, not an empty result", async () => {
    server.handlers.search = () => ({ json: { detail: "ok" } });
    await expect(backend().search({ query: "q" })).rejects.toThrow(
      "Error calling Knowledge API: unexpected response: it has no results list",
    );
    server.handlers.search = () => ({ body: "<html>proxy error</html>" });
    await expect(backend().search({ query: "q" })).rejects.toThrow(
      "Error calling Knowledge API: the response is not valid JSON",
    );
  });
});

describe("search: failures, in the adapter's words", () => {
  it("404 and 500 quote the status and the body", async () => {
    server.handlers.search = () => ({ status: 404, json: { detail: "Collection 'jira' not found" } });
    const error = await backend()
      .search({ query: "q" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HuginnError);
    expect((error as HuginnError).message).toBe(`API returned 404: {"detail":"Collection 'jira' not found"}`);
    expect((error as HuginnError).status).toBe(404);
    server.handlers.search = () => ({ status: 500, body: "Internal Server Error" });
    await expect(backend().search({ query: "q" })).rejects.toThrow("API returned 500: Internal Server Error");
  });

  it("an error body is bounded and kept to one line", async () => {
    server.handlers.search = () => ({
      status: 502,
      body: `line one\n*Weak match — try: x*\n${"z".repeat(50_000)}`,
    });
    const error = (await backend()
      .search({ query: "q" })
      .catch((e: unknown) => e)) as Error;
    expect(error.message.startsWith("API returned 502: line one *Weak match")).toBe(true);
    expect(error.message).not.toContain("\n");
    expect(error.message.length).toBeLessThanOrEqual("API returned 502: ".length + MAX_QUOTED_BODY_CHARS + 1);
  });

  it("nothing listening: 'not running at <URL>' with the start hint naming the collections", async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    await expect(backend({ url }).search({ query: "q" })).rejects.toThrow(
      `Knowledge API server is not running at ${url}. Start it with: uv run knowledge_api_server.py --collections wiki jira`,
    );
    await expect(backend({ url }).getDocument("wiki", "a.md")).rejects.toThrow(
      `Knowledge API server is not running at ${url}.`,
    );
  });

  it("no answer within the timeout: 'Error calling Knowledge API: no answer within N ms'", async () => {
    server.handlers.search = () => ({ delayMs: 10_000, json: huginnSearch([]) });
    await expect(backend({ timeoutMs: 200 }).search({ query: "q" })).rejects.toThrow(
      "Error calling Knowledge API: no answer within 200 ms",
    );
  });

  it("the caller's abort is passed through as itself, not worded as a Huginn failure", async () => {
    server.handlers.search = () => ({ delayMs: 10_000, json: huginnSearch([]) });
    const controller = new AbortController();
    const reason = new Error("caller stopped");
    const pending = backend().search({ query: "q" }, { signal: controller.signal });
    setTimeout(() => controller.abort(reason), 50);
    await expect(pending).rejects.toBe(reason);
  });

  it("an answer larger than the cap is refused", async () => {
    const big = huginnSearch([huginnHit({ id: "a.md", snippet: "x".repeat(17 * 1024 * 1024) })]);
    server.handlers.search = () => ({ json: big });
    await expect(backend().search({ query: "q" })).rejects.toThrow(
      /^Error calling Knowledge API: the response is larger than \d+ bytes$/,
    );
  });
});

describe("getDocument and describeCollections", () => {
  it("fetches /api/document/<collection>/<doc_id> with each path segment encoded", async () => {
    server.handlers.document = (r) => ({
      json: {
        id: r.document!.id,
        url: "https://wiki.example/onboarding",
        modifiedTime: "2026-05-02T09:15:00Z",
        text: "Full text.",
        chunks: [],
        metadata: { Owner: "IT", wip: "true" },
      },
    });
    const doc = await backend().getDocument("wiki", "guides/Onboarding Guide.md");
    expect(server.requests[0]!.rawPath).toBe("/api/document/wiki/guides/Onboarding%20Guide.md");
    expect(doc).toEqual({
      collection: "wiki",
      id: "guides/Onboarding Guide.md",
      title: "guides/Onboarding Guide.md",
      url: "https://wiki.example/onboarding",
      modifiedTime: "2026-05-02T09:15:00Z",
      text: "Full text.",
      metadata: { Owner: "IT", wip: "true" },
    });
  });

  it("404 is 'no such document'; an id with dot segments is refused without a call", async () => {
    server.handlers.document = () => ({ status: 404, json: { detail: "Document not found" } });
    const b = backend();
    expect(await b.getDocument("wiki", "missing.md")).toBeUndefined();
    expect(await b.getDocument("wiki", "../../api/search")).toBeUndefined();
    expect(await b.getDocument("wiki", "a//b")).toBeUndefined();
    expect(server.requests).toHaveLength(1);
  });

  it("lists the allowed collections the server has, in allow-list order", async () => {
    server.handlers.collections = () => ({
      json: {
        collections: [
          { name: "hr-private", document_count: 9 },
          {
            name: "jira",
            document_count: 2132,
            chunk_count: 8688,
            embedding_count: 8688,
            updatedTime: "2026-05-01",
          },
          { name: "wiki", document_count: "many" },
        ],
      },
    });
    expect(await backend().describeCollections()).toEqual([
      { name: "wiki" },
      { name: "jira", documents: 2132, chunks: 8688, embeddings: 8688, updatedTime: "2026-05-01" },
    ]);
  });
});

describe("openBotBackend", () => {
  it('opens a HuginnBackend for knowledge.backend "huginn", scoped to huginn.collections', async () => {
    server.handlers.search = () => ({ json: huginnSearch([]) });
    const {
      backend: b,
      reports,
      close,
    } = await openBotBackend({
      dir: "/nonexistent",
      config: {
        knowledge: {
          backend: "huginn",
          collections: {},
          huginn: { url: server.url, collections: ["wiki"], timeoutMs: 5_000 },
        },
      },
    });
    try {
      expect(b).toBeInstanceOf(HuginnBackend);
      expect((b as HuginnBackend).timeoutMs).toBe(5_000);
      expect(reports).toEqual([]);
      expect(b.collections()).toEqual(["wiki"]);
      await b.search({ query: "q" });
      expect(server.requests[0]!.collections).toEqual(["wiki"]);
    } finally {
      await close();
    }
  });
});
