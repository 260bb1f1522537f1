// `ask --answer` when the model cannot answer: a non-zero exit and one line naming the model,
// what failed and what to check — never `"answer": ""` with exit 0 — and the whole question
// bounded by session.timeoutMs. And `ask`, with or without --answer, when the model server is
// down: that line within seconds, not after the Copilot runtime's half a minute of retries.
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startScriptedProviderServer } from "../llm/scripted-provider-server.js";
import { freePort } from "../support/free-port.js";
import { startModelServer } from "../support/model-server/model-server.js";
import { runCli } from "../support/run-cli.js";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const KEY_ENV = "SECOND_LOOK_ASK_FAILURE_KEY";
let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "second-look-ask-failures-"));
  process.env[KEY_ENV] = "sk-ask-failure-test";
});
afterAll(async () => {
  delete process.env[KEY_ENV];
  await rm(root, { recursive: true, force: true });
});

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function botAt(name: string, baseUrl: string, session: Record<string, unknown> = {}): Promise<string> {
  const dir = join(root, name);
  await cp(join(repo, "bots/handbook/docs"), join(dir, "docs"), { recursive: true });
  await writeFile(
    join(dir, "config.json"),
    JSON.stringify({
      model: "answer-model",
      provider: { type: "openai", baseUrl, apiKeyEnv: KEY_ENV },
      knowledge: { backend: "embedded", collections: { handbook: { paths: ["docs/**/*.md"] } } },
      session,
    }),
  );
  return dir;
}

describe("ask --answer when the model fails", () => {
  it("a 401 from the provider: exit 1, one line naming the model, the status and the key variable", async () => {
    const server = await startScriptedProviderServer([
      { status: 401, body: JSON.stringify({ error: { message: "invalid api key" } }) },
    ]);
    servers.push(server);
    const dir = await botAt("unauthorised", `${server.url}/v1`);
    const run = await runCli(["ask", dir, "how many vacation days do I get", "--answer", "--json"]);
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toBe("");
    const lines = run.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^second-look ask: the model answer-model \(openai at http:\/\/127\.0\.0\.1:\d+\/v1\)/,
    );
    expect(lines[0]).toContain("HTTP 401");
    expect(lines[0]).toContain(`$${KEY_ENV}`);
    expect(lines[0]).not.toContain("sk-ask-failure-test");
  });

  it("a 200 with empty content: exit 1 and one line saying the answer was empty, not a blank answer", async () => {
    const server = await startScriptedProviderServer([{ reply: { kind: "text", text: "" } }]);
    servers.push(server);
    const dir = await botAt("empty", `${server.url}/v1`);
    const run = await runCli(["ask", dir, "how many vacation days do I get", "--answer", "--json"]);
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toBe("");
    const lines = run.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^second-look ask: the model answer-model .* did not answer: .*empty answer/);
  });

  it("with --trace the error is a line of its own after the span tree", async () => {
    const server = await startScriptedProviderServer([{ status: 401, body: "{}" }]);
    servers.push(server);
    const dir = await botAt("traced", `${server.url}/v1`);
    const run = await runCli(["ask", dir, "how many vacation days do I get", "--answer", "--trace"]);
    expect(run.exitCode).toBe(1);
    const lines = run.stderr.trimEnd().split("\n");
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.at(-1)).toMatch(/^second-look ask: the model answer-model/);
    expect(lines.slice(0, -1).join("\n")).not.toContain("second-look ask:");
  });

  it("an unreachable model server: exit 1 and one line saying the request failed", async () => {
    const dir = await botAt("unreachable", `http://127.0.0.1:${await freePort()}/v1`);
    const started = Date.now();
    const run = await runCli(["ask", dir, "how many vacation days do I get", "--answer"]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toMatch(/did not answer: .*(ECONNREFUSED|failed)/);
    // A generous guard: the connect is refused at once; the HTTP client's retries are not waited for.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("a model that never replies: stopped at session.timeoutMs with a line naming that setting", async () => {
    const server = await startScriptedProviderServer([{ status: 200, body: "{}", delayMs: 30_000 }]);
    servers.push(server);
    const dir = await botAt("hanging", `${server.url}/v1`, { timeoutMs: 800 });
    const started = Date.now();
    const run = await runCli(["ask", dir, "how many vacation days do I get", "--answer"]);
    const elapsed = Date.now() - started;
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(
      /no answer from the model answer-model .* within 800 ms \(session\.timeoutMs in /,
    );
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    // The search itself is fast; the bound is the model's, not the 30 s reply.
    expect(elapsed).toBeLessThan(10_000);
  });
});

describe("ask through the Copilot runtime with the model server down", () => {
  it("exits 1 within seconds with one line naming the model, the refused address and what to check", async () => {
    const port = await freePort();
    const dir = await botAt("runtime-down", `http://127.0.0.1:${port}/v1`);
    const started = Date.now();
    const run = await runCli(["ask", dir, "how many vacation days do I get"]);
    const elapsed = Date.now() - started;
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toBe("");
    const lines = run.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(
      `second-look ask: the model answer-model (openai at http://127.0.0.1:${port}/v1) did not answer: ` +
        `cannot connect to 127.0.0.1:${port} (ECONNREFUSED: nothing listens there) — ` +
        `is the model server running? check provider.baseUrl in ${dir}/config.json`,
    );
    expect(run.stderr).not.toContain("sk-ask-failure-test");
    // Before the pre-flight connect this took about 30 s (the runtime's own retries).
    expect(elapsed).toBeLessThan(10_000);
  });

  it("a reachable scripted model still answers, and is sent the question", async () => {
    const server = await startModelServer({
      script: () => ({ kind: "text", text: "You get 20 vacation days a year." }),
      maxRequests: 5,
    });
    servers.push(server);
    const dir = await botAt("runtime-up", server.openAiBaseUrl);
    const run = await runCli(["ask", dir, "how many vacation days do I get", "--json"]);
    expect(run.stderr).not.toMatch(/second-look ask:/);
    expect(run.exitCode).toBe(0);
    expect((JSON.parse(run.stdout) as { answer: string }).answer).toBe("You get 20 vacation days a year.");
    expect(JSON.stringify(server.requests.at(0))).toContain("how many vacation days do I get");
  });
});
