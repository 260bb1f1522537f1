// `second-look serve` end to end as a process, through the real host SDK path (Bolt's HTTP
// receiver with signature checks, the real Copilot runtime talking to a scripted model server),
// with the Slack Web API unreachable: the process stays up, says so in one warning line at start,
// one line per failed post, and keeps accepting events.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { createHmac } from "node:crypto";
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ModelServer, startModelServer } from "../support/model-server/model-server.js";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const SECRET = "e2e-signing-secret";
// The process runs in a folder of its own (serve discovers ./bots): tsx by its absolute URL.
const TSX = import.meta.resolve("tsx");
let root: string;
let model: ModelServer;
let child: ChildProcessWithoutNullStreams;
let stderr = "";
let slackPort = 0;

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
function problems(): { level: number; msg: string }[] {
  return stderr
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as { level: number; msg: string })
    .filter((l) => l.level >= 40);
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "second-look-serve-down-"));
  model = await startModelServer({ script: () => ({ kind: "text", text: "You get 25 days." }) });
  const bot = join(root, "bots", "e2e");
  await cp(join(REPO, "bots/handbook/docs"), join(bot, "docs"), { recursive: true });
  await writeFile(
    join(bot, "config.json"),
    JSON.stringify({
      model: "scripted",
      provider: { type: "openai", baseUrl: model.openAiBaseUrl, apiKeyEnv: "E2E_MODEL_KEY" },
      knowledge: { backend: "embedded", collections: { handbook: { paths: ["docs/**/*.md"] } } },
    }),
  );
  slackPort = await freePort();
  const deadSlack = `http://127.0.0.1:${await freePort()}/api/`;
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
        SLACK_API_URL: deadSlack,
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
  await model?.close();
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

describe("serve with the Slack Web API unreachable", () => {
  it("stays up and says in one warning line that the token could not be verified", async () => {
    await waitFor("the token warning", () =>
      problems().some((p) => p.msg.startsWith("slack: cannot verify")),
    );
    const lines = problems().filter((p) => p.msg.startsWith("slack: cannot verify"));
    expect(lines).toHaveLength(1);
    expect(lines[0]!.msg).toContain("serving anyway");
    expect(lines[0]!.msg.split("\n")).toHaveLength(1);
    expect(child.exitCode).toBeNull();
  });

  it("an event it cannot answer in Slack is one logged line, and the process keeps serving", async () => {
    const before = problems().length;
    const body = JSON.stringify({
      type: "event_callback",
      team_id: "T0TEAM",
      api_app_id: "A0APP",
      event_id: "Ev0001",
      event_time: 1_700_000_000,
      authorizations: [{ team_id: "T0TEAM", user_id: "U0BOT", is_bot: true }],
      event: {
        type: "app_mention",
        user: "U0USER",
        text: "<@U0BOT> how many vacation days do I get",
        ts: "1700000000.000100",
        channel: "C0CHAN",
        event_ts: "1700000000.000100",
      },
    });
    const response = await fetch(`http://127.0.0.1:${slackPort}/slack/events`, {
      method: "POST",
      headers: signedEvent(body),
      body,
    });
    expect(response.status).toBe(200);
    await waitFor("the failure to be logged", () => problems().length > before);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(child.exitCode).toBeNull();
    // Still serving: the next event is acknowledged too.
    const again = await fetch(`http://127.0.0.1:${slackPort}/slack/events`, {
      method: "POST",
      headers: signedEvent(body.replace("Ev0001", "Ev0002")),
      body: body.replace("Ev0001", "Ev0002"),
    });
    expect(again.status).toBe(200);
    expect(stderr).not.toMatch(/^\s+at /m);
  });
});
