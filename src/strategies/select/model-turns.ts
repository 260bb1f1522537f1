// Every model call a strategy makes goes through here: each call gets a timeout no later than
// the run's deadline, the run's abort signal, and its tokens are counted against the run's
// token budget. When time or tokens run out the run stops asking (callers return what they
// have); a transport failure is a StrategyError carrying the usage spent so far. What the
// call sends passes the one escaping rule for document text (knowledge-tool/untrusted-text.ts):
// the sections, titles and quotes a strategy shows the model come from documents.

import { DEADLINES } from "../../deadline.js";
import { errorMessage } from "../../errors.js";
import { escapeUntrusted } from "../../knowledge-tool/untrusted-text.js";
import type { ChatRequest, ChatResponse, LlmClient } from "../../llm/llm-client.js";
import { StrategiesError } from "../strategies-error.js";
import { addUsage, type StrategyUsage, zeroUsage } from "./usage.js";

export interface RunLimits {
  /** Bound on the whole run, in ms (default 60 s). */
  timeoutMs?: number;
  /** Bound on one model call, in ms (default 30 s, never past the run's deadline). */
  callTimeoutMs?: number;
  /** Input + output tokens the run may spend (default 200 000). */
  maxTotalTokens?: number;
  signal?: AbortSignal;
  /** Clock, injectable for tests. */
  now?: () => number;
}

export const DEFAULT_RUN_TIMEOUT_MS = DEADLINES.strategyRunMs;
export const DEFAULT_CALL_TIMEOUT_MS = DEADLINES.strategyCallMs;
export const DEFAULT_MAX_TOTAL_TOKENS = 200_000;

export type StopReason = "time" | "tokens" | "aborted";

/** A model call failed (transport, timeout of the call, provider error). */
export class StrategyError extends StrategiesError {
  constructor(
    message: string,
    readonly usage: StrategyUsage,
    options?: { cause?: unknown },
  ) {
    super("model-turn", message, options);
    this.name = "StrategyError";
  }
}

export class ModelTurns {
  readonly usage: StrategyUsage = zeroUsage();
  /** The model that answered last (the client's default until then). */
  modelUsed: string;
  private readonly deadline: number;
  private readonly now: () => number;

  constructor(
    private readonly client: LlmClient,
    private readonly limits: RunLimits = {},
  ) {
    this.now = limits.now ?? (() => performance.now());
    this.deadline = this.now() + (limits.timeoutMs ?? DEFAULT_RUN_TIMEOUT_MS);
    this.modelUsed = client.model;
  }

  /** Why no further call may be made, or undefined while the run may go on. */
  stopped(): StopReason | undefined {
    if (this.limits.signal?.aborted) return "aborted";
    if (this.now() >= this.deadline) return "time";
    if (this.usage.totalTokens >= (this.limits.maxTotalTokens ?? DEFAULT_MAX_TOTAL_TOKENS)) return "tokens";
    return undefined;
  }

  /** One call; undefined when the run is out of budget (checked before the call). */
  async chat(request: ChatRequest, label: string): Promise<ChatResponse | undefined> {
    if (this.stopped()) return undefined;
    const remaining = Math.max(1, Math.floor(this.deadline - this.now()));
    const timeoutMs = Math.min(this.limits.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS, remaining);
    let response: ChatResponse;
    try {
      response = await this.client.chat({
        ...request,
        ...(request.system !== undefined ? { system: escapeUntrusted(request.system, "text") } : {}),
        messages: request.messages.map((m) => ({ ...m, content: escapeUntrusted(m.content, "text") })),
        timeoutMs,
        ...(this.limits.signal ? { signal: this.limits.signal } : {}),
      });
    } catch (error) {
      throw new StrategyError(`${label}: ${errorMessage(error)}`, { ...this.usage }, { cause: error });
    }
    const input = nonNegative(response?.usage?.inputTokens);
    const output = nonNegative(response?.usage?.outputTokens);
    addUsage(this.usage, { inputTokens: input, outputTokens: output, llmCalls: 1 });
    if (typeof response?.model === "string" && response.model) this.modelUsed = response.model;
    return { ...response, text: typeof response?.text === "string" ? response.text : "" };
  }
}

function nonNegative(n: unknown): number {
  return typeof n === "number" && Number.isFinite(n) && n > 0 ? n : 0;
}
