// Issue 32's probe of `second-look mcp --http`, each case as it was sent (loopback, in-process
// servers over stub backends; the CLI's own refusal in-process too):
// - D2: one 1 MiB tool call with ~87,000 unknown argument names (or nested 500,000 deep) once held
//   the event loop for seconds building a "did you mean" for every name; now it is refused on its
//   bytes' structure, and a smaller one names a few keys and counts the rest.
// - D3: a JSON-RPC batch counts each of its messages against the token's rate, and holds at
//   most 10 (the SDK answers a batch's messages in one turn of the event loop).
// - D8: a token is told only the names of the bots it may use.
// - D10: a request refused before its body is read leaves the body unread (the connection closes
//   instead of 200 MB being read and dropped; `Expect: 100-continue` gets no 100).
// - D11: two bots of one name are refused at start, naming both folders.
// How long /health waits while the D2 request is refused is measured by
// `npm run bench -- mcp-hostile`.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BotConfigSchema } from "../../src/bots/config-schema.js";
import { runMcp } from "../../src/cli/mcp.js";
import { knowledgeTools } from "../../src/connectors/mcp/knowledge-mcp-server.js";
import { tokenStore } from "../../src/connectors/mcp/mcp-tokens.js";
import { type HttpMcpServer, McpBotNamesError, startHttpMcp } from "../../src/connectors/mcp/serve-http.js";
import { setLogger } from "../../src/telemetry/logger.js";
import type { KnowledgeBackend } from "../../src/types.js";
import { silent } from "../connectors/mcp/mcp-harness.js";
import {
  deeplyNestedCall,
  longUnknownKeysCall,
  MIB,
  manyUnknownKeysCall,
  unknownKeysCall,
} from "../support/hostile-mcp-requests.js";

const ALL = "all-access-token-0123456789";
const HANDBOOK_ONLY = "handbook-only-token-0123456789";
const ELSEWHERE = "other-server-token-0123456789";

function stubBackend(collection: string): KnowledgeBackend {
  return {
    collections: () => [collection],
    search: async (request) => ({ query: request.query, results: [], bestScore: 0, reranked: false }),
  };
}

function serve(options: { requestsPerMinute?: number; maxBodyBytes?: number } = {}) {
  const bots = ["handbook", "household"].map((name) => {
    const config = BotConfigSchema.parse({
      knowledge: { backend: "embedded", collections: { [name]: { paths: ["*.md"] } } },
    });
    return {
      name,
      tools: knowledgeTools({ bot: { name, config }, backend: stubBackend(name), log: silent }),
    };
  });
  return startHttpMcp({
    bots,
    tokens: tokenStore([
      { token: ALL, label: "all", scopes: [{ kind: "all" }] },
      { token: HANDBOOK_ONLY, label: "handbook-only", scopes: [{ kind: "bot", bot: "handbook" }] },
      { token: ELSEWHERE, label: "elsewhere", scopes: [{ kind: "bot", bot: "wiki" }] },
    ]),
    port: 0,
    log: silent,
    ...options,
  });
}

let http: HttpMcpServer;
beforeAll(async () => {
  http = await serve();
});
afterAll(async () => {
  await http?.close(1_000);
});

