// `second-look mcp --http`: the official MCP client over Streamable HTTP with a bearer token gets
// the corrected results stdio gives; without a token 401; a token scoped to one bot cannot use
// another, a token scoped to a collection searches only it; unknown argument keys are refused
// with the closest valid key; rate and size limits, health, graceful shutdown; many clients at
// once, each reply its own. In-process servers on 127.0.0.1 (port 0), plus the CLI spawned once.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveBots } from "../../../src/bots/bot-resolver.js";
import type { BotDefinition } from "../../../src/bots/discovery.js";
import { searchAsTheModelWould } from "../../../src/cli/search.js";
import { knowledgeTools } from "../../../src/connectors/mcp/knowledge-mcp-server.js";
import { tokenStore } from "../../../src/connectors/mcp/mcp-tokens.js";
import { type HttpMcpServer, startHttpMcp } from "../../../src/connectors/mcp/serve-http.js";
import { type OpenedBackend, openBotBackend } from "../../../src/connectors/open-bot-backend.js";
import { NO_BETTER_MATCH_NOTE_START } from "../../../src/knowledge-tool/result-text.js";
import { setLogger } from "../../../src/telemetry/logger.js";
import type { KnowledgeBackend, SearchResponse } from "../../../src/types.js";
import { startCli } from "../../support/cli-process.js";
import { makeHandbookBot } from "../../support/handbook-bot.js";
import { HANDBOOK_WEAK_QUERY } from "../../support/handbook-queries.js";
import { connectHttpMcp } from "../../support/http-mcp-client.js";
import { silent } from "./mcp-harness.js";

// Weak on the handbook, which answers it: re-queried, nothing better found (support/handbook-queries.ts).
const WEAK_QUERY = HANDBOOK_WEAK_QUERY;
const ALL = "all-access-token-0123456789";
const HANDBOOK_ONLY = "handbook-only-token-0123456789";
const KITCHEN_ONLY = "kitchen-only-token-0123456789";

let root: string;
let bots: BotDefinition[];
const opened: OpenedBackend[] = [];
let http: HttpMcpServer;

async function writeKitchenBot(dir: string): Promise<void> {
  for (const [collection, topics] of Object.entries({
    kitchen: ["kettle", "toaster", "blender"],
    garden: ["hose", "rake", "shovel"],
  })) {
    await mkdir(join(dir, collection), { recursive: true });
    for (const topic of topics) {
      await writeFile(
        join(dir, collection, `${topic}.md`),
        `# The ${topic}\n\nHow to clean the ${topic}, store the ${topic} and repair the ${topic}.\n`,
      );
    }
  }
  await writeFile(
    join(dir, "config.json"),
    JSON.stringify({
      knowledge: {
        backend: "embedded",
        collections: { kitchen: { paths: ["kitchen/*.md"] }, garden: { paths: ["garden/*.md"] } },
      },
      correctiveRetrieval: { enabled: true, grader: "signal" },
    }),
  );
}

function serve(options: { requestsPerMinute?: number; maxBodyBytes?: number } = {}) {
  return startHttpMcp({
    bots: bots.map((bot, i) => ({
      name: bot.name,
      tools: knowledgeTools({ bot, backend: opened[i]!.backend }),
    })),
    tokens: tokenStore([
      { token: ALL, label: "all", scopes: [{ kind: "all" }] },
      { token: HANDBOOK_ONLY, label: "handbook-only", scopes: [{ kind: "bot", bot: "handbook" }] },
      {
        token: KITCHEN_ONLY,
        label: "kitchen-only",
        scopes: [{ kind: "collection", bot: "household", collection: "kitchen" }],
      },
    ]),
    port: 0,
    log: silent,
    ...options,
  });
}

beforeAll(async () => {
  setLogger(silent);
  root = await mkdtemp(join(tmpdir(), "second-look-mcp-http-"));
  await makeHandbookBot(join(root, "handbook"), {
    correctiveRetrieval: { enabled: true, retryBudget: 1, grader: "signal" },
  });
  await writeKitchenBot(join(root, "household"));
  bots = await resolveBots([join(root, "handbook"), join(root, "household")], { quiet: true });
  for (const bot of bots) opened.push(await openBotBackend(bot));
  http = await serve();
}, 120_000);

afterAll(async () => {
  await http?.close(1_000);
  for (const o of opened) await o.close();
  if (root) await rm(root, { recursive: true, force: true });
});

