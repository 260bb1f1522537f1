// Stopping hosted bots (what `serve` does on SIGTERM): answers in flight finish within the
// timeout and reach the user; past the timeout they are stopped and the user hears why; the
// runtimes are closed last.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { BotDefinition } from "../../src/bots/discovery.js";
import { BotRuntimeError } from "../../src/connectors/bot-runtime.js";
import { planHosts } from "../../src/hosts/host-credentials.js";
import { SENTENCES } from "../../src/hosts/hosted-answer.js";
import { type HostedBots, portConflicts, startHostedBots } from "../../src/hosts/hosted-bots.js";
import { FakeRuntime, gate } from "./support/fake-runtime.js";
import { BOT_USER_ID, type FakeSlackApi, startFakeSlackApi } from "./support/fake-slack-api.js";
import { recordingLog } from "./support/silent-log.js";
import { eventEnvelope, TestReceiver } from "./support/test-receiver.js";
import { waitFor } from "./support/wait-for.js";

const env = { SLACK_BOT_TOKEN_HANDBOOK: "xoxb-test", SLACK_APP_TOKEN_HANDBOOK: "xapp-test" };
const bot = { name: "handbook" } as BotDefinition;

let api: FakeSlackApi;
let receiver: TestReceiver;
let runtime: FakeRuntime;
let hosted: HostedBots;

beforeEach(async () => {
  api = await startFakeSlackApi();
  receiver = new TestReceiver();
  runtime = new FakeRuntime();
  hosted = await startHostedBots([bot], [planHosts("handbook", env)], {
    concurrency: 2,
    maxQueued: 10,
    log: recordingLog().log,
    slack: { receiver, slackApiUrl: api.url },
    openRuntime: async () => runtime,
  });
});

afterEach(async () => {
  await hosted.stop(1_000);
  await api.close();
});

function mention(i: number) {
  return eventEnvelope({
    type: "app_mention",
    user: "U0USER",
    text: `<@${BOT_USER_ID}> question ${i}`,
    ts: `1700000000.00000${i}`,
    channel: "C0CHAN",
  });
}

describe("graceful shutdown", () => {
  it("finishes answers in flight and queued within the timeout, then closes the runtime", async () => {
    expect(hosted.serving).toEqual([{ bot: "handbook", platforms: ["Slack (Socket Mode)"] }]);
    const hold = gate();
    runtime.answerWith(async (question) => {
      await hold.promise;
      return { answer: `Answer to: ${question}`, toolCalls: [] };
    });
    for (const i of [1, 2, 3]) await receiver.deliver(mention(i));
    await waitFor(() => runtime.asked.length === 2, "two questions in flight");

    const stopped = hosted.stop(30_000);
    // A question arriving during shutdown is not taken on.
    await receiver.deliver(mention(4));
    hold.open();
    await stopped;

    expect(api.of("chat.update").map((u) => u.args.text)).toEqual([
      "Answer to: question 1",
      "Answer to: question 2",
      "Answer to: question 3",
    ]);
    expect(api.of("chat.postMessage").at(-1)!.args.text).toBe(SENTENCES.busy);
    expect(runtime.asked).toHaveLength(3);
    expect(runtime.closed).toBe(true);
  });

  it("stops answers still running at the timeout and tells their users", async () => {
    runtime.answerWith(
      (_question, options) =>
        new Promise((_resolve, reject) => {
          options.signal?.addEventListener("abort", () =>
            reject(new BotRuntimeError("aborted", "cancelled")),
          );
        }),
    );
    await receiver.deliver(mention(1));
    await waitFor(() => runtime.asked.length === 1, "the question in flight");
    await hosted.stop(50);
    expect(api.of("chat.update").map((u) => u.args.text)).toEqual([SENTENCES.restarting]);
    expect(runtime.closed).toBe(true);
  });
});

describe("port planning", () => {
  it("names the variable to change when two HTTP listeners would share a port", () => {
    const plans = [
      planHosts("a", { TEAMS_CLIENT_ID_A: "id", TEAMS_CLIENT_SECRET_A: "s" }),
      planHosts("b", { TEAMS_CLIENT_ID_B: "id", TEAMS_CLIENT_SECRET_B: "s" }),
    ];
    expect(portConflicts(plans)).toEqual([
      "port 3978 is used by TEAMS_PORT_A and TEAMS_PORT_B: set TEAMS_PORT_B to another port",
    ]);
  });
});
