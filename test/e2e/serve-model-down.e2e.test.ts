// `second-look serve` end to end as a process (Bolt's HTTP receiver with signature checks, the
// real Copilot runtime, a fake Slack Web API on 127.0.0.1) with the bot's own model server down:
// one warning line at start naming the bot, the address and what to check; the process keeps
// serving; a question gets the "can't reach my language model" sentence within seconds, not
// after the runtime's half a minute of retries; the reason is logged, never posted.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { createHmac } from "node:crypto";
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SENTENCES } from "../../src/hosts/hosted-answer.js";
import {
  BOT_USER_ID,
  type FakeSlackApi,
  startFakeSlackApi,
  TEAM_ID,
} from "../hosts/support/fake-slack-api.js";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const SECRET = "e2e-signing-secret";
// The process runs in a folder of its own (serve discovers ./bots): tsx by its absolute URL.
const TSX = import.meta.resolve("tsx");
// Far below the runtime's ~30 s of retries against a refused port (what a question cost before
// the pre-flight), far above a local connect and two Slack calls on a loaded machine.
const WELL_WITHIN_RETRIES_MS = 10_000;
let root: string;
let botDir: string;
let slackApi: FakeSlackApi;
let child: ChildProcessWithoutNullStreams;
let stderr = "";
let slackPort = 0;
let modelPort = 0;

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}

async function waitFor(what: string, check: () => boolean, timeoutMs = 45_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs)
      throw new Error(`timed out waiting for ${what}; stderr:\n${stderr}`);
    if (child.exitCode !== null)
      throw new Error(`serve exited ${child.exitCode} while waiting for ${what}:\n${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The log lines (JSON: stderr is a pipe) at warn or above. */
function problems(): { level: number; msg: string; code?: string; err?: { message?: string } }[] {
  return stderr
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as { level: number; msg: string })
    .filter((l) => l.level >= 40);
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "second-look-serve-model-down-"));
  slackApi = await startFakeSlackApi();
  modelPort = await freePort();
  botDir = join(root, "bots", "e2e");
  await cp(join(REPO, "bots/handbook/docs"), join(botDir, "docs"), { recursive: true });
  await writeFile(
    join(botDir, "config.json"),
    JSON.stringify({
      model: "scripted",
      provider: { type: "openai", baseUrl: `http://127.0.0.1:${modelPort}/v1`, apiKeyEnv: "E2E_MODEL_KEY" },
      knowledge: { backend: "embedded", collections: { handbook: { paths: ["docs/**/*.md"] } } },
    }),
  );
  slackPort = await freePort();
  child = spawn(
    process.execPath,
    ["--import", TSX, join(REPO, "test/connectors/mcp/second-look-cli.ts"), "serve", "--host", "127.0.0.1"],
    {
      cwd: root,
      env: {
        ...process.env,
        E2E_MODEL_KEY: "sk-e2e",
        SLACK_BOT_TOKEN_E2E: "xoxb-e2e-token",
        SLACK_SIGNING_SECRET_E2E: SECRET,
        SLACK_PORT_E2E: String(slackPort),
        SLACK_API_URL: slackApi.url,
        SECOND_LOOK_LOG_LEVEL: "info",
      },
    },
  );
  child.stderr.on("data", (c: Buffer) => {
    stderr += c.toString("utf8");
  });
  child.stdout.resume();
  await waitFor("the bot to serve", () => stderr.includes("serving on"));
}, 90_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
  }
  await slackApi?.close();
  await rm(root, { recursive: true, force: true });
});

function signedEvent(body: string): Record<string, string> {
  const ts = String(Math.floor(Date.now() / 1000));
  const signature = `v0=${createHmac("sha256", SECRET).update(`v0:${ts}:${body}`).digest("hex")}`;
  return {
    "content-type": "application/json",
    "x-slack-request-timestamp": ts,
    "x-slack-signature": signature,
  };
}

describe("serve with the bot's model server down", () => {
  it("says so at start in one warning line naming the bot, the address and what to check", async () => {
    const unreachable = (p: { msg: string }) => p.msg.startsWith("bot e2e: model server unreachable");
    await waitFor("the model warning", () => problems().some(unreachable));
    const lines = problems().filter(unreachable);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.msg).toContain(`127.0.0.1:${modelPort} (ECONNREFUSED`);
    expect(lines[0]!.msg).toContain(`provider.baseUrl in ${botDir}/config.json`);
    expect(lines[0]!.msg).toContain("serving anyway");
    expect(lines[0]!.msg.split("\n")).toHaveLength(1);
    expect(child.exitCode).toBeNull();
  });

  it("answers a question at once with the model-down sentence and logs the reason", async () => {
    const body = JSON.stringify({
      type: "event_callback",
      team_id: TEAM_ID,
      api_app_id: "A0APP",
      event_id: "Ev0001",
      event_time: 1_700_000_000,
      authorizations: [{ team_id: TEAM_ID, user_id: BOT_USER_ID, is_bot: true }],
      event: {
        type: "app_mention",
        user: "U0USER",
        text: `<@${BOT_USER_ID}> how many vacation days do I get`,
        ts: "1700000000.000100",
        channel: "C0CHAN",
        event_ts: "1700000000.000100",
      },
    });
    const started = Date.now();
    const response = await fetch(`http://127.0.0.1:${slackPort}/slack/events`, {
      method: "POST",
      headers: signedEvent(body),
      body,
    });
    expect(response.status).toBe(200);
    await waitFor("the reply", () => slackApi.of("chat.update").length > 0, 60_000);
    const elapsed = Date.now() - started;
    expect(slackApi.of("chat.update")[0]!.args.text).toBe(SENTENCES.modelDown);
    expect(elapsed).toBeLessThan(WELL_WITHIN_RETRIES_MS);
    for (const call of slackApi.calls) {
      expect(JSON.stringify(call.args)).not.toMatch(/ECONNREFUSED|config\.json|sk-e2e/);
    }
    await waitFor("the failure to be logged", () => problems().some((p) => p.msg === "question failed"));
    const failed = problems().find((p) => p.msg === "question failed")!;
    expect(failed).toMatchObject({ level: 50, code: "model_unreachable" });
    expect(failed.err?.message).toContain(`127.0.0.1:${modelPort} (ECONNREFUSED`);
    expect(stderr).not.toContain("sk-e2e");
    expect(child.exitCode).toBeNull();
  });
});
