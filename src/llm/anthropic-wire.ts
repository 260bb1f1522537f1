// The Anthropic Messages API: POST {baseUrl}/v1/messages with `x-api-key` and
// `anthropic-version`. The base URL is the one the Copilot runtime takes for an anthropic
// provider (no `/v1`); a base URL that already ends in `/v1` is accepted too. Replies are a
// message object, or (when streamed) message_start / content_block_delta / message_delta /
// message_stop events.

import { countOrZero, wholeAtLeastOne } from "../limits.js";
import type { ChatWire, WireRequest } from "./chat-wire.js";
import type { ChatRequest, ChatResponse } from "./llm-client.js";
import { LlmError } from "./llm-error.js";
import { quoteScrubbed, secretHeaderValues } from "./secret-scrub.js";
import type { SseEvent } from "./sse-events.js";

export const ANTHROPIC_VERSION = "2023-06-01";
const DEFAULT_MAX_TOKENS = 1024;
const PROVIDER = "anthropic";

export interface AnthropicWireOptions {
  baseUrl: string;
  apiKey?: string;
  /** Extra headers on every request (a gateway's own auth, for example). */
  headers?: Record<string, string>;
}

export function anthropicWire(options: AnthropicWireOptions): ChatWire {
  const secrets = [options.apiKey ?? "", ...secretHeaderValues(options.headers)];
  const base = options.baseUrl.replace(/\/+$/, "");
  const url = /\/v1$/.test(base) ? `${base}/messages` : `${base}/v1/messages`;
  return {
    provider: PROVIDER,
    secrets,
    build(request: ChatRequest, model: string, stream: boolean): WireRequest {
      const headers: Record<string, string> = { "anthropic-version": ANTHROPIC_VERSION, ...options.headers };
      if (options.apiKey) headers["x-api-key"] = options.apiKey;
      const body: Record<string, unknown> = {
        model,
        max_tokens: wholeAtLeastOne(request.maxTokens) ?? DEFAULT_MAX_TOKENS,
        messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
      };
      if (request.system) body.system = request.system;
      if (typeof request.temperature === "number") body.temperature = request.temperature;
      // Always explicit: some gateways default to streaming when the field is absent.
      body.stream = stream;
      return { url, headers, body };
    },
    readJson(json: unknown): ChatResponse {
      const message = json as {
        model?: unknown;
        content?: unknown;
        stop_reason?: unknown;
        usage?: { input_tokens?: unknown; output_tokens?: unknown };
        type?: unknown;
        error?: { message?: unknown };
      };
      if (message === null || typeof message !== "object" || !Array.isArray(message.content)) {
        throw new LlmError(PROVIDER, "protocol", "reply has no content array");
      }
      let text = "";
      for (const block of message.content as { type?: unknown; text?: unknown }[]) {
        if (block && block.type === "text" && typeof block.text === "string") text += block.text;
      }
      const response: ChatResponse = {
        text,
        model: typeof message.model === "string" ? message.model : "",
        usage: {
          inputTokens: countOrZero(message.usage?.input_tokens),
          outputTokens: countOrZero(message.usage?.output_tokens),
        },
      };
      if (typeof message.stop_reason === "string") response.finishReason = message.stop_reason;
      return response;
    },
    async readSse(events: AsyncIterable<SseEvent>): Promise<ChatResponse> {
      let text = "";
      let model = "";
      let inputTokens = 0;
      let outputTokens = 0;
      let finishReason: string | undefined;
      let stopped = false;
      for await (const { event, data } of events) {
        if (event === "ping") continue;
        const payload = parseEventData(data);
        const type = typeof payload.type === "string" ? payload.type : event;
        if (type === "error" || event === "error") {
          const error = (payload.error ?? {}) as { type?: unknown; message?: unknown };
          throw new LlmError(
            PROVIDER,
            "protocol",
            `stream error: ${quoteScrubbed(String(error.message ?? "unknown"), secrets)}`,
            {
              // Anthropic reports overload mid-stream as an event, not a status.
              retryable: error.type === "overloaded_error" || error.type === "api_error",
            },
          );
        }
        if (type === "message_start") {
          const message = (payload.message ?? {}) as { model?: unknown; usage?: Record<string, unknown> };
          if (typeof message.model === "string") model = message.model;
          inputTokens = countOrZero(message.usage?.input_tokens);
          outputTokens = countOrZero(message.usage?.output_tokens);
        } else if (type === "content_block_delta") {
          const delta = (payload.delta ?? {}) as { type?: unknown; text?: unknown };
          if (delta.type === "text_delta" && typeof delta.text === "string") text += delta.text;
        } else if (type === "message_delta") {
          const delta = (payload.delta ?? {}) as { stop_reason?: unknown };
          if (typeof delta.stop_reason === "string") finishReason = delta.stop_reason;
          const usage = (payload.usage ?? {}) as { output_tokens?: unknown; input_tokens?: unknown };
          // message_delta's counts are cumulative.
          if (usage.output_tokens !== undefined) outputTokens = countOrZero(usage.output_tokens);
          if (usage.input_tokens !== undefined) inputTokens = countOrZero(usage.input_tokens);
        } else if (type === "message_stop") {
          stopped = true;
          break;
        }
      }
      if (!stopped)
        throw new LlmError(PROVIDER, "protocol", "event stream ended before message_stop", {
          retryable: true,
        });
      const response: ChatResponse = { text, model, usage: { inputTokens, outputTokens } };
      if (finishReason) response.finishReason = finishReason;
      return response;
    },
  };
}

function parseEventData(data: string): Record<string, unknown> {
  try {
    const value = JSON.parse(data) as unknown;
    return value !== null && typeof value === "object" ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
