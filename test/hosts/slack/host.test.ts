// The Slack host through Bolt's own seams: events go in through a custom receiver, everything
// the bot says goes out through Bolt's Web API client to a fake Slack API on 127.0.0.1.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BotRuntimeError } from "../../../src/connectors/bot-runtime.js";
import { AnswerQueue } from "../../../src/hosts/answer-queue.js";
import { SENTENCES } from "../../../src/hosts/hosted-answer.js";
import { createSlackApp, type SlackApp } from "../../../src/hosts/slack/app.js";
import { attachSlackHost } from "../../../src/hosts/slack/host.js";
import { FakeRuntime, gate } from "../support/fake-runtime.js";
import { BOT_USER_ID, type FakeSlackApi, startFakeSlackApi, TEAM_ID } from "../support/fake-slack-api.js";
import { recordingLog } from "../support/silent-log.js";
import { eventEnvelope, TestReceiver } from "../support/test-receiver.js";
import { waitFor } from "../support/wait-for.js";

let api: FakeSlackApi;
let receiver: TestReceiver;
let runtime: FakeRuntime;
let slack: SlackApp;
let queue: AnswerQueue;
let logLines: Array<Record<string, unknown>>;

function setUp(limits: { concurrency: number; maxQueued: number } = { concurrency: 3, maxQueued: 100 }) {
  receiver = new TestReceiver();
  runtime = new FakeRuntime();
  const { log, lines } = recordingLog();
  logLines = lines;
  queue = new AnswerQueue(limits);
  slack = createSlackApp(
    { mode: "socket", botToken: "xoxb-test", appToken: "xapp-test" },
    { log, receiver, slackApiUrl: api.url },
  );
  attachSlackHost(slack.app, { bot: "handbook", runtime, queue, log });
}

beforeEach(async () => {
  api = await startFakeSlackApi();
  setUp();
  await slack.start();
});

afterEach(async () => {
  await queue.drain(5_000);
  await slack.stop();
  await api.close();
});

let tsCounter = 100;
function nextTs(): string {
  return `1700000000.${String(tsCounter++).padStart(6, "0")}`;
}

function mention(text: string, extra: Record<string, unknown> = {}) {
  return eventEnvelope({
    type: "app_mention",
    user: "U0USER",
    text: `<@${BOT_USER_ID}> ${text}`,
    ts: nextTs(),
    channel: "C0CHAN",
    event_ts: "1700000000.000100",
    ...extra,
  });
}

function directMessage(text: string, extra: Record<string, unknown> = {}) {
  return eventEnvelope({
    type: "message",
    channel_type: "im",
    user: "U0USER",
    text,
    ts: nextTs(),
    channel: "D0DM",
    event_ts: "1700000000.000200",
    ...extra,
  });
}

/** Every text the bot put into Slack (posts and updates). */
function everythingSaid(): string[] {
  return [...api.of("chat.postMessage"), ...api.of("chat.update")].map((call) => call.args.text ?? "");
}

