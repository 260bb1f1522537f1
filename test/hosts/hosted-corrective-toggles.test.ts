// Acceptance 2 of the hosts issue: a bot answering in Slack gets corrective retrieval exactly as
// `ask` does. The hosted bot is started as `serve` starts it (startHostedBots over
// openBotRuntime, the real Copilot SDK connector), events go through Bolt, and each session's
// config is observed as it is created: the corrective hook is there when the bot enables it,
// gone when the bot disables it, and gone for the next conversation once the operator sets the
// kill-switch — with no restart. The observer stops each session before the Copilot runtime
// starts, since the config is all this test needs (the host then posts its failure sentence).
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SessionConfig } from "@github/copilot-sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type BotDefinition, loadBotFromDir } from "../../src/bots/discovery.js";
import { openBotRuntime } from "../../src/connectors/open-bot-runtime.js";
import { planHosts } from "../../src/hosts/host-credentials.js";
import { SENTENCES } from "../../src/hosts/hosted-answer.js";
import { type HostedBots, startHostedBots } from "../../src/hosts/hosted-bots.js";
import type { KnowledgeBackend } from "../../src/types.js";
import { BOT_USER_ID, type FakeSlackApi, startFakeSlackApi } from "./support/fake-slack-api.js";
import { recordingLog } from "./support/silent-log.js";
import { eventEnvelope, TestReceiver } from "./support/test-receiver.js";
import { waitFor } from "./support/wait-for.js";

const backend: KnowledgeBackend = {
  collections: () => ["handbook"],
  search: async (request) => ({ query: request.query, results: [], bestScore: 0, reranked: false }),
};

class SessionObserved extends Error {}

let root: string;
let api: FakeSlackApi;
let hosted: HostedBots | undefined;
// Takes connections and nothing else: the runtime's pre-flight connect to the provider succeeds,
// so each question reaches session creation, where the observer stops it.
let modelPort: Server;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "second-look-hosted-"));
  api = await startFakeSlackApi();
  modelPort = createServer((socket) => socket.on("error", () => {}));
  await new Promise<void>((r) => modelPort.listen(0, "127.0.0.1", r));
});

afterEach(async () => {
  await hosted?.stop(5_000);
  hosted = undefined;
  await api.close();
  await new Promise<void>((r) => modelPort.close(() => r()));
  await rm(root, { recursive: true, force: true });
});

async function makeBot(name: string, enabled: boolean, env: NodeJS.ProcessEnv): Promise<BotDefinition> {
  const dir = join(root, name);
  await rm(dir, { recursive: true, force: true });
  await mkdir(join(dir, "docs"), { recursive: true });
  const config = {
    model: "test-model",
    provider: {
      type: "anthropic",
      baseUrl: `http://127.0.0.1:${(modelPort.address() as { port: number }).port}`,
      apiKeyEnv: "HOSTED_TEST_KEY",
    },
    knowledge: { backend: "embedded", collections: { handbook: { paths: ["docs/**/*.md"] } } },
    correctiveRetrieval: { enabled, retryBudget: 1, grader: "signal" },
  };
  await writeFile(join(dir, "config.json"), JSON.stringify(config));
  await writeFile(join(dir, "persona.md"), "You answer from the handbook.");
  return loadBotFromDir(dir, env, root);
}

/** Serves one bot in Slack as `serve` does; returns the receiver and the observed session configs. */
async function serve(bot: BotDefinition, env: NodeJS.ProcessEnv) {
  const receiver = new TestReceiver();
  const configs: SessionConfig[] = [];
  const direct: SessionConfig[] = [];
  let sink = configs;
  const { log } = recordingLog();
  let runtime: Awaited<ReturnType<typeof openBotRuntime>>["runtime"] | undefined;
  hosted = await startHostedBots([bot], [planHosts(bot.name, env)], {
    concurrency: 2,
    maxQueued: 10,
    log,
    slack: { receiver, slackApiUrl: api.url },
    openRuntime: async (definition) => {
      const opened = await openBotRuntime(definition, {
        env,
        backend,
        onSessionConfig: (config) => {
          sink.push(config);
          throw new SessionObserved("session config observed");
        },
      });
      runtime = opened.runtime;
      return opened.runtime;
    },
  });
  expect(hosted.serving.map((s) => s.bot)).toEqual([bot.name]);

  let asked = 0;
  /** One hosted question in a new thread; resolves with the config its session was built from. */
  const hostedSession = async (): Promise<SessionConfig> => {
    const before = configs.length;
    asked++;
    await receiver.deliver(
      eventEnvelope({
        type: "app_mention",
        user: "U0USER",
        text: `<@${BOT_USER_ID}> question ${asked}`,
        ts: `1700000000.${String(asked).padStart(6, "0")}`,
        channel: "C0CHAN",
      }),
    );
    await waitFor(() => api.of("chat.update").length === asked, "the reply");
    expect(api.of("chat.update")[asked - 1]!.args.text).toBe(SENTENCES.failed);
    expect(configs.length).toBe(before + 1);
    return configs[before]!;
  };
  /** The same bot's runtime asked directly, as `second-look ask` does. */
  const directSession = async (): Promise<SessionConfig> => {
    sink = direct;
    try {
      await expect(runtime!.ask("direct question", { conversationId: `cli-${asked}` })).rejects.toThrow(
        SessionObserved,
      );
    } finally {
      sink = configs;
    }
    return direct.at(-1)!;
  };
  return { hostedSession, directSession };
}

const hasHook = (config: SessionConfig) => typeof config.hooks?.onPostToolUse === "function";

describe("hosted bots and the corrective toggles", () => {
  it("apply the per-bot toggle and the kill-switch, read per session, exactly as ask does", async () => {
    const env: NodeJS.ProcessEnv = {
      HOSTED_TEST_KEY: "test-key",
      SLACK_BOT_TOKEN_ON_BOT: "xoxb-test",
      SLACK_APP_TOKEN_ON_BOT: "xapp-test",
    };
    const bot = await makeBot("on-bot", true, env);
    const { hostedSession, directSession } = await serve(bot, env);

    const on = await hostedSession();
    expect(hasHook(on)).toBe(true);
    expect(hasHook(await directSession())).toBe(true);

    // The operator flips the kill-switch while the host runs: the next conversation has no hook.
    env.CORRECTIVE_RETRIEVAL_DISABLED = "1";
    const killed = await hostedSession();
    expect(hasHook(killed)).toBe(false);
    expect(killed.hooks).toBeUndefined();
    expect(hasHook(await directSession())).toBe(false);

    delete env.CORRECTIVE_RETRIEVAL_DISABLED;
    expect(hasHook(await hostedSession())).toBe(true);
  });

  it("leave the hook out for a bot that disables corrective retrieval, whatever the global default", async () => {
    const env: NodeJS.ProcessEnv = {
      HOSTED_TEST_KEY: "test-key",
      CORRECTIVE_RETRIEVAL_ENABLED: "1",
      SLACK_BOT_TOKEN_OFF_BOT: "xoxb-test",
      SLACK_APP_TOKEN_OFF_BOT: "xapp-test",
    };
    const bot = await makeBot("off-bot", false, env);
    const { hostedSession, directSession } = await serve(bot, env);
    expect(hasHook(await hostedSession())).toBe(false);
    expect(hasHook(await directSession())).toBe(false);
  });
});
