// A bot in Slack: it answers app mentions in channels (in the message's thread) and direct
// messages, one conversation per thread. Bolt acknowledges each event before the listener runs,
// so Slack's 3-second limit holds however long the answer takes; the listener only posts the
// placeholder and queues the answer.
import type { App } from "@slack/bolt";
import type { BotRuntime } from "../../connectors/bot-runtime.js";
import type { Logger } from "../../telemetry/logger.js";
import type { AnswerQueue } from "../answer-queue.js";
import { type ChatReplier, receiveQuestion } from "../question-flow.js";
import { slackAnswerMessages } from "./answer.js";
import { type SlackQuestion, slackQuestion } from "./question.js";

export interface SlackHostOptions {
  bot: string;
  runtime: BotRuntime;
  queue: AnswerQueue;
  log: Logger;
}

/** Messages seen recently, so a redelivered event (Slack retries) is not answered twice. */
const REMEMBERED_MESSAGES = 2_000;

type SlackClient = Parameters<Parameters<App["event"]>[1]>[0]["client"];

function replierFor(client: SlackClient, question: SlackQuestion): ChatReplier {
  const thread = question.replyThreadTs ? { thread_ts: question.replyThreadTs } : {};
  return {
    post: async (text) => {
      const response = await client.chat.postMessage({
        channel: question.channel,
        text,
        ...thread,
        // Citation links would otherwise unfurl into large previews under every answer.
        unfurl_links: false,
        unfurl_media: false,
      });
      return typeof response.ts === "string" ? response.ts : undefined;
    },
    update: async (messageId, text) => {
      await client.chat.update({ channel: question.channel, ts: messageId, text });
    },
  };
}

export function attachSlackHost(app: App, options: SlackHostOptions): void {
  const log = options.log.child({ bot: options.bot, host: "slack" });
  const seen = new Set<string>();
  const firstDelivery = (question: SlackQuestion): boolean => {
    const key = `${question.channel}:${question.ts}`;
    if (seen.has(key)) return false;
    seen.add(key);
    if (seen.size > REMEMBERED_MESSAGES) seen.delete(seen.values().next().value!);
    return true;
  };
  const flow = { runtime: options.runtime, queue: options.queue, log, render: slackAnswerMessages };

  const handle = async (
    event: unknown,
    client: SlackClient,
    context: { teamId?: string; botUserId?: string },
    direct: boolean,
  ): Promise<void> => {
    const question = slackQuestion(event, { teamId: context.teamId, botUserId: context.botUserId, direct });
    if (!question || !firstDelivery(question)) return;
    await receiveQuestion(
      { text: question.text, conversationId: question.conversationId, reply: replierFor(client, question) },
      flow,
    );
  };

  app.event("app_mention", async ({ event, client, context }) => {
    await handle(event, client, context, false);
  });

  // Direct messages only: channel messages are answered when they mention the bot (above).
  app.event("message", async ({ event, client, context }) => {
    if ((event as { channel_type?: unknown }).channel_type !== "im") return;
    await handle(event, client, context, true);
  });

  app.error(async (error) => {
    log.error({ err: error }, "slack listener failed");
  });
}
