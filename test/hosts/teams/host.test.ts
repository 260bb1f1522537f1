// The Teams host through the SDK's own HTTP activity endpoint on 127.0.0.1, with the bot's
// outgoing Bot Connector calls going to a fake connector on 127.0.0.1 (the activities'
// serviceUrl). Token validation is off for the activity tests (it needs Microsoft's signing
// keys), and checked separately to reject unsigned requests when it is on.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BotRuntimeError } from "../../../src/connectors/bot-runtime.js";
import { AnswerQueue } from "../../../src/hosts/answer-queue.js";
import { SENTENCES } from "../../../src/hosts/hosted-answer.js";
import { createTeamsApp, type TeamsApp } from "../../../src/hosts/teams/app.js";
import { attachTeamsHost } from "../../../src/hosts/teams/host.js";
import { type FakeBotConnector, fakeBotToken, startFakeBotConnector } from "../support/fake-bot-connector.js";
import { FakeRuntime, gate } from "../support/fake-runtime.js";
import { recordingLog } from "../support/silent-log.js";
import { waitFor } from "../support/wait-for.js";

const TENANT = "tenant-1";
const CHANNEL_THREAD = "19:abc123@thread.tacv2;messageid=1700000000001";
const PERSONAL_CHAT = "a:1personalchat";

let connector: FakeBotConnector;
let runtime: FakeRuntime;
let teams: TeamsApp;
let queue: AnswerQueue;
let logLines: Array<Record<string, unknown>>;
let activityCounter = 0;

beforeEach(async () => {
  connector = await startFakeBotConnector();
  runtime = new FakeRuntime();
  const { log, lines } = recordingLog();
  logLines = lines;
  queue = new AnswerQueue({ concurrency: 3, maxQueued: 100 });
  teams = createTeamsApp(
    { clientId: "app-id", token: () => fakeBotToken() },
    { log, port: 0, host: "127.0.0.1", dangerouslyAllowUnauthenticatedRequests: true },
  );
  attachTeamsHost(teams.app, { bot: "handbook", runtime, queue, log });
  await teams.start();
});

afterEach(async () => {
  await queue.drain(5_000);
  await teams.stop();
  await connector.close();
});

function activity(text: string, conversation: { id: string; conversationType: string }) {
  activityCounter++;
  return {
    type: "message",
    id: `user-activity-${activityCounter}`,
    channelId: "msteams",
    serviceUrl: connector.url,
    timestamp: new Date().toISOString(),
    text,
    textFormat: "plain",
    from: { id: "29:user-1", name: "A User", aadObjectId: "user-aad-1" },
    recipient: { id: "28:app-id", name: "Handbook" },
    conversation: { ...conversation, tenantId: TENANT },
  };
}

function inChannel(text: string, threadId = CHANNEL_THREAD) {
  return activity(`<at>Handbook</at> ${text}`, { id: threadId, conversationType: "channel" });
}

function inPersonalChat(text: string) {
  return activity(text, { id: PERSONAL_CHAT, conversationType: "personal" });
}