async function post(server: HttpMcpServer, path: string, body: string, token = ALL) {
  const response = await fetch(`${server.origin}${path}`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body,
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** The text of a JSON-RPC reply: a tool result's text, or the error's message. */
function replyText(text: string): string {
  const reply = JSON.parse(text) as {
    result?: { content: Array<{ text: string }> };
    error?: { message: string };
  };
  return reply.error?.message ?? reply.result!.content.map((c) => c.text).join("");
}

describe("D2: one tool call's work is bounded whatever its arguments hold", () => {
  it("1 MiB of unknown argument names is refused on its structure, naming the bound", async () => {
    const { body, keys } = manyUnknownKeysCall();
    expect(body.length).toBeGreaterThan(MIB - 2_048);
    expect(keys).toBeGreaterThan(80_000);
    const reply = await post(http, "/mcp/handbook", body);
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.text)).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, message: "Invalid Request: more than 1024 members and elements" },
    });
  });

  it("arguments nested 500,000 deep are refused on their depth", async () => {
    const reply = await post(http, "/mcp/handbook", deeplyNestedCall(500_000));
    expect(reply.status).toBe(400);
    expect(replyText(reply.text)).toBe("Invalid Request: nested deeper than 64 levels");
  });

  it("1 MiB of 1,000 names of 1 KB is refused on their length", async () => {
    const reply = await post(http, "/mcp/handbook", longUnknownKeysCall(1_000, 1_030));
    expect(reply.status).toBe(400);
    expect(replyText(reply.text)).toBe("Invalid Request: a member name longer than 256 bytes");
  });

  it("900 unknown names: refused after counting 65 arguments, no name listed", async () => {
    const reply = await post(http, "/mcp/handbook", unknownKeysCall(900));
    const text = replyText(reply.text);
    expect(text).toContain("arguments contain more than the maximum of 64 elements");
    expect(text).not.toContain("extra_");
  });

  it("a few unknown names: the first five named with suggestions, the rest counted", async () => {
    const call = JSON.stringify({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: {
        name: "search_knowledge",
        arguments: {
          query: "leave",
          collections: ["handbook"],
          ...Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`extra_${i}`, 1])),
          [`${"k".repeat(200)}`]: 1,
        },
      },
    });
    const text = replyText((await post(http, "/mcp/handbook", call)).text);
    expect(text).toContain(
      'unknown arguments "collections" (did you mean "collection"?), "extra_0", "extra_1", "extra_2", "extra_3", and 6 more; this tool takes: query, collection,',
    );
    expect(text.length).toBeLessThan(600);
  });
});

