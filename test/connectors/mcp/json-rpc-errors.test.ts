// `second-look mcp` as a raw stdio peer: a line that is not JSON and a request over 10 MiB are
// each answered with a JSON-RPC error (the client never waits forever) and the server keeps
// serving the requests that follow. The server's start (tsx, indexing the handbook) is waited
// for once, before the tests: each test then measures only its own exchange.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO } from "./stdio-client.js";

let root: string;
let child: ChildProcessWithoutNullStreams;
const replies: Record<string, unknown>[] = [];

function waitFor(predicate: (r: Record<string, unknown>) => boolean, timeoutMs = 15_000) {
  return new Promise<Record<string, unknown>>((resolvePromise, reject) => {
    const started = Date.now();
    const poll = () => {
      const found = replies.find(predicate);
      if (found) return resolvePromise(found);
      if (Date.now() - started > timeoutMs)
        return reject(new Error(`no such reply; got ${JSON.stringify(replies)}`));
      setTimeout(poll, 20);
    };
    poll();
  });
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "second-look-jsonrpc-"));
  const bot = join(root, "bot");
  await cp(join(REPO, "bots/handbook/docs"), join(bot, "docs"), { recursive: true });
  await writeFile(
    join(bot, "config.json"),
    JSON.stringify({
      knowledge: { backend: "embedded", collections: { handbook: { paths: ["docs/**/*.md"] } } },
    }),
  );
  child = spawn(
    process.execPath,
    ["--import", "tsx", resolve(REPO, "test/connectors/mcp/second-look-cli.ts"), "mcp", bot],
    { cwd: REPO, env: { ...process.env, SECOND_LOOK_LOG_LEVEL: "warn" } },
  );
  let buffered = "";
  child.stdout.on("data", (chunk: Buffer) => {
    buffered += chunk.toString("utf8");
    let newline = buffered.indexOf("\n");
    while (newline !== -1) {
      replies.push(JSON.parse(buffered.slice(0, newline)));
      buffered = buffered.slice(newline + 1);
      newline = buffered.indexOf("\n");
    }
  });
  child.stderr.resume();
  // Ready once it answers: the first test's line would otherwise wait behind the whole start.
  child.stdin.write(`${initialize(0)}\n`);
  await waitFor((r) => r.id === 0, 110_000);
}, 120_000);

function initialize(id: number): string {
  return JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "raw", version: "0" },
    },
  });
}

afterAll(async () => {
  child?.stdin.end();
  if (child && child.exitCode === null) await new Promise((r) => child.once("exit", r));
  await rm(root, { recursive: true, force: true });
});

describe("second-look mcp answers malformed input per JSON-RPC 2.0 and stays up", () => {
  it("invalid JSON: a Parse error reply with id null", async () => {
    child.stdin.write("{not json\n");
    expect(await waitFor((r) => (r.error as { code?: number } | undefined)?.code === -32700)).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32700, message: "Parse error" },
    });
  });

  it("a request over 10 MiB: an Invalid Request reply with its id, and the next request is served", async () => {
    const big = JSON.stringify({
      jsonrpc: "2.0",
      method: "tools/call",
      params: { name: "search_knowledge", arguments: { query: "x".repeat(11 * 1024 * 1024) } },
      id: 7,
    });
    child.stdin.write(`${big}\n`);
    const refused = await waitFor((r) => r.id === 7);
    expect(refused.error).toEqual({
      code: -32600,
      message: `Invalid Request: message larger than ${10 * 1024 * 1024} bytes`,
    });
    child.stdin.write(`${initialize(8)}\n`);
    const initialized = await waitFor((r) => r.id === 8);
    expect(initialized.result).toMatchObject({ serverInfo: expect.any(Object) });
    expect(child.exitCode).toBeNull();
  });
});
