// What every provider's LlmClient does around one call, written once: the model (a request's
// `model` overrides the client's), a time bound over the whole call (retries included) and the
// caller's AbortSignal, one `chat <model>` span around it, and a running usage total, so a host
// can see what the grader (or a strategy) has cost so far without a tracing backend. When the
// bound or the signal fires, the call fails with an LlmError that says which, never with
// whatever error the interrupted I/O happened to raise.

import { context, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { DeadlineError, withDeadline } from "../deadline.js";
import { errorMessage } from "../errors.js";
import { countOrZero, positiveOrUndefined } from "../limits.js";
import { ATTR, chatSpanName, providerAttributes } from "../telemetry/span-names.js";
import { epochMs, tracer } from "../telemetry/tracer.js";
import type { ChatRequest, ChatResponse, LlmClient, UsageTotals } from "./llm-client.js";
import { LlmError } from "./llm-error.js";

export interface ChatCall {
  /** The call's bound in milliseconds (the request's, else the client's). */
  timeoutMs: number;
  /** Fires at the bound or when the caller aborts. */
  signal: AbortSignal;
  /** Counts an HTTP attempt beyond the first. */
  retried(): void;
}

export interface ChatClientFrame {
  /** For errors, logs and `LlmClient.provider`. */
  provider: string;
  /** The span's gen_ai provider when it is not `provider` (Copilot over a BYOK endpoint). */
  spanProvider?: string;
  model: string;
  /** Bound on one call; a request's `timeoutMs` wins. */
  timeoutMs: number;
  /** The model name as the provider spells it. */
  modelName?(model: string): string;
  send(request: ChatRequest, model: string, call: ChatCall): Promise<ChatResponse>;
  /** What a call that failed otherwise than by its bound or abort rejects with: an LlmError, scrubbed. */
  failure(error: unknown): LlmError;
}

export function framedChatClient(frame: ChatClientFrame): LlmClient {
  const { provider } = frame;
  const totals: UsageTotals = { calls: 0, failures: 0, retries: 0, inputTokens: 0, outputTokens: 0 };
  const retried = () => void totals.retries++;
  return {
    model: frame.model,
    provider,
    // A copy: callers cannot change the running total.
    usage: () => ({ ...totals }),
    chat(request: ChatRequest): Promise<ChatResponse> {
      const requested =
        typeof request.model === "string" && request.model !== "" ? request.model : frame.model;
      const model = frame.modelName?.(requested) ?? requested;
      const timeoutMs = positiveOrUndefined(request.timeoutMs) ?? frame.timeoutMs;
      totals.calls++;
      return withChatSpan(model, frame.spanProvider ?? provider, async () => {
        try {
          const response = await withDeadline(`${provider} call`, timeoutMs, request.signal, (signal) =>
            frame.send(request, model, { timeoutMs, signal, retried }),
          );
          // Token counts come from the provider's reply: anything that is not a count adds nothing.
          totals.inputTokens += countOrZero(response.usage.inputTokens);
          totals.outputTokens += countOrZero(response.usage.outputTokens);
          return response;
        } catch (error) {
          totals.failures++;
          if (request.signal?.aborted) throw new LlmError(provider, "aborted", "the call was cancelled");
          if (error instanceof DeadlineError)
            throw new LlmError(provider, "timeout", `no reply within ${timeoutMs} ms`);
          throw frame.failure(error);
        }
      });
    },
  };
}

/**
 * One `chat <model>` span per model call (docs/design.md §9), around all of its attempts, with the
 * gen_ai provider, request and response model, token usage and finish reason (the OpenTelemetry
 * GenAI conventions). A failed call ends the span with an error status; the recorded message is
 * ours (LlmError), so it carries no key.
 */
async function withChatSpan(
  model: string,
  provider: string,
  run: () => Promise<ChatResponse>,
): Promise<ChatResponse> {
  const parent = context.active();
  const attributes = {
    [ATTR.operationName]: "chat",
    ...providerAttributes(provider),
    [ATTR.requestModel]: model,
  };
  const span = tracer().startSpan(
    chatSpanName(model),
    { kind: SpanKind.CLIENT, attributes, startTime: epochMs() },
    parent,
  );
  try {
    const response = await context.with(trace.setSpan(parent, span), run);
    if (response.model) span.setAttribute(ATTR.responseModel, response.model);
    span.setAttribute(ATTR.usageInputTokens, response.usage.inputTokens);
    span.setAttribute(ATTR.usageOutputTokens, response.usage.outputTokens);
    if (response.finishReason) span.setAttribute(ATTR.finishReasons, [response.finishReason]);
    return response;
  } catch (error) {
    const message = errorMessage(error);
    span.recordException({ name: error instanceof Error ? error.name : "Error", message });
    span.setStatus({ code: SpanStatusCode.ERROR, message });
    throw error;
  } finally {
    span.end(epochMs());
  }
}
