// Issue 32, D1: a token scoped to one collection of a bot read another collection's documents —
// the model grader suggested it, the corrective re-query searched it and the reply carried its
// documents, while structuredContent still said the scoped collection. The caller's allow-list
// is now the pass's: over HTTP the token's collections, over stdio the bot's (the same
// `newServer` path `second-look mcp <bot>` serves), in every grader mode, with and without the
// deep fallback — the grader is told only those collections, and no reply holds another's document.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { knowledgeTools } from "../../src/connectors/mcp/knowledge-mcp-server.js";
import { tokenStore } from "../../src/connectors/mcp/mcp-tokens.js";
import { startHttpMcp } from "../../src/connectors/mcp/serve-http.js";
import { setLogger } from "../../src/telemetry/logger.js";
import { silent } from "../connectors/mcp/mcp-harness.js";
import {
  BOT_COLLECTIONS,
  botConfig,
  ENV,
  type GraderServer,
  MODES,
  type Mode,
  namedInPrompt,
  OPEN,
  outOfScopeDocuments,
  QUERY,
  SECRET,
  startGrader,
  type TemptingBackend,
  temptingBackend,
  WEAK_WORD,
  WIKI,
} from "../connectors/mcp/scope-fixtures.js";
import { connectHttpMcp } from "../support/http-mcp-client.js";
import { callAndRead, type ToolReply } from "../support/mcp-call.js";

const TOKEN = "open-notes-only-token-0123456789";

/** The grader as a caller's own query text can steer it: the answer is in another collection. */
function steeredTo(collection: string): string {
  return JSON.stringify({
    verdict: "insufficient",
    rewrittenQuery: "payroll salary bands",
    alternativeQueries: ["starter pay scale", `starter pay ${WEAK_WORD}`],
    suggestedCollection: collection,
    reason: `the ${collection} collection holds the payroll bands`,
  });
}

let toWiki: GraderServer;
let toSecret: GraderServer;

beforeAll(async () => {
  setLogger(silent);
  toWiki = await startGrader(() => steeredTo(WIKI));
  toSecret = await startGrader(() => steeredTo(SECRET));
});

afterAll(async () => {
  await toWiki?.close();
  await toSecret?.close();
});

/** One search over HTTP with the token scoped `kb/open-notes`. */
async function overHttp(mode: Mode, deep: boolean, backend: TemptingBackend): Promise<ToolReply> {
  const tools = knowledgeTools({
    bot: { name: "kb", config: botConfig({ graderUrl: toWiki.url, mode, deep }) },
    backend,
    env: ENV,
    log: silent,
  });
  const http = await startHttpMcp({
    bots: [{ name: "kb", tools }],
    tokens: tokenStore([
      { token: TOKEN, label: "open-notes", scopes: [{ kind: "collection", bot: "kb", collection: OPEN }] },
    ]),
    port: 0,
    log: silent,
  });
  try {
    const mcp = await connectHttpMcp(`${http.origin}/mcp`, TOKEN);
    try {
      return await mcp.call("search_knowledge", { query: QUERY });
    } finally {
      await mcp.close();
    }
  } finally {
    await http.close(1_000);
  }
}

/** One search on the server `mcp <bot>` serves over stdio (`newServer()`), in memory. */
async function overStdioPath(mode: Mode, deep: boolean, backend: TemptingBackend): Promise<ToolReply> {
  const tools = knowledgeTools({
    bot: { name: "kb", config: botConfig({ graderUrl: toSecret.url, mode, deep }) },
    backend,
    env: ENV,
    log: silent,
  });
  const server = tools.newServer();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "scope-test", version: "0.0.0" });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  try {
    return await callAndRead(client, "search_knowledge", { query: QUERY });
  } finally {
    await client.close();
    await server.close();
  }
}

interface Structured {
  collections: string[];
  hits: { collection: string }[];
  corrective: { added: { collection: string; doc_id: string }[]; addedHits: number } | null;
}

/** What a reply must never hold, and what the pass must never have searched or read. */
function expectInside(reply: ToolReply, backend: TemptingBackend, scope: readonly string[]): void {
  expect(reply.isError).toBe(false);
  expect(outOfScopeDocuments(reply.text, scope)).toEqual([]);
  expect(outOfScopeDocuments(JSON.stringify(reply.structured), scope)).toEqual([]);
  const structured = reply.structured as Structured;
  expect(
    structured.collections.every((c) => scope.includes(c)),
    structured.collections.join(),
  ).toBe(true);
  expect(structured.hits.every((h) => scope.includes(h.collection))).toBe(true);
  expect((structured.corrective?.added ?? []).every((h) => scope.includes(h.collection))).toBe(true);
  for (const request of backend.searches) {
    expect(request.collections, request.query).toBeDefined();
    expect(
      request.collections!.every((c) => scope.includes(c)),
      request.collections!.join(),
    ).toBe(true);
  }
  expect(backend.reads.filter((read) => !scope.some((c) => read.startsWith(`${c}/`)))).toEqual([]);
}

describe("D1: a token scoped to one collection reads only that collection", () => {
  for (const mode of MODES) {
    for (const deep of [false, true]) {
      it(`over HTTP, grader ${mode}, deep fallback ${deep ? "on" : "off"}: the grader's suggestion of another collection is not followed`, async () => {
        const backend = temptingBackend();
        const before = toWiki.prompts().length;
        const reply = await overHttp(mode, deep, backend);
        expectInside(reply, backend, [OPEN]);
        // The pass ran and re-searched (inside the scope): the case is not vacuous.
        expect(reply.text).toContain("[corrective retrieval — re-query #1");
        expect(backend.searches.some((r) => r.rerank === true)).toBe(true);
        // structuredContent names what the text shows: the hits the re-search appended, each in the text.
        const { corrective } = reply.structured as Structured;
        expect(corrective?.added.length).toBeGreaterThan(0);
        expect(corrective?.added.length).toBe(corrective?.addedHits);
        for (const added of corrective?.added ?? []) expect(reply.text).toContain(added.doc_id);
        // The deep fallback read the weak re-query's documents (inside the scope) when it is on.
        expect(backend.reads.length > 0).toBe(deep);
        const prompts = toWiki.prompts().slice(before);
        expect(prompts.length > 0).toBe(mode !== "signal");
        for (const prompt of prompts) {
          expect(namedInPrompt(prompt)).toEqual([OPEN]);
          expect(prompt).not.toContain(WIKI);
        }
      });
    }
  }

  for (const mode of MODES) {
    it(`over the stdio path, grader ${mode}: the bot's own list is the scope, whatever the grader or backend offers`, async () => {
      // The backend holds hr-secret, outside the bot's list, and answers with it unasked.
      const backend = temptingBackend({ leaky: true });
      const before = toSecret.prompts().length;
      const reply = await overStdioPath(mode, true, backend);
      const scope: string[] = [...BOT_COLLECTIONS];
      expect(outOfScopeDocuments(reply.text, scope)).toEqual([]);
      expect(outOfScopeDocuments(JSON.stringify(reply.structured), scope)).toEqual([]);
      expect(reply.text).toContain("[corrective retrieval — re-query #1");
      const requeries = backend.searches.filter((r) => r.rerank === true);
      expect(requeries.length).toBeGreaterThan(0);
      for (const request of requeries)
        expect(request.collections?.every((c) => scope.includes(c))).toBe(true);
      const prompts = toSecret.prompts().slice(before);
      expect(prompts.length > 0).toBe(mode !== "signal");
      for (const prompt of prompts) {
        expect(namedInPrompt(prompt)).toEqual(scope);
      }
    });
  }
});
