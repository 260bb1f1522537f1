// One `chat <model>` span per model call (docs/design.md §9), around all of its attempts, with the
// gen_ai provider, request and response model, token usage and finish reason (the OpenTelemetry
// GenAI conventions). A failed call ends the span with an
// error status; the recorded message is ours (LlmError), so it carries no key.

import { context, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { errorMessage } from "../errors.js";
import { ATTR, chatSpanName, providerAttributes } from "../telemetry/span-names.js";
import { epochMs, tracer } from "../telemetry/tracer.js";
import type { ChatResponse } from "./llm-client.js";

export async function withChatSpan(
  model: string,
  provider: string,
  run: () => Promise<ChatResponse>,
): Promise<ChatResponse> {
  const parent = context.active();
  const span = tracer().startSpan(
    chatSpanName(model),
    {
      kind: SpanKind.CLIENT,
      attributes: {
        [ATTR.operationName]: "chat",
        ...providerAttributes(provider),
        [ATTR.requestModel]: model,
      },
      startTime: epochMs(),
    },
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