describe("Slack host", () => {
  it("answers a mention in the message's thread: acknowledged, placeholder, then the answer", async () => {
    const body = mention("what is the parental leave policy?");
    const ts = (body.event as { ts: string }).ts;
    const { acked } = await receiver.deliver(body);
    expect(acked).toBe(true);

    const placeholder = api.of("chat.postMessage")[0]!;
    expect(placeholder.args).toMatchObject({
      channel: "C0CHAN",
      thread_ts: ts,
      text: `_${SENTENCES.thinking}_`,
    });
    await waitFor(() => api.of("chat.update").length === 1, "the answer");
    const update = api.of("chat.update")[0]!;
    expect(update.args.channel).toBe("C0CHAN");
    expect(update.args.text).toBe("Answer to: what is the parental leave policy?");
    expect(runtime.asked).toEqual([
      { question: "what is the parental leave policy?", conversationId: `slack:${TEAM_ID}:C0CHAN:${ts}` },
    ]);
  });

  it("answers a direct message in the DM, and the DM is one conversation", async () => {
    await receiver.deliver(directMessage("how many vacation days do I get?"));
    await receiver.deliver(directMessage("and for part-time staff?"));
    await waitFor(() => api.of("chat.update").length === 2, "both answers");
    const posts = api.of("chat.postMessage");
    expect(posts.map((p) => p.args.channel)).toEqual(["D0DM", "D0DM"]);
    expect(posts.every((p) => p.args.thread_ts === undefined)).toBe(true);
    expect(runtime.asked.map((a) => a.conversationId)).toEqual([
      `slack:${TEAM_ID}:D0DM`,
      `slack:${TEAM_ID}:D0DM`,
    ]);
  });

  it("keeps the conversation for a follow-up in the same thread", async () => {
    const first = mention("what is the expense limit for meals?");
    const rootTs = (first.event as { ts: string }).ts;
    await receiver.deliver(first);
    await receiver.deliver(mention("and for hotels?", { thread_ts: rootTs }));
    await receiver.deliver(mention("an unrelated question in a new thread"));
    await waitFor(() => runtime.asked.length === 3 && api.of("chat.update").length === 3, "three answers");

    const ids = runtime.asked.map((a) => a.conversationId);
    expect(ids[0]).toBe(`slack:${TEAM_ID}:C0CHAN:${rootTs}`);
    expect(ids[1]).toBe(ids[0]);
    expect(ids[2]).not.toBe(ids[0]);
    const posts = api.of("chat.postMessage");
    expect(posts[0]!.args.thread_ts).toBe(rootTs);
    expect(posts[1]!.args.thread_ts).toBe(rootTs);
  });

  it("posts one short sentence when answering fails, and logs the error", async () => {
    const failure = new BotRuntimeError("session", "model provider said 500: internal error at /v1/messages");
    failure.stack = `BotRuntimeError: boom\n    at secretFunction (/srv/app/src/internal.ts:12:3)`;
    runtime.answerWith(() => {
      throw failure;
    });
    await receiver.deliver(mention("why does this fail?"));
    await waitFor(() => api.of("chat.update").length === 1, "the error sentence");
    expect(api.of("chat.update")[0]!.args.text).toBe(SENTENCES.failed);
    for (const text of everythingSaid()) {
      expect(text).not.toMatch(/\bat \S+ \(|internal\.ts|500|BotRuntimeError/);
      expect(text.split("\n")).toHaveLength(1);
    }
    expect(logLines.some((line) => line.msg === "question failed" && line.code === "session")).toBe(true);
  });

  it("says it cannot reach its language model when the model server is down, and logs why", async () => {
    const reason =
      "Bot 'handbook' cannot reach its model server: cannot connect to 127.0.0.1:9 (ECONNREFUSED: nothing listens there); " +
      "is it running? check provider.baseUrl in /srv/bots/handbook/config.json";
    runtime.answerWith(() => {
      throw new BotRuntimeError("model_unreachable", reason);
    });
    await receiver.deliver(mention("how many vacation days do I get?"));
    await waitFor(() => api.of("chat.update").length === 1, "the model-down sentence");
    expect(api.of("chat.update")[0]!.args.text).toBe(SENTENCES.modelDown);
    expect(SENTENCES.modelDown).not.toBe(SENTENCES.failed);
    for (const text of everythingSaid()) expect(text).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|config\.json/);
    const logged = logLines.find((line) => line.msg === "question failed");
    expect(logged).toMatchObject({ level: 50, code: "model_unreachable" });
    expect(JSON.stringify(logged)).toContain("127.0.0.1:9 (ECONNREFUSED");
  });

  it("says the question took too long when the runtime times out", async () => {
    runtime.answerWith(() => {
      throw new BotRuntimeError("timeout", "took too long");
    });
    await receiver.deliver(mention("a slow question"));
    await waitFor(() => api.of("chat.update").length === 1, "the timeout sentence");
    expect(api.of("chat.update")[0]!.args.text).toBe(SENTENCES.timeout);
  });

  it("renders citations as links to the cited documents", async () => {
    runtime.answerWith(() => ({
      answer: "Parents get 16 weeks of paid leave (see **Parental leave**).",
      toolCalls: [
        {
          id: "call-1",
          name: "search_knowledge",
          args: { query: "parental leave" },
          success: true,
          resultText: [
            "## Parental leave (91.0% relevant · high)",
            "https://wiki.example.com/handbook/parental-leave?x=1&y=2",
            "collection: `handbook` doc_id: `parental-leave.md`",
            "",
            "Parents get 16 weeks.",
            "",
            "## Holidays (40.0% relevant · medium)",
            "collection: `handbook` doc_id: `holidays.md`",
          ].join("\n"),
        },
      ],
    }));
    await receiver.deliver(mention("how long is parental leave?"));
    await waitFor(() => api.of("chat.update").length === 1, "the answer");
    const text = api.of("chat.update")[0]!.args.text!;
    expect(text).toContain("Parents get 16 weeks of paid leave (see *Parental leave*).");
    expect(text).toContain(
      "*Sources:* <https://wiki.example.com/handbook/parental-leave?x=1&amp;y=2|Parental leave>",
    );
    expect(text).not.toContain("Holidays");
  });

  it("splits an over-long answer into several messages in the thread", async () => {
    const paragraph = `${"The policy applies to every employee in every office. ".repeat(20).trim()}\n\n`;
    runtime.answerWith(() => ({ answer: paragraph.repeat(12), toolCalls: [] }));
    const body = mention("tell me everything");
    const ts = (body.event as { ts: string }).ts;
    await receiver.deliver(body);
    await waitFor(() => api.of("chat.postMessage").length >= 3, "the extra chunks");
    await queue.drain(5_000);
    const pieces = [api.of("chat.update")[0]!, ...api.of("chat.postMessage").slice(1)];
    expect(pieces.length).toBeGreaterThanOrEqual(3);
    for (const piece of pieces) expect(piece.args.text!.length).toBeLessThanOrEqual(4_000);
    for (const post of api.of("chat.postMessage")) expect(post.args.thread_ts).toBe(ts);
    const total = pieces.map((p) => p.args.text!).join("\n\n");
    expect(total.replace(/\s+/g, " ").trim()).toBe(paragraph.repeat(12).replace(/\s+/g, " ").trim());
  });

  it("never lets an answer ping a channel or a user", async () => {
    runtime.answerWith(() => ({ answer: "Ask <!channel> or <@U0BOSS> about <script>.", toolCalls: [] }));
    await receiver.deliver(mention("who do I ask?"));
    await waitFor(() => api.of("chat.update").length === 1, "the answer");
    expect(api.of("chat.update")[0]!.args.text).toBe(
      "Ask &lt;!channel&gt; or &lt;@U0BOSS&gt; about &lt;script&gt;.",
    );
  });

  it("ignores bot messages, edits and malformed events", async () => {
    await receiver.deliver(directMessage("from another bot", { bot_id: "B0OTHER" }));
    await receiver.deliver(directMessage("edited", { subtype: "message_changed" }));
    await receiver.deliver(directMessage("no timestamp", { ts: "not-a-ts" }));
    await receiver.deliver(
      eventEnvelope({
        type: "message",
        channel_type: "channel",
        user: "U1",
        text: "hi",
        ts: nextTs(),
        channel: "C0CHAN",
      }),
    );
    expect(runtime.asked).toEqual([]);
    expect(api.of("chat.postMessage")).toEqual([]);
  });

  it("answers a redelivered event once", async () => {
    const body = mention("asked once, delivered twice");
    await receiver.deliver(body);
    await receiver.deliver(body);
    await queue.drain(5_000);
    expect(runtime.asked).toHaveLength(1);
  });

  it("refuses an over-long question with a sentence, without asking the model", async () => {
    await receiver.deliver(mention("x".repeat(5_000)));
    expect(api.of("chat.postMessage")[0]!.args.text).toBe(SENTENCES.tooLong);
    expect(runtime.asked).toEqual([]);
  });

  it("handles a burst of 50 mentions within the concurrency limit, losing none", async () => {
    const hold = gate();
    runtime.answerWith(async (question) => {
      await hold.promise;
      return { answer: `Answer to: ${question}`, toolCalls: [] };
    });
    const bodies = Array.from({ length: 50 }, (_, i) => mention(`question ${i}`));
    await Promise.all(bodies.map((body) => receiver.deliver(body)));
    expect(api.of("chat.postMessage")).toHaveLength(50);
    expect(queue.active).toBe(3);
    expect(queue.queued).toBe(47);
    hold.open();
    await waitFor(() => api.of("chat.update").length === 50, "50 answers", 30_000);

    expect(runtime.highWater).toBe(3);
    expect(queue.highWater).toBe(3);
    // Each answer replaced its own question's placeholder, in its own thread.
    const placeholderThread = new Map(api.of("chat.postMessage").map((p) => [p.args.thread_ts!, p]));
    const answered = new Set<string>();
    for (const [i, body] of bodies.entries()) {
      const ts = (body.event as { ts: string }).ts;
      expect(placeholderThread.has(ts)).toBe(true);
      answered.add(`Answer to: question ${i}`);
    }
    expect(new Set(api.of("chat.update").map((u) => u.args.text))).toEqual(answered);
    expect(new Set(runtime.asked.map((a) => a.conversationId)).size).toBe(50);
  });

  it("replies that it is busy past the queue bound", async () => {
    await queue.drain(1_000);
    await slack.stop();
    setUp({ concurrency: 1, maxQueued: 1 });
    await slack.start();
    const hold = gate();
    runtime.answerWith(async (question) => {
      await hold.promise;
      return { answer: `Answer to: ${question}`, toolCalls: [] };
    });
    for (const i of [1, 2, 3]) await receiver.deliver(mention(`question ${i}`));
    const posts = api.of("chat.postMessage").map((p) => p.args.text);
    expect(posts).toEqual([`_${SENTENCES.thinking}_`, `_${SENTENCES.thinking}_`, SENTENCES.busy]);
    hold.open();
    await waitFor(() => api.of("chat.update").length === 2, "two answers");
    expect(runtime.asked.map((a) => a.question)).toEqual(["question 1", "question 2"]);
  });
});