describe("D3: each message of a JSON-RPC batch counts against the token's rate", () => {
  const batch = (n: number) =>
    JSON.stringify(
      Array.from({ length: n }, (_, i) => ({
        jsonrpc: "2.0",
        id: i + 1,
        method: "tools/call",
        params: { name: "list_collections", arguments: {} },
      })),
    );

  it("with --rate 3, a batch of 5 is refused, a batch of 2 then uses up the minute", async () => {
    const limited = await serve({ requestsPerMinute: 3 });
    try {
      const five = await post(limited, "/mcp/handbook", batch(5));
      expect(five.status).toBe(429);
      expect(JSON.parse(five.text)).toEqual({
        error: "a batch of 5 messages is more than this token may send in a minute (3)",
      });
      // The refused batch's POST took one of the three; the batch of two takes the other two.
      const two = await post(limited, "/mcp/handbook", batch(2));
      expect(two.status).toBe(200);
      expect((JSON.parse(two.text) as unknown[]).length).toBe(2);
      const single = await post(limited, "/mcp/handbook", batch(1));
      expect(single.status).toBe(429);
      expect(Number(single.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    } finally {
      await limited.close(1_000);
    }
  });

  it("a batch of more than 10 messages is refused whole, before any is answered", async () => {
    const eleven = await post(http, "/mcp/handbook", batch(11));
    expect(eleven.status).toBe(400);
    expect(replyText(eleven.text)).toBe("Invalid Request: a batch may hold at most 10 messages");
    expect((JSON.parse((await post(http, "/mcp/handbook", batch(10))).text) as unknown[]).length).toBe(10);
  });

  it("with --rate 6, a batch of 4 passes and the next batch of 4 waits (Retry-After)", async () => {
    const limited = await serve({ requestsPerMinute: 6 });
    try {
      expect((await post(limited, "/mcp/handbook", batch(4))).status).toBe(200);
      const second = await post(limited, "/mcp/handbook", batch(4));
      expect(second.status).toBe(429);
      expect(Number(second.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    } finally {
      await limited.close(1_000);
    }
  });
});

describe("D8: a token learns only the names of the bots it may use", () => {
  it("/mcp on a server of two bots names only the token's bot", async () => {
    const scoped = await post(http, "/mcp", "{}", HANDBOOK_ONLY);
    expect(scoped.status).toBe(404);
    expect(JSON.parse(scoped.text)).toEqual({
      error: "this server serves several bots: use /mcp/<bot> (handbook)",
    });
    const all = await post(http, "/mcp", "{}", ALL);
    expect(JSON.parse(all.text).error).toContain("(handbook, household)");
    const none = await post(http, "/mcp", "{}", ELSEWHERE);
    expect(JSON.parse(none.text)).toEqual({ error: "this token may not use any bot of this server" });
  });
});

/**
 * A raw HTTP/1.1 exchange: `head` is sent, then `bodyBytes` of body in 1 MiB pieces (each framed
 * as a chunk when `chunked`) as fast as the server takes them. Ends when the server closes the
 * connection, or once everything was written and an answer came (then this side closes).
 */
function rawExchange(port: number, head: string, bodyBytes: number, chunked = false) {
  return new Promise<{ received: string; sent: number; closedEarly: boolean }>((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let received = "";
    let sent = 0;
    let closed = false;
    const data = Buffer.alloc(MIB, 0x20);
    const piece = chunked ? Buffer.concat([Buffer.from("100000\r\n"), data, Buffer.from("\r\n")]) : data;
    socket.on("data", (bytes) => {
      received += bytes.toString("latin1");
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      closed = true;
      resolve({ received, sent, closedEarly: sent < bodyBytes });
    });
    // Everything was written and the connection is still open: close it once an answer is in.
    const settle = () => {
      if (received.includes("\r\n\r\n")) setTimeout(() => socket.destroy(), 50);
      else socket.once("data", settle);
    };
    socket.write(head);
    const pump = () => {
      while (!closed && sent < bodyBytes) {
        sent += data.length;
        if (!socket.write(piece)) return void socket.once("drain", pump);
      }
      if (!closed) settle();
    };
    pump();
  });
}

describe("D10: a request refused before its body is read leaves the body unread", () => {
  const head = (extra: string) =>
    `POST /mcp/handbook HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\n${extra}\r\n`;

  it("no token and a 200 MB body: 401 at once, the connection closed with the body unread", async () => {
    const exchange = await rawExchange(http.port, head(`content-length: ${200 * MIB}\r\n`), 64 * MIB);
    expect(exchange.received).toMatch(/^HTTP\/1\.1 401 /);
    expect(exchange.received.toLowerCase()).toContain("connection: close");
    expect(exchange.closedEarly).toBe(true);
    expect(exchange.sent).toBeLessThan(64 * MIB);
  });

  it("Expect: 100-continue without a token: 401, never 100 Continue", async () => {
    const exchange = await rawExchange(
      http.port,
      head(`content-length: ${200 * MIB}\r\nexpect: 100-continue\r\n`),
      0,
    );
    expect(exchange.received).toMatch(/^HTTP\/1\.1 401 /);
    expect(exchange.received).not.toContain("100 Continue");
  });

  it("Expect: 100-continue with a token: 100 Continue, then the body, then the answer", async () => {
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "list_collections", arguments: {} },
    });
    const socket = connect(http.port, "127.0.0.1");
    let received = "";
    const until = (pattern: RegExp) =>
      new Promise<void>((resolve) => {
        const check = () => (pattern.test(received) ? resolve() : undefined);
        socket.on("data", check);
        check();
      });
    socket.on("data", (data) => {
      received += data.toString("latin1");
    });
    socket.write(
      `${head(`authorization: Bearer ${ALL}\r\naccept: application/json, text/event-stream\r\ncontent-length: ${body.length}\r\nexpect: 100-continue\r\n`)}`,
    );
    await until(/^HTTP\/1\.1 100 Continue\r\n\r\n/);
    socket.write(body);
    await until(/"id":1\}/);
    socket.destroy();
    expect(received).toContain("HTTP/1.1 200 OK");
    expect(received).toContain('"name":"handbook"');
  });

  it("a chunked body over --max-body: 413 is delivered, then the connection closes", async () => {
    const small = await serve({ maxBodyBytes: 2_048 });
    try {
      const exchange = await rawExchange(
        small.port,
        `POST /mcp/handbook HTTP/1.1\r\nhost: localhost\r\nauthorization: Bearer ${ALL}\r\ntransfer-encoding: chunked\r\n\r\n`,
        64 * MIB,
        true,
      );
      expect(exchange.received).toMatch(/^HTTP\/1\.1 413 /);
      expect(exchange.closedEarly).toBe(true);
    } finally {
      await small.close(1_000);
    }
  });

  it("a client's small refused body keeps its connection: the next request on it is answered", async () => {
    const socket = connect(http.port, "127.0.0.1");
    let received = "";
    socket.on("data", (data) => {
      received += data.toString("latin1");
    });
    const answers = (n: number) =>
      new Promise<void>((resolve) => {
        const check = () => ((received.match(/HTTP\/1\.1 /g) ?? []).length >= n ? resolve() : undefined);
        socket.on("data", check);
        check();
      });
    socket.write(`${head("content-length: 2\r\n")}{}`);
    await answers(1);
    socket.write("GET /health HTTP/1.1\r\nhost: localhost\r\n\r\n");
    await answers(2);
    socket.destroy();
    expect(received).toMatch(/^HTTP\/1\.1 401 /);
    expect(received).toContain("HTTP/1.1 200 OK");
    expect(received).toContain('{"status":"ok"}');
    expect(received.toLowerCase()).not.toContain("connection: close");
  });
});

