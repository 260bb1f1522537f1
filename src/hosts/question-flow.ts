// What every chat host does with a question, whatever the platform: refuse a bad one with a
// sentence, say "busy" when the bot's queue is full, otherwise post a placeholder at once (the
// user sees progress while the platform's acknowledgement deadline is met elsewhere), answer in
// the queue, and replace the placeholder with the answer (more messages when it is long).
// Platform calls can fail; each failure is logged and never turns into a second error message.
import type { BotRuntime } from "../connectors/bot-runtime.js";
import type { Logger } from "../telemetry/logger.js";
import type { AnswerQueue } from "./answer-queue.js";
import { answerQuestion, checkQuestion, type HostedAnswer, SENTENCES } from "./hosted-answer.js";

/** How a host writes into the conversation a question came from. */
export interface ChatReplier {
  /** Posts a message; resolves to its id (used to update it), or undefined if the platform gave none. */
  post(text: string): Promise<string | undefined>;
  /** Replaces a posted message's text. */
  update(messageId: string, text: string): Promise<void>;
}

export interface QuestionFlowContext {
  runtime: BotRuntime;
  queue: AnswerQueue;
  log: Logger;
  /** The answer (or its failure sentence) as the platform's messages, first one first. */
  render: (answer: HostedAnswer) => string[];
}

export interface IncomingQuestion {
  text: unknown;
  conversationId: string;
  reply: ChatReplier;
}

async function postQuietly(reply: ChatReplier, text: string, log: Logger): Promise<string | undefined> {
  try {
    return await reply.post(text);
  } catch (error) {
    log.error({ err: error }, "could not post to the conversation");
    return undefined;
  }
}

async function deliver(
  reply: ChatReplier,
  placeholder: string | undefined,
  messages: string[],
  log: Logger,
): Promise<void> {
  const [first, ...rest] = messages;
  if (first === undefined) return;
  let updated = false;
  if (placeholder !== undefined) {
    try {
      await reply.update(placeholder, first);
      updated = true;
    } catch (error) {
      // The placeholder may have been deleted; the answer still goes out as a new message.
      log.warn({ err: error }, "could not update the placeholder; posting the answer instead");
    }
  }
  if (!updated) await postQuietly(reply, first, log);
  // In order: a chunk must not overtake the one before it.
  for (const message of rest) await postQuietly(reply, message, log);
}

/**
 * Handles one question to the end of its acknowledgement: resolves once the placeholder is
 * posted and the answer is queued (or the question was refused), not when the answer is ready.
 */
export async function receiveQuestion(
  incoming: IncomingQuestion,
  context: QuestionFlowContext,
): Promise<void> {
  const log = context.log.child({ conversationId: incoming.conversationId });
  const checked = checkQuestion(incoming.text);
  if ("sentence" in checked) {
    await postQuietly(incoming.reply, checked.sentence, log);
    return;
  }
  if (!context.queue.hasRoom()) {
    log.warn({ queued: context.queue.queued }, "queue full: question refused");
    await postQuietly(incoming.reply, SENTENCES.busy, log);
    return;
  }
  const placeholder = await postQuietly(incoming.reply, `_${SENTENCES.thinking}_`, log);
  const accepted = context.queue.offer(async (signal) => {
    const answer = await answerQuestion(context.runtime, checked.question, {
      conversationId: incoming.conversationId,
      signal,
      log,
    });
    await deliver(incoming.reply, placeholder, context.render(answer), log);
  });
  if (!accepted) {
    // The queue filled (or shutdown began) while the placeholder was being posted.
    log.warn("queue full: question refused");
    await deliver(incoming.reply, placeholder, [SENTENCES.busy], log);
  }
}