async function post(
  body: unknown,
  port = teams.port()!,
  headers: Record<string, string> = {},
): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${port}/api/messages`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  return response.status;
}

describe("Teams host", () => {
  it("answers a channel mention in its thread: placeholder, then the answer in its place", async () => {
    expect(await post(inChannel("what is the parental leave policy?"))).toBe(200);
    const placeholder = connector.of("create")[0]!;
    expect(placeholder.conversationId).toBe(CHANNEL_THREAD);
    expect(placeholder.activity.text).toBe(`_${SENTENCES.thinking}_`);
    expect(placeholder.authorization).toMatch(/^Bearer /);

    await waitFor(() => connector.of("update").length === 1, "the answer");
    const update = connector.of("update")[0]!;
    expect(update.conversationId).toBe(CHANNEL_THREAD);
    expect(update.activityId).toBe("bot-activity-1");
    expect(update.activity).toMatchObject({
      type: "message",
      text: "Answer to: what is the parental leave policy?",
      textFormat: "markdown",
    });
    expect(runtime.asked).toEqual([
      { question: "what is the parental leave policy?", conversationId: `teams:${TENANT}:${CHANNEL_THREAD}` },
    ]);
  });

  it("answers in a personal chat, and follow-ups keep the conversation", async () => {
    await post(inPersonalChat("how many vacation days do I get?"));
    await post(inPersonalChat("and for part-time staff?"));
    await post(inChannel("a question in another thread", "19:abc123@thread.tacv2;messageid=1700000000999"));
    await waitFor(() => connector.of("update").length === 3, "three answers");
    const ids = runtime.asked.map((a) => a.conversationId);
    expect(ids[0]).toBe(`teams:${TENANT}:${PERSONAL_CHAT}`);
    expect(ids[1]).toBe(ids[0]);
    expect(ids[2]).not.toBe(ids[0]);
    expect(connector.of("create").map((c) => c.conversationId)).toEqual([
      PERSONAL_CHAT,
      PERSONAL_CHAT,
      "19:abc123@thread.tacv2;messageid=1700000000999",
    ]);
  });

  it("posts one short sentence when answering fails, and logs the error", async () => {
    runtime.answerWith(() => {
      throw new Error("ECONNREFUSED 10.0.0.7:443\n    at TCPConnectWrap.afterConnect (node:net:1555:16)");
    });
    await post(inPersonalChat("why does this fail?"));
    await waitFor(() => connector.of("update").length === 1, "the error sentence");
    expect(connector.of("update")[0]!.activity.text).toBe(SENTENCES.failed);
    for (const call of connector.calls) expect(call.activity.text).not.toMatch(/ECONNREFUSED|node:net|\n/);
    expect(logLines.some((line) => line.msg === "question failed" && line.code === "unexpected")).toBe(true);
  });

  it("says it stopped for a restart when the runtime was closed under the question", async () => {
    runtime.answerWith(() => {
      throw new BotRuntimeError("closed", "runtime closed");
    });
    await post(inPersonalChat("a question during shutdown"));
    await waitFor(() => connector.of("update").length === 1, "the sentence");
    expect(connector.of("update")[0]!.activity.text).toBe(SENTENCES.restarting);
  });

  it("renders citations as Markdown links", async () => {
    runtime.answerWith(() => ({
      answer: "Parents get 16 weeks of paid leave.",
      toolCalls: [
        {
          id: "call-1",
          name: "get_document",
          args: { collection: "handbook", doc_id: "parental-leave.md" },
          success: true,
          resultText:
            "# Parental leave (2024)\nhttps://wiki.example.com/wiki/Leave_(parental)\n\nParents get 16 weeks.",
        },
      ],
    }));
    await post(inPersonalChat("how long is parental leave?"));
    await waitFor(() => connector.of("update").length === 1, "the answer");
    expect(connector.of("update")[0]!.activity.text).toBe(
      "Parents get 16 weeks of paid leave.\n\n**Related documents:** [Parental leave (2024)](https://wiki.example.com/wiki/Leave_%28parental%29)",
    );
  });

  it("ignores activities that are not questions: bots, bad conversation ids, other types", async () => {
    const fromBot = { ...inPersonalChat("hello"), from: { id: "28:other", role: "bot" } };
    const badId = activity("hello", { id: "../../v3/other?x=1", conversationType: "personal" });
    const typing = { ...inPersonalChat("hello"), type: "typing" };
    for (const body of [fromBot, badId, typing]) expect(await post(body)).toBe(200);
    expect(runtime.asked).toEqual([]);
    expect(connector.calls).toEqual([]);
  });

  it("handles a burst of 50 messages within the concurrency limit, losing none", async () => {
    const hold = gate();
    runtime.answerWith(async (question) => {
      await hold.promise;
      return { answer: `Answer to: ${question}`, toolCalls: [] };
    });
    const statuses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        post(activity(`question ${i}`, { id: `a:1chat-${i}`, conversationType: "personal" })),
      ),
    );
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect(connector.of("create")).toHaveLength(50);
    expect(queue.active).toBe(3);
    hold.open();
    await waitFor(() => connector.of("update").length === 50, "50 answers", 30_000);
    expect(runtime.highWater).toBe(3);
    expect(queue.highWater).toBe(3);
    for (const update of connector.of("update")) {
      const i = /^a:1chat-(\d+)$/.exec(update.conversationId)![1];
      expect(update.activity.text).toBe(`Answer to: question ${i}`);
    }
    expect(new Set(connector.of("update").map((u) => u.conversationId)).size).toBe(50);
  });
});

describe("Teams endpoint with token validation on", () => {
  it("rejects an activity without a Bot Framework token before any work", async () => {
    const { log } = recordingLog();
    const localRuntime = new FakeRuntime();
    const secured = createTeamsApp(
      { clientId: "app-id", clientSecret: "secret", tenantId: TENANT },
      { log, port: 0, host: "127.0.0.1" },
    );
    attachTeamsHost(secured.app, {
      bot: "handbook",
      runtime: localRuntime,
      queue: new AnswerQueue({ concurrency: 1, maxQueued: 1 }),
      log,
    });
    await secured.start();
    try {
      expect(await post(inPersonalChat("let me in"), secured.port()!)).toBe(401);
      expect(localRuntime.asked).toEqual([]);
      expect(connector.calls).toEqual([]);
    } finally {
      await secured.stop();
    }
  });
});
