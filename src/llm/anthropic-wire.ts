// The Anthropic Messages API through the official `@anthropic-ai/sdk` client, loaded on the first
// call. The base URL is the one the Copilot runtime takes for an anthropic provider (no `/v1`);
// one ending in `/v1` is accepted too. A reply is a message, or (streamed, asked or not) events
// the SDK decodes, read here up to message_stop (not by the SDK's MessageStream, which drops text
// a gateway streams without content_block_start).
import { countOrZero, wholeAtLeastOne } from "../limits.js";
import { loadOptional, type OptionalPackage } from "../optional-package.js";
import { type ChatWire, KEY_IN_OWN_HEADER, readReply, streamError } from "./chat-wire.js";
import type { ChatResponse } from "./llm-client.js";
import { LlmError } from "./llm-error.js";
import { secretHeaderValues } from "./secret-scrub.js";

/** The API version whose replies this file reads (the SDK would send its own, newer one). */
export const ANTHROPIC_VERSION = "2023-06-01";
const DEFAULT_MAX_TOKENS = 1024;
/** A peer dependency (package.json): only a bot whose provider is anthropic installs it. */
const ANTHROPIC_CLIENT: OptionalPackage = {
  packages: ["@anthropic-ai/sdk"],
  neededFor: "the anthropic provider",
  layer: "llm",
};
const PROVIDER = "anthropic";

export function anthropicWire(options: {
  baseUrl: string;
  apiKey?: string;
  headers?: Record<string, string>;
}): ChatWire {
  const secrets = [options.apiKey ?? "", ...secretHeaderValues(options.headers)];
  return {
    provider: PROVIDER,
    secrets,
    async send(request, model, { sdk, signal, stream }) {
      const [{ Anthropic, APIError }, { Stream }] = await loadOptional(ANTHROPIC_CLIENT, () =>
        Promise.all([import("@anthropic-ai/sdk"), import("@anthropic-ai/sdk/streaming")]),
      );
      const client = new Anthropic({
        ...sdk,
        baseURL: options.baseUrl.replace(/\/+$/, "").replace(/\/v1$/, ""),
        apiKey: KEY_IN_OWN_HEADER,
        openTelemetry: false, // the `chat <model>` span is ours (src/llm/chat-span.ts)
        defaultHeaders: {
          "anthropic-version": ANTHROPIC_VERSION,
          Authorization: null,
          ...options.headers,
          ...(options.apiKey ? { "x-api-key": options.apiKey } : {}),
        },
      });
      const body = {
        model,
        max_tokens: wholeAtLeastOne(request.maxTokens) ?? DEFAULT_MAX_TOKENS,
        ...(request.system ? { system: request.system } : {}),
        ...(typeof request.temperature === "number" ? { temperature: request.temperature } : {}),
        messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
        stream, // always explicit: some gateways stream when the field is absent
      };
      const response = await client.messages.create(body, { signal }).asResponse();
      try {
        return await readReply(response, fromMessage, () =>
          fromEvents(Stream.fromSSEResponse(response, new AbortController(), client)),
        );
      } catch (error) {
        if (!(error instanceof APIError)) throw error;
        // An error event: Anthropic reports overload mid-stream this way, not by a status.
        const { type, message } =
          (error.error as { error?: { type?: unknown; message?: unknown } })?.error ?? {};
        throw streamError(PROVIDER, secrets, message, type === "overloaded_error" || type === "api_error");
      }
    },
  };
}

function fromMessage(json: unknown): ChatResponse {
  const message = json as {
    model?: unknown;
    content?: unknown;
    stop_reason?: unknown;
    usage?: unknown;
  } | null;
  if (!message || !Array.isArray(message?.content))
    throw new LlmError(PROVIDER, "protocol", "reply has no content array");
  const usage = message.usage as { input_tokens?: unknown; output_tokens?: unknown } | undefined;
  const response: ChatResponse = {
    text: message.content
      .map((b) => (b?.type === "text" && typeof b.text === "string" ? b.text : ""))
      .join(""),
    model: typeof message.model === "string" ? message.model : "",
    usage: { inputTokens: countOrZero(usage?.input_tokens), outputTokens: countOrZero(usage?.output_tokens) },
  };
  if (typeof message.stop_reason === "string") response.finishReason = message.stop_reason;
  return response;
}

async function fromEvents(events: AsyncIterable<unknown>): Promise<ChatResponse> {
  const response: ChatResponse = { text: "", model: "", usage: { inputTokens: 0, outputTokens: 0 } };
  type Fields = Record<string, unknown> | undefined;
  for await (const event of events as AsyncIterable<{
    type?: unknown;
    message?: Fields;
    delta?: Fields;
    usage?: Fields;
  }>) {
    const { type, delta, usage } = event ?? {};
    if (type === "message_start") {
      const message = (event.message ?? {}) as { model?: unknown; usage?: Fields };
      if (typeof message.model === "string") response.model = message.model;
      response.usage = {
        inputTokens: countOrZero(message.usage?.input_tokens),
        outputTokens: countOrZero(message.usage?.output_tokens),
      };
    } else if (
      type === "content_block_delta" &&
      delta?.type === "text_delta" &&
      typeof delta.text === "string"
    ) {
      response.text += delta.text;
    } else if (type === "message_delta") {
      if (typeof delta?.stop_reason === "string") response.finishReason = delta.stop_reason;
      // message_delta's counts are cumulative.
      if (usage?.output_tokens !== undefined) response.usage.outputTokens = countOrZero(usage.output_tokens);
      if (usage?.input_tokens !== undefined) response.usage.inputTokens = countOrZero(usage.input_tokens);
    } else if (type === "message_stop") {
      return response;
    }
  }
  throw new LlmError(PROVIDER, "protocol", "event stream ended before message_stop", { retryable: true });
}
