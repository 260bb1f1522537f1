// `second-look mcp <bot>` as an MCP client runs it: spawned (from source), spoken to by the
// official TypeScript client over stdio. The tools are listed with descriptions built from the
// bot's description; a weak query comes back corrected, exactly as `second-look search` (the
// Copilot session's assembled bot) corrects it; stdout carries nothing but JSON-RPC; logs go to stderr;
// the server exits by itself when the client closes the connection.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadBot } from "../../../src/bots/discovery.js";
import { searchAsTheModelWould } from "../../../src/cli/search.js";
import {
  CORRECTIVE_NOTE_START,
  NO_BETTER_MATCH_NOTE_START,
  NOT_COVERED_NOTE_START,
} from "../../../src/knowledge-tool/result-text.js";
import { setLogger } from "../../../src/telemetry/logger.js";
import { makeHandbookBot } from "../../support/handbook-bot.js";
import { HANDBOOK_UNCOVERED_QUERY, HANDBOOK_WEAK_QUERY } from "../../support/handbook-queries.js";
import { silent } from "./mcp-harness.js";
import { type StdioMcp, spawnStdioMcp } from "./stdio-client.js";

// Weak on the handbook, which answers it: re-queried, nothing better found (support/handbook-queries.ts).
const WEAK_QUERY = HANDBOOK_WEAK_QUERY;
const DESCRIPTION = "Employee handbook for Brightwater Labs: leave, pay, benefits, travel and IT policies.";

let root: string;
let botDir: string;

beforeAll(async () => {
  setLogger(silent);
  root = await mkdtemp(join(tmpdir(), "second-look-mcp-"));
  botDir = join(root, "handbook-mcp");
  await makeHandbookBot(botDir, {
    description: DESCRIPTION,
    correctiveRetrieval: { enabled: true, retryBudget: 1, grader: "signal" },
  });
});
afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