const post = (path: string, headers: Record<string, string> = {}, body = "{}") =>
  fetch(`${http.origin}${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body,
  });

describe("second-look mcp --http with the official Streamable HTTP client", () => {
  it("gets the corrected result `second-look search` gives, with structuredContent", async () => {
    const mcp = await connectHttpMcp(`${http.origin}/mcp/handbook`, ALL);
    try {
      const { text, isError, structured } = await mcp.call("search_knowledge", { query: WEAK_QUERY });
      expect(isError).toBe(false);
      expect(text).toContain(NO_BETTER_MATCH_NOTE_START);
      const expected = await searchAsTheModelWould(
        bots[0]!,
        { query: WEAK_QUERY },
        { correct: true, progress: false },
      );
      expect(text).toBe(expected.final);
      expect(structured).toMatchObject({
        query: WEAK_QUERY,
        collections: ["handbook"],
        corrective: { changed: true, addedHits: 0 },
      });
    } finally {
      await mcp.close();
    }
  });

  it("without a token, or with a wrong one: 401 and the client cannot connect", async () => {
    const none = await post("/mcp/handbook");
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toBe('Bearer realm="second-look"');
    expect((await post("/mcp/handbook", { authorization: `Bearer ${ALL}x` })).status).toBe(401);
    expect((await post("/mcp/handbook", { authorization: ALL })).status).toBe(401);
    await expect(connectHttpMcp(`${http.origin}/mcp/handbook`)).rejects.toMatchObject({ code: 401 });
    // Without a token nothing tells which bots exist: an unknown bot is 401 too.
    expect((await post("/mcp/no-such-bot")).status).toBe(401);
  });

  it("a token scoped to bot handbook cannot use bot household (403), and can use handbook", async () => {
    expect((await post("/mcp/household", { authorization: `Bearer ${HANDBOOK_ONLY}` })).status).toBe(403);
    await expect(connectHttpMcp(`${http.origin}/mcp/household`, HANDBOOK_ONLY)).rejects.toMatchObject({
      code: 403,
    });
    const mcp = await connectHttpMcp(`${http.origin}/mcp/handbook`, HANDBOOK_ONLY);
    try {
      expect((await mcp.call("search_knowledge", { query: "parental leave" })).isError).toBe(false);
    } finally {
      await mcp.close();
    }
  });

  it("a token scoped to one collection searches, lists and fetches only it", async () => {
    const mcp = await connectHttpMcp(`${http.origin}/mcp/household`, KITCHEN_ONLY);
    try {
      const listing = await mcp.call("list_collections");
      expect(listing.structured).toEqual({ collections: [expect.objectContaining({ name: "kitchen" })] });
      // No collection named: the kitchen only, though "rake" is a garden word.
      const unnamed = await mcp.call("search_knowledge", { query: "clean the rake" });
      expect((unnamed.structured as { collections: string[] }).collections).toEqual(["kitchen"]);
      expect(unnamed.text).not.toContain("collection: `garden`");
      const garden = await mcp.call("search_knowledge", { query: "rake", collection: "garden" });
      expect(garden.isError).toBe(true);
      expect(garden.text).toContain("garden");
      expect((await mcp.call("get_document", { collection: "garden", doc_id: "rake.md" })).isError).toBe(
        true,
      );
      const { tools } = await mcp.client.listTools();
      expect(tools.find((t) => t.name === "search_knowledge")!.description).toContain("Collections: kitchen");
    } finally {
      await mcp.close();
    }
    const full = await connectHttpMcp(`${http.origin}/mcp/household`, ALL);
    try {
      const garden = await full.call("search_knowledge", { query: "rake", collection: "garden" });
      expect(garden.isError).toBe(false);
      expect(garden.text).toContain("collection: `garden`");
    } finally {
      await full.close();
    }
  });

  it("refuses an unknown argument key, naming the closest valid key", async () => {
    const mcp = await connectHttpMcp(`${http.origin}/mcp/handbook`, ALL);
    try {
      const wrong = await mcp.call("search_knowledge", { query: "pay", collections: ["handbook"] });
      expect(wrong.isError).toBe(true);
      expect(wrong.text).toContain('unknown argument "collections" (did you mean "collection"?)');
    } finally {
      await mcp.close();
    }
  });

  it("answers many clients at once, each reply its own", async () => {
    const topics = ["parental leave", "expenses", "sick leave", "business travel", "onboarding"];
    const clients = await Promise.all(
      Array.from({ length: 8 }, () => connectHttpMcp(`${http.origin}/mcp/handbook`, ALL)),
    );
    try {
      const replies = await Promise.all(
        clients.flatMap((client) =>
          topics.map(async (query) => ({ query, reply: await client.call("search_knowledge", { query }) })),
        ),
      );
      expect(replies).toHaveLength(40);
      for (const { query, reply } of replies) {
        expect(reply.isError).toBe(false);
        expect((reply.structured as { query: string }).query).toBe(query);
      }
      // The same query gives the same text whichever client asked.
      for (const query of topics) {
        expect(new Set(replies.filter((r) => r.query === query).map((r) => r.reply.text)).size).toBe(1);
      }
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
  });

  it("serves /health without a token, 405 for GET on /mcp, 404 elsewhere; /mcp alone needs a bot name here", async () => {
    const health = await fetch(`${http.origin}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });
    expect(
      (await fetch(`${http.origin}/mcp/handbook`, { headers: { authorization: `Bearer ${ALL}` } })).status,
    ).toBe(405);
    expect((await fetch(`${http.origin}/elsewhere`)).status).toBe(404);
    const bare = await post("/mcp", { authorization: `Bearer ${ALL}` });
    expect(bare.status).toBe(404);
    expect(((await bare.json()) as { error: string }).error).toContain("/mcp/<bot> (handbook, household)");
  });
});

