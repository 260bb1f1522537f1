// The corrective pass on a Huginn bot, through the MCP search tool, against a loopback
// Huginn-compatible server that records every request: the original search and the re-query
// carry exactly the allowed collections, the re-query has rerank=true and Huginn's broader
// hint, and a re-query that fails (404, 500, timeout) leaves the original text exactly, with no
// note claiming anything.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { HuginnBackend } from "../../../src/backends/huginn/huginn-backend.js";
import { setLogger } from "../../../src/telemetry/logger.js";
import { huginnHit, huginnSearch } from "../../support/huginn-server/huginn-json.js";
import {
  type HuginnServer,
  type Reply,
  startHuginnServer,
} from "../../support/huginn-server/huginn-server.js";
import { connectInMemory, type Harness, silent } from "./mcp-harness.js";

const ALLOWED = ["wiki", "jira"];
const WEAK_QUERY = "vpn client setup guide";
const BROADER = "vpn client setup";

let server: HuginnServer;
let backend: HuginnBackend;
let mcp: Harness;
const env: NodeJS.ProcessEnv = {};

beforeAll(async () => {
  setLogger(silent);
  server = await startHuginnServer();
  backend = new HuginnBackend({ url: server.url, collections: ALLOWED, timeoutMs: 400, log: silent });
  mcp = await connectInMemory({
    config: {
      description: "Team wiki and Jira issues for the platform team.",
      knowledge: { backend: "huginn", huginn: { url: server.url, collections: ALLOWED } },
      correctiveRetrieval: { enabled: true, retryBudget: 1, grader: "signal" },
    },
    backend,
    env,
  });
});
afterAll(async () => {
  await mcp?.close();
  await backend?.close();
  await server?.close();
});
afterEach(() => {
  server.requests.length = 0;
  server.handlers = {};
  for (const key of Object.keys(env)) delete env[key];
});

/** The weak first answer (one medium hit, a broader hint); `requery` answers the re-query. */
function weakThen(requery: (collections: string[]) => Reply) {
  server.handlers.search = (r) => {
    if (r.query === BROADER) return requery(r.collections);
    const collection = r.collections[0] ?? "wiki";
    return {
      json: huginnSearch([huginnHit({ collection, id: "it/VPN.md", relevance: 0.42 })], {
        retryHints: { broaderQuery: BROADER, broaderQueryStrategy: "drop_last_word" },
      }),
    };
  };
}

const rescueHits = (collections: string[]): Reply => ({
  json: huginnSearch([
    // Already shown above: must not be repeated or counted.
    huginnHit({ collection: collections[0]!, id: "it/VPN.md", relevance: 0.9 }),
    huginnHit({ collection: collections[0]!, id: "guides/VPN Setup.md", relevance: 0.88 }),
    huginnHit({ collection: collections[collections.length - 1]!, id: "PROJ-7.md", relevance: 0.7 }),
    // A server that ignores the scope: never shown.
    huginnHit({ collection: "hr-private", id: "salaries.md", relevance: 0.99 }),
  ]),
});

/** The text the same call returns with the corrective pass switched off. */
async function uncorrected(args: Record<string, unknown>): Promise<string> {
  env.CORRECTIVE_RETRIEVAL_DISABLED = "1";
  try {
    const { text, isError } = await mcp.call("search_knowledge", args);
    expect(isError).toBe(false);
    return text;
  } finally {
    delete env.CORRECTIVE_RETRIEVAL_DISABLED;
    server.requests.length = 0;
  }
}

