// `second-look serve` end to end as a process, through the real host SDK path (Bolt's HTTP
// receiver with signature checks, the real Copilot runtime talking to a scripted model server),
// with the Slack Web API unreachable: the process stays up, says so in one warning line at start,
// one line per failed post, and keeps accepting events.
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../support/free-port.js";
import { type ModelServer, startModelServer } from "../support/model-server/model-server.js";
import {
  mentionEventBody,
  type ServeProcess,
  signedSlackEvent,
  startServe,
} from "../support/serve-process.js";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const SECRET = "e2e-signing-secret";
let root: string;
let model: ModelServer;
let serve: ServeProcess;
let slackPort = 0;

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
  serve = await startServe(root, {
    E2E_MODEL_KEY: "sk-e2e",
    SLACK_BOT_TOKEN_E2E: "xoxb-e2e-token",
    SLACK_SIGNING_SECRET_E2E: SECRET,
    SLACK_PORT_E2E: String(slackPort),
    SLACK_API_URL: deadSlack,
    SECOND_LOOK_LOG_LEVEL: "info",
  });
}, 90_000);

afterAll(async () => {
  await serve?.stop();
  await model?.close();
  await rm(root, { recursive: true, force: true });
});

describe("serve with the Slack Web API unreachable", () => {
  it("stays up and says in one warning line that the token could not be verified", async () => {
    await serve.waitFor("the token warning", () =>
      serve.problems().some((p) => p.msg.startsWith("slack: cannot verify")),
    );
    const lines = serve.problems().filter((p) => p.msg.startsWith("slack: cannot verify"));
    expect(lines).toHaveLength(1);
    expect(lines[0]!.msg).toContain("serving anyway");
    expect(lines[0]!.msg.split("\n")).toHaveLength(1);
    expect(serve.child.exitCode).toBeNull();
  });

  it("an event it cannot answer in Slack is one logged line, and the process keeps serving", async () => {
    const before = serve.problems().length;
    const body = mentionEventBody("how many vacation days do I get", { team: "T0TEAM", botUser: "U0BOT" });
    const response = await fetch(`http://127.0.0.1:${slackPort}/slack/events`, {
      method: "POST",
      headers: signedSlackEvent(SECRET, body),
      body,
    });
    expect(response.status).toBe(200);
    await serve.waitFor("the failure to be logged", () => serve.problems().length > before);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(serve.child.exitCode).toBeNull();
    // Still serving: the next event is acknowledged too.
    const again = await fetch(`http://127.0.0.1:${slackPort}/slack/events`, {
      method: "POST",
      headers: signedSlackEvent(SECRET, body.replace("Ev0001", "Ev0002")),
      body: body.replace("Ev0001", "Ev0002"),
    });
    expect(again.status).toBe(200);
    expect(serve.stderr()).not.toMatch(/^\s+at /m);
  });
});
