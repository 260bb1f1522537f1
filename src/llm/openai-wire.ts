// OpenAI-compatible chat completions: OpenAI, Azure OpenAI, Ollama, vLLM, LM Studio and the
// gateways that copy them. POST {baseUrl}/chat/completions; the base URL is the one the
// Copilot runtime takes for an openai provider (it ends in `/v1` for OpenAI and the local
// servers). Servers differ in which optional parameters they accept, so a 400 that names one
// (response_format, max_tokens, temperature, stream_options) is met by leaving it out and
// resending once; the client remembers that for its later calls.
//
// Azure: the key goes in an `api-key` header. The base URL is the resource root (the model is
// then the deployment name), a `/openai/deployments/<name>` URL, or the `/openai/v1` API; the
// first two get `api-version` unless the URL already carries one.

import { countOrZero } from "../limits.js";
import type { ChatWire, WireRequest } from "./chat-wire.js";
import type { ChatRequest, ChatResponse } from "./llm-client.js";
import { LlmError } from "./llm-error.js";
import { quoteScrubbed, secretHeaderValues } from "./secret-scrub.js";
import type { SseEvent } from "./sse-events.js";

export const AZURE_API_VERSION = "2024-10-21";

/** Compatibility adjustments, by what the server rejected. */
const ADJUST = {
  noResponseFormat: "no-response-format",
  maxCompletionTokens: "max-completion-tokens",
  noTemperature: "no-temperature",
  noStreamOptions: "no-stream-options",
} as const;

export interface OpenAiWireOptions {
  type: "openai" | "azure";
  baseUrl: string;
  apiKey?: string;
  headers?: Record<string, string>;
  azureApiVersion?: string;
}

export function openAiWire(options: OpenAiWireOptions): ChatWire {
  const secrets = [options.apiKey ?? "", ...secretHeaderValues(options.headers)];
  const provider = options.type;
  return {
    provider,
    secrets,
    build(
      request: ChatRequest,
      model: string,
      stream: boolean,
      adjustments: ReadonlySet<string>,
    ): WireRequest {
      const headers: Record<string, string> = { ...options.headers };
      if (options.apiKey) {
        if (provider === "azure") headers["api-key"] = options.apiKey;
        else headers.authorization = `Bearer ${options.apiKey}`;
      }
      const messages: { role: string; content: string }[] = [];
      if (request.system) messages.push({ role: "system", content: request.system });
      for (const m of request.messages) messages.push({ role: m.role, content: m.content });
      const body: Record<string, unknown> = { model, messages, stream };
      if (typeof request.maxTokens === "number" && request.maxTokens >= 1) {
        body[adjustments.has(ADJUST.maxCompletionTokens) ? "max_completion_tokens" : "max_tokens"] =
          Math.floor(request.maxTokens);
      }
      if (typeof request.temperature === "number" && !adjustments.has(ADJUST.noTemperature)) {
        body.temperature = request.temperature;
      }
      if (request.json && !adjustments.has(ADJUST.noResponseFormat))
        body.response_format = { type: "json_object" };
      if (stream && !adjustments.has(ADJUST.noStreamOptions)) body.stream_options = { include_usage: true };
      return { url: endpoint(options, model), headers, body };
    },
    adjustmentFor(errorText: string, adjustments: ReadonlySet<string>): string | undefined {
      const text = errorText.slice(0, 4096);
      const candidates: [string, boolean][] = [
        [ADJUST.noResponseFormat, text.includes("response_format")],
        [ADJUST.maxCompletionTokens, text.includes("max_tokens") && text.includes("max_completion_tokens")],
        [ADJUST.noTemperature, text.includes("temperature")],
        [ADJUST.noStreamOptions, text.includes("stream_options")],
      ];
      return candidates.find(([name, named]) => named && !adjustments.has(name))?.[0];
    },
    readJson(json: unknown): ChatResponse {
      const reply = json as {
        model?: unknown;
        choices?: { message?: { content?: unknown }; finish_reason?: unknown }[];
        usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
      };
      const choice = Array.isArray(reply?.choices) ? reply.choices[0] : undefined;
      if (!choice || typeof choice !== "object")
        throw new LlmError(provider, "protocol", "reply has no choices");
      const response: ChatResponse = {
        text: contentText(choice.message?.content),
        model: typeof reply.model === "string" ? reply.model : "",
        usage: {
          inputTokens: countOrZero(reply.usage?.prompt_tokens),
          outputTokens: countOrZero(reply.usage?.completion_tokens),
        },
      };
      if (typeof choice.finish_reason === "string") response.finishReason = choice.finish_reason;
      return response;
    },
    async readSse(events: AsyncIterable<SseEvent>): Promise<ChatResponse> {
      let text = "";
      let model = "";
      let inputTokens = 0;
      let outputTokens = 0;
      let finishReason: string | undefined;
      let done = false;
      for await (const { data } of events) {
        if (data.trim() === "[DONE]") {
          done = true;
          break;
        }
        let chunk: {
          model?: unknown;
          choices?: { delta?: { content?: unknown }; finish_reason?: unknown }[];
          usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } | null;
          error?: { message?: unknown };
        };
        try {
          chunk = JSON.parse(data);
        } catch {
          continue; // a keep-alive or a vendor's non-JSON line
        }
        if (chunk === null || typeof chunk !== "object") continue;
        if (chunk.error) {
          throw new LlmError(
            provider,
            "protocol",
            `stream error: ${quoteScrubbed(String(chunk.error.message ?? "unknown"), secrets)}`,
          );
        }
        if (typeof chunk.model === "string" && chunk.model !== "") model = chunk.model;
        const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
        if (choice) {
          text += contentText(choice.delta?.content);
          if (typeof choice.finish_reason === "string") finishReason = choice.finish_reason;
        }
        if (chunk.usage) {
          inputTokens = countOrZero(chunk.usage.prompt_tokens);
          outputTokens = countOrZero(chunk.usage.completion_tokens);
        }
      }
      // Some local servers close the stream after the finish reason without sending [DONE].
      if (!done && finishReason === undefined) {
        throw new LlmError(provider, "protocol", "event stream ended before the reply was complete", {
          retryable: true,
        });
      }
      const response: ChatResponse = { text, model, usage: { inputTokens, outputTokens } };
      if (finishReason) response.finishReason = finishReason;
      return response;
    },
  };
}

function endpoint(options: OpenAiWireOptions, model: string): string {
  const url = new URL(options.baseUrl);
  let path = url.pathname.replace(/\/+$/, "");
  if (options.type === "azure") {
    const v1 = /\/openai\/v1$/.test(path);
    if (!v1 && !/\/openai\/deployments\/[^/]+$/.test(path)) {
      path = `${path}/openai/deployments/${encodeURIComponent(model)}`;
    }
    if (!v1 && !url.searchParams.has("api-version")) {
      url.searchParams.set("api-version", options.azureApiVersion ?? AZURE_API_VERSION);
    }
  }
  url.pathname = `${path}/chat/completions`;
  return url.toString();
}

/** A content field: a string, or an array of `{type: "text", text}` parts. */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  let text = "";
  for (const part of content as { text?: unknown }[]) {
    if (part && typeof part.text === "string") text += part.text;
  }
  return text;
}