describe("limits", () => {
  it("a token past its rate gets 429 with Retry-After; another token is unaffected", async () => {
    const limited = await serve({ requestsPerMinute: 2 });
    try {
      const send = (token: string) =>
        fetch(`${limited.origin}/mcp/handbook`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}` },
          body: "{",
        });
      expect((await send(ALL)).status).toBe(400);
      expect((await send(ALL)).status).toBe(400);
      const refused = await send(ALL);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect((await send(HANDBOOK_ONLY)).status).toBe(400);
    } finally {
      await limited.close(1_000);
    }
  });

  it("a body over the limit is refused with 413", async () => {
    const small = await serve({ maxBodyBytes: 2_048 });
    try {
      const big = JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { query: "x".repeat(4_000) },
      });
      const response = await fetch(`${small.origin}/mcp/handbook`, {
        method: "POST",
        headers: { authorization: `Bearer ${ALL}`, "content-type": "application/json" },
        body: big,
      });
      expect(response.status).toBe(413);
    } finally {
      await small.close(1_000);
    }
  });
});

describe("graceful shutdown", () => {
  /** A one-bot server whose searches wait until `release` is called. */
  async function gatedServer() {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow: KnowledgeBackend = {
      collections: () => ["slow"],
      search: async (request): Promise<SearchResponse> => {
        await gate;
        return { query: request.query, results: [], bestScore: 0, reranked: false };
      },
    };
    const bot = {
      name: "slow",
      config: { ...bots[0]!.config, correctiveRetrieval: { enabled: false } },
    } as BotDefinition;
    const server = await startHttpMcp({
      bots: [{ name: "slow", tools: knowledgeTools({ bot, backend: slow }) }],
      tokens: tokenStore([{ token: ALL, label: "all", scopes: [{ kind: "all" }] }]),
      port: 0,
      log: silent,
    });
    return { server, release };
  }

  it("finishes a call in flight and refuses new connections meanwhile", async () => {
    const { server, release } = await gatedServer();
    const mcp = await connectHttpMcp(`${server.origin}/mcp`, ALL);
    const inFlight = mcp.call("search_knowledge", { query: "anything" });
    await expect.poll(() => server.inFlight()).toBe(1);
    const closing = server.close(10_000);
    await expect(fetch(`${server.origin}/health`)).rejects.toThrow();
    release();
    expect((await inFlight).isError).toBe(false);
    expect(await closing).toEqual({ unfinished: 0 });
    await mcp.close();
  });

  it("cuts off a call that overruns the bound", async () => {
    const { server, release } = await gatedServer();
    const mcp = await connectHttpMcp(`${server.origin}/mcp`, ALL);
    const inFlight = mcp.call("search_knowledge", { query: "anything" });
    await expect.poll(() => server.inFlight()).toBe(1);
    expect(await server.close(50)).toEqual({ unfinished: 1 });
    await expect(inFlight).rejects.toThrow();
    release();
    await mcp.close();
  });
});

describe("second-look mcp ./my-bot --http (the CLI, from a project's folder)", () => {
  it("serves at /mcp with a token from SECOND_LOOK_MCP_TOKENS and stops on SIGTERM", async () => {
    const run = startCli(
      ["mcp", "./household", "--http", "127.0.0.1:0"],
      {
        SECOND_LOOK_MCP_TOKENS: ALL,
        SECOND_LOOK_LOG_LEVEL: "warn",
      },
      { cwd: root },
    );
    try {
      await expect
        .poll(() => run.stdout(), { timeout: 30_000 })
        .toMatch(/serving household at http:\/\/127\.0\.0\.1:\d+\/mcp\n/);
      const url = /serving household at (\S+)/.exec(run.stdout())![1]!;
      const mcp = await connectHttpMcp(url, ALL);
      const reply = await mcp.call("search_knowledge", { query: "kettle" });
      expect(reply.isError).toBe(false);
      expect(reply.text).toContain("kettle");
      await mcp.close();
    } finally {
      run.child.kill("SIGTERM");
    }
    const done = await run.done;
    expect(done.exitCode).toBe(0);
    expect(done.stdout).toMatch(/stopped\n$/);
  }, 60_000);

  it("refuses to start over HTTP without any token", async () => {
    const done = await startCli(
      ["mcp", "./household", "--http", "0"],
      { SECOND_LOOK_MCP_TOKENS: "" },
      { cwd: root },
    ).done;
    expect(done.exitCode).toBe(1);
    expect(done.stderr).toContain("--http needs tokens: set SECOND_LOOK_MCP_TOKENS");
  }, 60_000);
});