const NOTE =
  /\[corrective retrieval — re-query #1: prior results graded "(insufficient|ambiguous)" \([^)]*\); re-searched "([^"]+)" in (collections? [^;]+); (\d+) additional results? below, deduped against the results above\]/;

describe("corrective pass on Huginn through the MCP search tool", () => {
  it("re-queries with rerank=true and the broader hint, inside exactly the allowed collections", async () => {
    weakThen(rescueHits);
    const args = { query: WEAK_QUERY, limit: 5, brief: true };
    const original = await uncorrected(args);
    expect(original).toContain(`*Weak match — try: broader query: "${BROADER}"*`);

    const { text, isError } = await mcp.call("search_knowledge", args);
    expect(isError).toBe(false);
    const [first, requery] = server.searches();
    expect(server.searches()).toHaveLength(2);
    expect(first!.collections).toEqual(ALLOWED);
    expect(first!.params.has("rerank")).toBe(false);
    expect(requery!.query).toBe(BROADER);
    expect(requery!.params.get("rerank")).toBe("true");
    expect(requery!.collections).toEqual(ALLOWED);
    // The original call's limit and brief carry over.
    expect(requery!.params.get("limit")).toBe("5");
    expect(requery!.params.get("brief")).toBe("true");

    // The original body stays byte for byte (its stale footer replaced by the note).
    const originalBody = original.slice(0, original.lastIndexOf("\n\n*Weak match"));
    expect(text.startsWith(`${originalBody}\n\n---\n`)).toBe(true);
    // The note says what was sent and what was added, and nothing else.
    const note = NOTE.exec(text);
    expect(note?.[2]).toBe(BROADER);
    expect(note?.[3]).toBe("collections wiki, jira");
    expect(note?.[4]).toBe("2");
    expect(text.match(/doc_id: `it\/VPN\.md`/g)).toHaveLength(1);
    expect(text).toContain("collection: `wiki` doc_id: `guides/VPN Setup.md`");
    expect(text).toContain("collection: `jira` doc_id: `PROJ-7.md`");
    expect(text).not.toContain("salaries.md");
  });

  it("an explicit collection: the original and the re-query carry only it", async () => {
    weakThen(rescueHits);
    const { text } = await mcp.call("search_knowledge", { query: WEAK_QUERY, collection: "jira" });
    expect(server.searches().map((r) => r.collections)).toEqual([["jira"], ["jira"]]);
    expect(NOTE.exec(text)?.[3]).toBe("collection jira");
  });

  it.each([
    ["404", { status: 404, json: { detail: "Collection 'jira' not found" } }],
    ["500", { status: 500, body: "Internal Server Error" }],
    ["a timeout", { delayMs: 5_000, json: huginnSearch([huginnHit({ id: "late.md" })]) }],
  ] as [string, Reply][])(
    "a re-query that fails with %s leaves the original exactly, claiming nothing",
    async (_label, reply) => {
      weakThen(() => reply);
      const args = { query: WEAK_QUERY };
      const original = await uncorrected(args);
      const { text, isError } = await mcp.call("search_knowledge", args);
      expect(server.searches()).toHaveLength(2);
      expect(server.searches()[1]!.params.get("rerank")).toBe("true");
      expect(isError).toBe(false);
      expect(text).toBe(original);
      expect(text).not.toContain("[corrective retrieval");
    },
  );

  it("a confident answer is not re-queried and passes through unchanged", async () => {
    server.handlers.search = () => ({ json: huginnSearch([huginnHit({ id: "a.md", relevance: 0.95 })]) });
    const original = await uncorrected({ query: "laptop policy" });
    const { text } = await mcp.call("search_knowledge", { query: "laptop policy" });
    expect(server.searches()).toHaveLength(1);
    expect(text).toBe(original);
  });

  it("with the kill-switch set, a weak answer is not re-queried (read per call, no restart)", async () => {
    weakThen(rescueHits);
    env.CORRECTIVE_RETRIEVAL_DISABLED = "1";
    const { text } = await mcp.call("search_knowledge", { query: WEAK_QUERY });
    expect(server.searches()).toHaveLength(1);
    expect(text).not.toContain("[corrective retrieval");
  });
});

describe("MCP tools on a Huginn bot: refusals and failures", () => {
  it("a collection outside the allow-list is refused with the adapter's text and no HTTP call", async () => {
    weakThen(rescueHits);
    for (const [tool, args] of [
      ["search_knowledge", { query: "salaries", collection: "hr-private" }],
      ["get_document", { collection: "hr-private", doc_id: "salaries.md" }],
    ] as const) {
      const result = await mcp.call(tool, args);
      expect(result).toEqual({
        text: "Collection 'hr-private' is not available. Available: wiki, jira",
        isError: true,
      });
    }
    expect(server.requests).toHaveLength(0);
  });

  it("a failed original search is an error result in Huginn's words", async () => {
    server.handlers.search = () => ({ status: 500, body: '{"detail":"index not loaded"}' });
    expect(await mcp.call("search_knowledge", { query: "q" })).toEqual({
      text: 'API returned 500: {"detail":"index not loaded"}',
      isError: true,
    });
    server.handlers.search = () => ({ delayMs: 5_000, json: huginnSearch([]) });
    expect(await mcp.call("search_knowledge", { query: "q" })).toEqual({
      text: "Error calling Knowledge API: no answer within 400 ms",
      isError: true,
    });
  });

  it("get_document renders as the adapter does; a missing document is an error result", async () => {
    server.handlers.document = (r) =>
      r.document!.id === "it/VPN.md"
        ? {
            json: {
              id: "it/VPN.md",
              url: "https://wiki.example/vpn",
              text: "Install the VPN client.",
              metadata: { wip: "true", Owner: "IT", page_id: "9" },
            },
          }
        : { status: 404, json: { detail: "Document not found" } };
    expect(await mcp.call("get_document", { collection: "wiki", doc_id: "it/VPN.md" })).toEqual({
      text: [
        "# it/VPN.md",
        "**[UNDER ARBEID]** Dette dokumentet er merket som under arbeid i Confluence.",
        "https://wiki.example/vpn",
        "**Owner:** IT",
        "",
        "Install the VPN client.",
      ].join("\n"),
      isError: false,
    });
    expect(await mcp.call("get_document", { collection: "wiki", doc_id: "nope.md" })).toEqual({
      text: "Document 'nope.md' not found in collection 'wiki'.",
      isError: true,
    });
  });

  it("list_collections shows the allowed collections the server has, as the adapter does", async () => {
    server.handlers.collections = () => ({
      json: {
        collections: [
          { name: "wiki", document_count: 294, embedding_count: 2336, updatedTime: "2026-05-01T10:00:00" },
          { name: "hr-private", document_count: 5, embedding_count: 5 },
          { name: "jira", document_count: 2132 },
        ],
      },
    });
    expect(await mcp.call("list_collections")).toEqual({
      text: [
        "**Loaded collections:**",
        "",
        "- **wiki**: 294 documents, 2336 embeddings (updated: 2026-05-01T10:00:00)",
        "- **jira**: 2132 documents, ? embeddings (updated: unknown)",
      ].join("\n"),
      isError: false,
    });
  });
});
