// Spans for a bot answering a question: `invoke_agent <bot>` around the whole turn, and one
// `chat <model>` per model call the runtime reports. The Copilot runtime makes the model calls
// itself, so a chat span is rebuilt from its usage report (end time and duration, tokens).

import { type Context, context, type Span, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { errorMessage } from "../errors.js";
import { ATTR, chatSpanName, providerAttributes } from "./span-names.js";
import { epochMs, tracer } from "./tracer.js";

export const INVOKE_AGENT_PREFIX = "invoke_agent";

export interface AgentSpan {
  span: Span;
  /** The context holding the agent span: the parent of the turn's tool and chat spans. */
  context: Context;
  end(error?: unknown): void;
}

export function startAgentSpan(botName: string, parent: Context = context.active()): AgentSpan {
  const span = tracer().startSpan(
    `${INVOKE_AGENT_PREFIX} ${botName}`,
    {
      kind: SpanKind.INTERNAL,
      attributes: { [ATTR.operationName]: INVOKE_AGENT_PREFIX, [ATTR.agentName]: botName },
      startTime: epochMs(),
    },
    parent,
  );
  return {
    span,
    context: trace.setSpan(parent, span),
    end(error?: unknown) {
      if (error !== undefined) {
        span.recordException(error instanceof Error ? error : String(error));
        span.setStatus({
          code: SpanStatusCode.ERROR,
          message: errorMessage(error),
        });
      }
      span.end(epochMs());
    },
  };
}

/** What a runtime reports about one model call. */
export interface ModelCallUsage {
  model: string;
  /** The provider type (openai, anthropic, azure, copilot), for gen_ai.provider.name. */
  provider?: string;
  /** When the report was made (the call's end). */
  endTime: Date;
  durationMs?: number;
  inputTokens?: number;
  outputTokens?: number;
  finishReason?: string;
}

export function emitChatSpan(parent: Context, usage: ModelCallUsage): void {
  const end = usage.endTime.getTime();
  if (!Number.isFinite(end)) return;
  const duration = typeof usage.durationMs === "number" && usage.durationMs >= 0 ? usage.durationMs : 0;
  const attributes: Record<string, string | number | string[]> = {
    [ATTR.operationName]: "chat",
    ...(usage.provider ? providerAttributes(usage.provider) : {}),
    [ATTR.requestModel]: usage.model,
    [ATTR.responseModel]: usage.model,
  };
  if (typeof usage.inputTokens === "number") attributes[ATTR.usageInputTokens] = usage.inputTokens;
  if (typeof usage.outputTokens === "number") attributes[ATTR.usageOutputTokens] = usage.outputTokens;
  if (usage.finishReason) attributes[ATTR.finishReasons] = [usage.finishReason];
  const span = tracer().startSpan(
    chatSpanName(usage.model),
    { kind: SpanKind.CLIENT, attributes, startTime: new Date(end - duration) },
    parent,
  );
  span.end(new Date(end));
}
