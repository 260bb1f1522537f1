// One question from a chat platform, answered through the BotRuntime seam: the question is
// checked and bounded first, and every failure becomes one short sentence for the user, while
// the detail (code, message, cause) goes to the log. No error text from the runtime, the model
// or a stack ever reaches a channel.
import { type AskResult, type BotRuntime, BotRuntimeError } from "../connectors/bot-runtime.js";
import { escapeUntrusted, hasVisibleText } from "../knowledge-tool/untrusted-text.js";
import type { Logger } from "../telemetry/logger.js";
import { type Citations, citedDocuments } from "./cited-documents.js";

/** Longest question passed to the model; longer ones are refused with a sentence. */
export const MAX_QUESTION_CHARS = 4_000;
/** Longest answer kept; a model that rambles past this is cut (the chunker bounds messages too). */
const MAX_ANSWER_CHARS = 40_000;

export const SENTENCES = {
  busy: "I'm answering a lot of questions right now. Please try again in a minute.",
  empty: "Ask me a question and I'll look it up.",
  tooLong: `That question is too long for me. Please keep it under ${MAX_QUESTION_CHARS.toLocaleString("en")} characters.`,
  timeout: "Sorry, that took too long to answer. Please try again, perhaps with a narrower question.",
  restarting: "Sorry, I was restarted before I could answer. Please ask again.",
  toolLimit:
    "Sorry, I couldn't settle on an answer within my search limit. Please try rephrasing the question.",
  noAnswer: "Sorry, I don't have an answer to that.",
  modelDown: "Sorry, I can't reach my language model right now. Please try again in a few minutes.",
  failed: "Sorry, something went wrong while answering. Please try again later.",
  thinking: "Looking that up…",
} as const;

export type HostedAnswer =
  | { ok: true; answer: string; citations: Citations }
  | { ok: false; sentence: string };

/** The question to ask, or the sentence to reply with instead. */
export function checkQuestion(raw: unknown): { question: string } | { sentence: string } {
  if (typeof raw !== "string") return { sentence: SENTENCES.empty };
  // Control characters (other than newline and tab) are never part of a question.
  const question = raw.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "").trim();
  if (!hasVisibleText(question)) return { sentence: SENTENCES.empty };
  if (question.length > MAX_QUESTION_CHARS) return { sentence: SENTENCES.tooLong };
  return { question };
}

/** The sentence for a failed `ask`; the error itself is only logged. */
export function sentenceFor(error: unknown, stopping: boolean): string {
  if (stopping) return SENTENCES.restarting;
  if (error instanceof BotRuntimeError) {
    if (error.code === "timeout") return SENTENCES.timeout;
    if (error.code === "aborted" || error.code === "closed") return SENTENCES.restarting;
    if (error.code === "tool_call_cap") return SENTENCES.toolLimit;
    if (error.code === "model_unreachable") return SENTENCES.modelDown;
  }
  return SENTENCES.failed;
}

export async function answerQuestion(
  runtime: BotRuntime,
  question: string,
  context: { conversationId: string; signal: AbortSignal; log: Logger },
): Promise<HostedAnswer> {
  let result: AskResult;
  try {
    result = await runtime.ask(question, { conversationId: context.conversationId, signal: context.signal });
  } catch (error) {
    const code = error instanceof BotRuntimeError ? error.code : "unexpected";
    context.log.error({ err: error, code, conversationId: context.conversationId }, "question failed");
    return { ok: false, sentence: sentenceFor(error, context.signal.aborted) };
  }
  const raw = typeof result.answer === "string" ? result.answer.trim().slice(0, MAX_ANSWER_CHARS) : "";
  // An answer of zero-width or control characters shows nothing: no answer.
  if (!hasVisibleText(raw)) return { ok: false, sentence: SENTENCES.noAnswer };
  const answer = escapeUntrusted(raw, "text");
  return { ok: true, answer, citations: citedDocuments({ ...result, answer }) };
}
