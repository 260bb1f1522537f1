// `second-look serve` end to end as a process (Bolt's HTTP receiver with signature checks, the
// real Copilot runtime, a fake Slack Web API on 127.0.0.1) with the bot's own model server down:
// one warning line at start naming the bot, the address and what to check; the process keeps
// serving; a question gets the "can't reach my language model" sentence within seconds, not
// after the runtime's half a minute of retries; the reason is logged, never posted.
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
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
import { freePort } from "../support/free-port.js";
import { mentionEventBody, postSlackEvent, type ServeProcess, startServe } from "../support/serve-process.js";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const SECRET = "e2e-signing-secret";
// Far below the runtime's ~30 s of retries against a refused port (what a question cost before
// the pre-flight), far above a local connect and two Slack calls on a loaded machine.
const WELL_WITHIN_RETRIES_MS = 10_000;
let root: string;
let botDir: string;
let slackApi: FakeSlackApi;
let serve: ServeProcess;
let slackPort = 0;
let modelPort = 0;

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
  serve = await startServe(root, {
    E2E_MODEL_KEY: "sk-e2e",
    SLACK_BOT_TOKEN_E2E: "xoxb-e2e-token",
    SLACK_SIGNING_SECRET_E2E: SECRET,
    SLACK_PORT_E2E: String(slackPort),
    SLACK_API_URL: slackApi.url,
    SECOND_LOOK_LOG_LEVEL: "info",
  });
}, 90_000);

afterAll(async () => {
  await serve?.stop();
  await slackApi?.close();
  await rm(root, { recursive: true, force: true });
});

describe("serve with the bot's model server down", () => {
  it("says so at start in one warning line naming the bot, the address and what to check", async () => {
    const unreachable = (p: { msg: string }) => p.msg.startsWith("bot e2e: model server unreachable");
    await serve.waitFor("the model warning", () => serve.problems().some(unreachable));
    const lines = serve.problems().filter(unreachable);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.msg).toContain(`127.0.0.1:${modelPort} (ECONNREFUSED`);
    expect(lines[0]!.msg).toContain(`provider.baseUrl in ${botDir}/config.json`);
    expect(lines[0]!.msg).toContain("serving anyway");
    expect(lines[0]!.msg.split("\n")).toHaveLength(1);
    expect(serve.child.exitCode).toBeNull();
  });

  it("answers a question at once with the model-down sentence and logs the reason", async () => {
    const body = mentionEventBody("how many vacation days do I get", { team: TEAM_ID, botUser: BOT_USER_ID });
    const started = Date.now();
    expect(await postSlackEvent(slackPort, SECRET, body)).toBe(200);
    await serve.waitFor("the reply", () => slackApi.of("chat.update").length > 0, 60_000);
    const elapsed = Date.now() - started;
    expect(slackApi.of("chat.update")[0]!.args.text).toBe(SENTENCES.modelDown);
    expect(elapsed).toBeLessThan(WELL_WITHIN_RETRIES_MS);
    for (const call of slackApi.calls) {
      expect(JSON.stringify(call.args)).not.toMatch(/ECONNREFUSED|config\.json|sk-e2e/);
    }
    await serve.waitFor("the failure to be logged", () =>
      serve.problems().some((p) => p.msg === "question failed"),
    );
    const failed = serve.problems().find((p) => p.msg === "question failed")!;
    expect(failed).toMatchObject({ level: 50, code: "model_unreachable" });
    expect(failed.err?.message).toContain(`127.0.0.1:${modelPort} (ECONNREFUSED`);
    expect(serve.stderr()).not.toContain("sk-e2e");
    expect(serve.child.exitCode).toBeNull();
  });
});