describe("D11: two bots of one name are refused at start", () => {
  let root: string;
  beforeAll(async () => {
    setLogger(silent);
    root = await mkdtemp(join(tmpdir(), "second-look-same-name-"));
    for (const parent of ["a", "b"]) {
      await mkdir(join(root, parent, "kb", "docs"), { recursive: true });
      await writeFile(join(root, parent, "kb", "docs", "page.md"), `# Page ${parent}\n\nText.\n`);
      await writeFile(
        join(root, parent, "kb", "config.json"),
        JSON.stringify({ knowledge: { backend: "embedded", collections: { kb: { paths: ["docs/*.md"] } } } }),
      );
    }
  });
  afterAll(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });

  it("`mcp a/kb b/kb --http` stops with one line naming both folders and the way out", async () => {
    const output: string[] = [];
    const io = {
      stdout: { write: (text: string) => output.push(text) } as unknown as NodeJS.WritableStream,
      stderr: { write: (text: string) => output.push(text) } as unknown as NodeJS.WritableStream,
    };
    const started = runMcp([join(root, "a", "kb"), join(root, "b", "kb")], { http: "127.0.0.1:0" }, io, {
      env: { SECOND_LOOK_MCP_TOKENS: ALL, SECOND_LOOK_LOG_LEVEL: "silent" },
      untilStopped: async () => "SIGTERM",
    });
    const error = await started.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error, "the server started instead").toBeDefined();
    expect((error as Error).message).toBe(
      `bots ${join(root, "a", "kb")} and ${join(root, "b", "kb")} are both named "kb" and would share /mcp/kb: ` +
        "serve one of them from another `second-look mcp --http` (another port), or rename one bot's folder",
    );
    expect(error).toBeInstanceOf(McpBotNamesError);
    expect(output.join("")).not.toContain("serving");
  });

  it("startHttpMcp itself refuses two bots of one name", async () => {
    const config = BotConfigSchema.parse({
      knowledge: { backend: "embedded", collections: { kb: { paths: ["*.md"] } } },
    });
    const tools = knowledgeTools({ bot: { name: "kb", config }, backend: stubBackend("kb"), log: silent });
    await expect(
      startHttpMcp({
        bots: [
          { name: "kb", tools },
          { name: "kb", tools },
        ],
        tokens: tokenStore([{ token: ALL, label: "all", scopes: [{ kind: "all" }] }]),
        port: 0,
        log: silent,
      }),
    ).rejects.toThrow('bots kb and kb are both named "kb"');
  });
});
