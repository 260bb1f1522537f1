// One question on one session, with the bounds the runtime does not provide: it has no cap on
// agent turns (a model that keeps calling a tool loops indefinitely), and `sendAndWait`'s
// timeout only stops waiting while the agent keeps running. Here the cap and the deadline abort
// the session itself, and the events are read to record every tool call with its id.

import type { CopilotSession, SessionEvent } from "@github/copilot-sdk";
import type { Context } from "@opentelemetry/api";
import { DEADLINES } from "../../deadline.js";
import { errorMessage } from "../../errors.js";
import { emitChatSpan } from "../../telemetry/agent-spans.js";
import {
  type AskResult,
  type BotLimits,
  BotRuntimeError,
  type BotRuntimeErrorCode,
  type ToolCallRecord,
} from "../bot-runtime.js";
import { CallMatcher } from "./call-matcher.js";
import { sessionErrorToBotError } from "./session-error.js";
import { isKnowledgeSearchTool } from "./tool-name.js";

/** The question in flight, as the hook and the tool handlers see it. */
export interface TurnContext {
  matcher: CallMatcher;
  /** Aborted when the question is stopped (cap, deadline, caller); in-flight work should stop too. */
  signal: AbortSignal;
  /** The question's span context: tool and chat spans of this turn are its children. */
  traceContext?: Context;
  /** The user's question, for a model grader. */
  question?: string;
}

export interface GuardedTurnOptions {
  botName: string;
  limits: BotLimits;
  signal?: AbortSignal;
  /** Fires when the runtime is closed under a question in flight. */
  closing?: AbortSignal;
  /** Epoch ms by which the question must be answered (default: now + limits.timeoutMs). */
  deadline?: number;
  knownServers?: readonly string[];
  /** Parent of the turn's spans (the `invoke_agent` span's context). */
  traceContext?: Context;
  /** The bot's provider type (`copilot` without one), on the turn's chat spans. */
  provider?: string;
  /** Called with the turn's context before the prompt is sent, and with undefined after. */
  setContext?: (context: TurnContext | undefined) => void;
}

/** After an abort the runtime goes idle within milliseconds; this bounds the wait if it does not. */
const ABORT_SETTLE_MS = DEADLINES.turnAbortSettleMs;

type Ending = { kind: "idle" } | { kind: "error"; message: string; cause: unknown };

function stopMessage(code: BotRuntimeErrorCode, botName: string, limits: BotLimits): string {
  switch (code) {
    case "tool_call_cap":
      return `Bot '${botName}' stopped: the model asked for more than ${limits.maxToolCalls} tool calls for one question.`;
    case "timeout":
      return `Bot '${botName}' stopped: no answer within ${limits.timeoutMs} ms.`;
    case "closed":
      return `Bot '${botName}' stopped: the runtime was closed.`;
    default:
      return `Bot '${botName}' stopped: the question was cancelled.`;
  }
}

type UsageEvent = Extract<SessionEvent, { type: "assistant.usage" }>;
type ToolCompleteEvent = Extract<SessionEvent, { type: "tool.execution_complete" }>;

/** The turn's model call as a `chat` span under the question's span (when it has one). */
function emitUsageSpan(event: UsageEvent, options: GuardedTurnOptions): void {
  if (!options.traceContext) return;
  const usage = event.data;
  emitChatSpan(options.traceContext, {
    model: usage.model,
    ...(options.provider ? { provider: options.provider } : {}),
    endTime: new Date(event.timestamp),
    ...(usage.duration !== undefined ? { durationMs: usage.duration } : {}),
    ...(usage.inputTokens !== undefined ? { inputTokens: usage.inputTokens } : {}),
    ...(usage.outputTokens !== undefined ? { outputTokens: usage.outputTokens } : {}),
    ...(usage.finishReason !== undefined ? { finishReason: usage.finishReason } : {}),
  });
}

/** A finished tool call, named and with the arguments its start reported. */
function completedCall(
  event: ToolCompleteEvent,
  started: ReadonlyMap<string, { name: string; args: unknown }>,
): ToolCallRecord {
  const { toolCallId, success, result, error } = event.data;
  const call = started.get(toolCallId);
  return {
    id: toolCallId,
    name: call?.name ?? "",
    args: call?.args,
    resultText: result?.content ?? error?.message ?? "",
    success,
  };
}

