// A bot in Microsoft Teams: it answers messages in personal chats, group chats and channel
// threads (where Teams only delivers messages that @mention the bot), one conversation per
// Teams conversation id (a channel thread's id names its root message). The activity handler
// posts the placeholder and queues the answer, so the Bot Framework's request returns quickly;
// the answer replaces the placeholder later through the Bot Connector API.
import type { App } from "@microsoft/teams.apps";
import type { BotRuntime } from "../../connectors/bot-runtime.js";
import type { Logger } from "../../telemetry/logger.js";
import type { AnswerQueue } from "../answer-queue.js";
import { type ChatReplier, receiveQuestion } from "../question-flow.js";
import { teamsAnswerMessages } from "./answer.js";
import { teamsQuestion } from "./question.js";

export interface TeamsHostOptions {
  bot: string;
  runtime: BotRuntime;
  queue: AnswerQueue;
  log: Logger;
}

/** Activities seen recently, so a redelivered one (the service retries) is not answered twice. */
const REMEMBERED_ACTIVITIES = 2_000;

type Send = (activity: { type: "message"; text: string; textFormat: "markdown"; id?: string }) => Promise<{
  id?: unknown;
}>;

function replierFor(send: Send): ChatReplier {
  return {
    post: async (text) => {
      const sent = await send({ type: "message", text, textFormat: "markdown" });
      return typeof sent.id === "string" ? sent.id : undefined;
    },
    // An activity with an id is an update of that activity (the SDK's ActivitySender).
    update: async (messageId, text) => {
      await send({ type: "message", id: messageId, text, textFormat: "markdown" });
    },
  };
}

export function attachTeamsHost(app: App, options: TeamsHostOptions): void {
  const log = options.log.child({ bot: options.bot, host: "teams" });
  const seen = new Set<string>();
  const firstDelivery = (activityId: unknown): boolean => {
    if (typeof activityId !== "string" || activityId === "") return true;
    const key = activityId.slice(0, 256);
    if (seen.has(key)) return false;
    seen.add(key);
    if (seen.size > REMEMBERED_ACTIVITIES) seen.delete(seen.values().next().value!);
    return true;
  };
  const flow = { runtime: options.runtime, queue: options.queue, log, render: teamsAnswerMessages };

  app.on("message", async (ctx) => {
    // Typed by the SDK, but only as trustworthy as the sender: validated as unknown.
    const activity: unknown = ctx.activity;
    const question = teamsQuestion(activity);
    if (!question || !firstDelivery((activity as { id?: unknown }).id)) return;
    const send: Send = (message) => ctx.send(message);
    await receiveQuestion(
      { text: question.text, conversationId: question.conversationId, reply: replierFor(send) },
      flow,
    );
  });
}