describe("second-look mcp <bot> over stdio, with the official MCP client", () => {
  let mcp: StdioMcp;
  beforeAll(async () => {
    mcp = await spawnStdioMcp(botDir);
  });
  afterAll(async () => {
    await mcp?.close();
  });

  it("lists search_knowledge, get_document and list_collections, described from the bot", async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["get_document", "list_collections", "search_knowledge"]);
    const search = tools.find((t) => t.name === "search_knowledge")!;
    expect(search.description).toContain(`This knowledge base contains: ${DESCRIPTION}`);
    // Worded for an MCP client: JSON arguments, and a URL only where a result shows one.
    expect(search.description).toContain('Set "brief": true for an initial overview');
    expect(search.description).not.toContain("brief=True");
    expect(search.description).not.toContain("'url' field");
    expect(search.description).toContain("Collections: handbook (English).");
    expect(search.description).toContain("Search each collection with words in its language");
    expect(Object.keys(search.inputSchema.properties ?? {}).sort()).toEqual(
      ["brief", "collection", "limit", "min_relevance", "query", "rerank"].sort(),
    );
    expect(search.inputSchema.required).toEqual(["query"]);
    expect(mcp.client.getInstructions()).toBe(DESCRIPTION);
  });

  it("marks every tool read-only, idempotent and closed-world, and refuses unknown arguments", async () => {
    const { tools } = await mcp.client.listTools();
    for (const tool of tools) {
      expect(tool.annotations).toMatchObject({
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      });
    }
    const search = tools.find((t) => t.name === "search_knowledge")!;
    expect(search.inputSchema.additionalProperties).toBe(false);
    expect(Object.keys(search.outputSchema?.properties ?? {}).sort()).toEqual([
      "collections",
      "corrective",
      "hits",
      "query",
    ]);
  });

  it("returns structuredContent beside the text: the search's hits and what the corrective pass did", async () => {
    const result = await mcp.client.callTool({ name: "search_knowledge", arguments: { query: WEAK_QUERY } });
    const structured = result.structuredContent as {
      query: string;
      collections: string[];
      hits: { collection: string; doc_id: string; title: string }[];
      corrective: { changed: boolean; queriesTried: string[]; addedHits: number } | null;
    };
    expect(structured.query).toBe(WEAK_QUERY);
    expect(structured.collections).toEqual(["handbook"]);
    const text = (result.content as { text: string }[])[0]!.text;
    for (const hit of structured.hits) expect(text).toContain(`doc_id: \`${hit.doc_id}\``);
    expect(structured.corrective).toMatchObject({ changed: true });
    // The pass re-queried; none of its re-queries beat the original, so it appended nothing and
    // said so in one line after the original results.
    expect(structured.corrective!.queriesTried.length).toBeGreaterThan(1);
    expect(structured.corrective!.addedHits).toBe(0);
    expect(text.split("\n").at(-1)!.startsWith(NO_BETTER_MATCH_NOTE_START)).toBe(true);
    expect(text).not.toContain(CORRECTIVE_NOTE_START);
  });

  it("a query the documents do not cover is told so in structuredContent and text: no re-query, nothing appended", async () => {
    const result = await mcp.client.callTool({
      name: "search_knowledge",
      arguments: { query: HANDBOOK_UNCOVERED_QUERY },
    });
    const structured = result.structuredContent as {
      hits: { doc_id: string }[];
      corrective: { changed: boolean; queriesTried: string[]; addedHits: number } | null;
    };
    const text = (result.content as { text: string }[])[0]!.text;
    expect(structured.corrective).toMatchObject({ changed: true, queriesTried: [], addedHits: 0 });
    const lastLine = text.split("\n").at(-1)!;
    expect(lastLine.startsWith(NOT_COVERED_NOTE_START)).toBe(true);
    expect(lastLine).toContain('no document contains "moving", "house"]');
    expect(text).not.toContain(CORRECTIVE_NOTE_START);
    // The original results stay as they were, every one of them.
    for (const hit of structured.hits) expect(text).toContain(`doc_id: \`${hit.doc_id}\``);
  });

  it("an unknown argument key is an error naming the closest valid key", async () => {
    const plural = await mcp.call("search_knowledge", { query: "pay", collections: ["handbook"] });
    expect(plural.isError).toBe(true);
    expect(plural.text).toContain('unknown argument "collections" (did you mean "collection"?)');
    const camel = await mcp.call("search_knowledge", { query: "pay", minRelevance: 0.5 });
    expect(camel.isError).toBe(true);
    expect(camel.text).toContain('"minRelevance" (did you mean "min_relevance"?)');
    expect(camel.text).toContain("this tool takes: query, collection, limit, brief, min_relevance, rerank");
  });

  it("a weak query comes back corrected: the same text `second-look search` (the Copilot assembled bot) gives", async () => {
    const { text, isError } = await mcp.call("search_knowledge", { query: WEAK_QUERY });
    expect(isError).toBe(false);
    expect(text).toContain(NO_BETTER_MATCH_NOTE_START);
    const bot = await loadBot(botDir, { quiet: true });
    const expected = await searchAsTheModelWould(
      bot,
      { query: WEAK_QUERY },
      { correct: true, progress: false },
    );
    expect(expected.outcome?.changed).toBe(true);
    expect(text).toBe(expected.final);
  });

  it("brief mode is corrected in brief mode too", async () => {
    const { text } = await mcp.call("search_knowledge", { query: WEAK_QUERY, brief: true, limit: 3 });
    const bot = await loadBot(botDir, { quiet: true });
    const expected = await searchAsTheModelWould(
      bot,
      { query: WEAK_QUERY, brief: true, limit: 3 },
      { correct: true, progress: false },
    );
    expect(text).toBe(expected.final);
  });

  it("numbers and booleans sent as strings (as the MCP Inspector sends them) are read as such", async () => {
    const asStrings = await mcp.call("search_knowledge", { query: WEAK_QUERY, brief: "true", limit: "3" });
    const typed = await mcp.call("search_knowledge", { query: WEAK_QUERY, brief: true, limit: 3 });
    expect(asStrings.isError).toBe(false);
    expect(asStrings.text).toBe(typed.text);
  });

  it("get_document and list_collections answer; a disallowed collection is an error result", async () => {
    const found = await mcp.call("search_knowledge", { query: "parental leave", brief: true, limit: 1 });
    const docId = /collection: `handbook` doc_id: `([^`]+)`/.exec(found.text)?.[1];
    expect(docId).toBeDefined();
    const doc = await mcp.call("get_document", { collection: "handbook", doc_id: docId! });
    expect(doc.isError).toBe(false);
    expect(doc.text).toMatch(/^# .+\n/);
    expect(doc.text.length).toBeGreaterThan(200);
    expect(await mcp.call("get_document", { collection: "handbook", doc_id: "nope.md" })).toEqual({
      text: "Document 'nope.md' not found in collection 'handbook'.",
      isError: true,
    });
    const listing = await mcp.call("list_collections");
    expect(listing.isError).toBe(false);
    expect(listing.text).toMatch(
      /^\*\*Loaded collections:\*\*\n\n- \*\*handbook\*\*: 14 documents, \d+ sections, in English$/,
    );
    expect(await mcp.call("search_knowledge", { query: "pay", collection: "payroll" })).toEqual({
      text: "Collection 'payroll' is not available. Available: handbook",
      isError: true,
    });
  });

  it("invalid arguments are an error result, and the server keeps serving", async () => {
    const bad = await mcp.client
      .callTool({ name: "search_knowledge", arguments: { query: 42 } })
      .catch((e: Error) => ({
        isError: true,
        content: [{ type: "text", text: e.message }],
      }));
    expect(bad.isError).toBe(true);
    expect((await mcp.call("search_knowledge", { query: "holiday" })).isError).toBe(false);
  });

  it("stdout carried only JSON-RPC; stderr carries the logs as JSON lines", () => {
    expect(mcp.clientErrors).toEqual([]);
    const lines = mcp.stderr().trim().split("\n");
    expect(lines.some((l) => l.includes("mcp: serving bot handbook-mcp on stdio"))).toBe(true);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  });
});

describe("second-look mcp: lifecycle and kill-switch", () => {
  it("with CORRECTIVE_RETRIEVAL_DISABLED=1 the weak result is passed through uncorrected", async () => {
    const mcp = await spawnStdioMcp(botDir, { CORRECTIVE_RETRIEVAL_DISABLED: "1" });
    try {
      const { text } = await mcp.call("search_knowledge", { query: WEAK_QUERY });
      const bot = await loadBot(botDir, { quiet: true });
      const expected = await searchAsTheModelWould(
        bot,
        { query: WEAK_QUERY },
        { correct: false, progress: false },
      );
      expect(text).toBe(expected.original);
      expect(text).not.toContain("[corrective retrieval");
    } finally {
      await mcp.close();
    }
    // A process of its own (tsx and the index's load: 3-8 s on a busy 2-core machine).
  }, 60_000);

  it("exits by itself when the client closes stdin", async () => {
    const mcp = await spawnStdioMcp(botDir);
    await mcp.client.listTools();
    await mcp.close();
    // The client sends SIGTERM only if the server has not exited 2 s after stdin closed.
    expect(mcp.stderr()).toContain('"reason":"stdin closed"');
    expect(() => process.kill(mcp.pid, 0)).toThrow();
  }, 60_000);
});