export async function runGuardedTurn(
  session: CopilotSession,
  prompt: string,
  options: GuardedTurnOptions,
): Promise<AskResult> {
  const { botName, limits } = options;
  const controller = new AbortController();
  const matcher = new CallMatcher();
  const started = new Map<string, { name: string; args: unknown }>();
  const toolCalls: ToolCallRecord[] = [];
  let toolStarts = 0;
  let answer = "";
  let stopCode: BotRuntimeErrorCode | undefined;

  let endTurn: (ending: Ending) => void = () => undefined;
  const ended = new Promise<Ending>((resolve) => {
    endTurn = resolve;
  });
  let settleTimer: NodeJS.Timeout | undefined;

  const stop = (code: BotRuntimeErrorCode) => {
    if (stopCode !== undefined) return;
    stopCode = code;
    controller.abort(new BotRuntimeError(code, stopMessage(code, botName, limits)));
    session.abort().catch(() => undefined);
    // A closed runtime has disconnected the session: no idle event will come.
    settleTimer = setTimeout(() => endTurn({ kind: "idle" }), code === "closed" ? 0 : ABORT_SETTLE_MS);
  };

  const onEvent = (event: SessionEvent) => {
    switch (event.type) {
      case "tool.execution_start": {
        const { toolCallId, toolName, arguments: args, mcpServerName, mcpToolName } = event.data;
        // MCP tools may be reported by their bare name with the server alongside.
        const name = mcpServerName && mcpToolName ? `${mcpServerName}-${mcpToolName}` : toolName;
        started.set(toolCallId, { name, args });
        if (isKnowledgeSearchTool(name, options.knownServers)) matcher.noteStart(toolCallId, name, args);
        toolStarts += 1;
        if (toolStarts > limits.maxToolCalls) stop("tool_call_cap");
        break;
      }
      case "tool.execution_complete":
        toolCalls.push(completedCall(event, started));
        break;
      case "assistant.message":
        // Sub-agent messages carry an agentId; only the root agent's last message is the answer.
        if (event.agentId === undefined) answer = event.data.content;
        break;
      case "assistant.usage":
        emitUsageSpan(event, options);
        break;
      case "session.idle":
        endTurn({ kind: "idle" });
        break;
      case "session.error":
        endTurn({ kind: "error", message: event.data.message, cause: event.data });
        break;
    }
  };

  const unsubscribe = session.on(onEvent);
  const deadline = options.deadline ?? Date.now() + limits.timeoutMs;
  const timer = setTimeout(() => stop("timeout"), Math.max(0, deadline - Date.now()));
  const onCallerAbort = () => stop("aborted");
  const onClosing = () => stop("closed");
  const early: BotRuntimeErrorCode | undefined = options.closing?.aborted
    ? "closed"
    : options.signal?.aborted
      ? "aborted"
      : undefined;
  if (early !== undefined) {
    clearTimeout(timer);
    unsubscribe();
    throw new BotRuntimeError(early, stopMessage(early, botName, limits));
  }
  options.signal?.addEventListener("abort", onCallerAbort, { once: true });
  options.closing?.addEventListener("abort", onClosing, { once: true });
  options.setContext?.({
    matcher,
    signal: controller.signal,
    question: prompt,
    ...(options.traceContext ? { traceContext: options.traceContext } : {}),
  });
  try {
    // A stop (cap, deadline, caller, close) ends the wait for the send too: a runtime that never
    // acknowledges the prompt must not hold the question past its deadline.
    const sent = await Promise.race([
      session.send({ prompt }).then(
        () => ({ failed: false as const }),
        (error: unknown) => ({ failed: true as const, error }),
      ),
      ended.then(() => ({ failed: false as const })),
    ]);
    if (sent.failed) throw sessionErrorToBotError(botName, errorMessage(sent.error), sent.error);
    const ending = await ended;
    if (stopCode !== undefined) throw new BotRuntimeError(stopCode, stopMessage(stopCode, botName, limits));
    if (ending.kind === "error") throw sessionErrorToBotError(botName, ending.message, ending.cause);
    for (const call of toolCalls) {
      const corrective = matcher.recordFor(call.id);
      if (corrective) call.corrective = corrective;
    }
    return { answer, toolCalls };
  } finally {
    clearTimeout(timer);
    clearTimeout(settleTimer);
    options.signal?.removeEventListener("abort", onCallerAbort);
    options.closing?.removeEventListener("abort", onClosing);
    options.setContext?.(undefined);
    unsubscribe();
    if (!controller.signal.aborted) controller.abort(new Error("turn finished"));
  }
}
