// Issue 24, L6: an MCP client that closes stdin while a call waits on a slow grader still gets
// that call's answer (or an error) before the server exits — every request is answered.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScriptedProviderServer } from "../llm/scripted-provider-server.js";
import { startCli } from "../support/cli-process.js";

const GRADER_DELAY_MS = 2_500;

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "second-look-mcp-stdin-"));
});
afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

/** Starts `mcp`, sends a search whose grader is slow, stops the server mid-call; the replies and exit code. */
async function stopMidCall(stop: "stdin" | "SIGTERM") {
  const grader = await startScriptedProviderServer([
    { reply: { kind: "text", text: '{"verdict":"correct","reason":"fine"}' }, delayMs: GRADER_DELAY_MS },
  ]);
  try {
    const bot = join(root, "kb");
    await mkdir(join(bot, "docs"), { recursive: true });
    await writeFile(
      join(bot, "docs", "leave.md"),
      "# Annual leave\n\nEmployees get 25 days of annual leave.\n",
    );
    await writeFile(
      join(bot, "config.json"),
      JSON.stringify({
        model: "grader-model",
        provider: { type: "openai", baseUrl: `${grader.url}/v1`, apiKeyEnv: "MCP_STDIN_KEY" },
        knowledge: { collections: { docs: { paths: ["docs/**/*.md"] } } },
        correctiveRetrieval: { enabled: true, grader: "haiku", graderModel: "grader-model" },
      }),
    );
    const { child, done, stdout } = startCli(
      ["mcp", bot],
      { MCP_STDIN_KEY: "sk-test-stdin" },
      { stdin: true },
    );
    const send = (message: object) => child.stdin!.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } },
    });
    for (let waited = 0; !stdout().includes('"id":1') && waited < 60_000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "search_knowledge", arguments: { query: "annual leave days" } },
    });
    // Give the call time to reach the grader, then close stdin as a client going away does.
    for (let waited = 0; grader.requests.length === 0 && waited < 30_000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (stop === "stdin") child.stdin!.end();
    else child.kill("SIGTERM");
    const { exitCode: code, stdout: written, stderr } = await done;
    const replies = written
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map(
        (line) =>
          JSON.parse(line) as { id?: number; result?: { content: { text: string }[] }; error?: unknown },
      );
    expect(grader.requests.length).toBeGreaterThan(0);
    return { call: replies.find((reply) => reply.id === 2), code, stderr };
  } finally {
    await grader.close();
  }
}

describe("mcp over stdio when the client goes away mid-call", () => {
  it("stdin closed: answers the call that waits on a slow grader before it exits", async () => {
    const { call, code, stderr } = await stopMidCall("stdin");
    expect(call, stderr).toBeDefined();
    expect(call?.result?.content[0]?.text).toContain("Annual leave");
    expect(code).toBe(0);
  }, 90_000);

  it("SIGTERM: the call still running gets an error reply before exit", async () => {
    const { call, stderr } = await stopMidCall("SIGTERM");
    expect(call, stderr).toBeDefined();
    expect(call!.error).toMatchObject({ code: -32603, message: expect.stringContaining("SIGTERM") });
  }, 90_000);
});
