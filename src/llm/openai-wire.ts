// OpenAI-compatible chat completions through the official `openai` client, loaded on the first
// call: OpenAI, Azure OpenAI, Ollama, vLLM, LM Studio and the gateways that copy them. POST
// {baseUrl}/chat/completions; the base URL is the one the Copilot runtime takes for an openai
// provider (it ends in `/v1` for OpenAI and the local servers). Servers differ in which optional
// parameters they accept, so a 400 that names one (response_format, max_tokens, temperature,
// stream_options) is met by leaving it out and resending once; the client remembers that for its
// later calls. A streamed reply (asked or not) is decoded and put together by the SDK.
//
// Azure: the key goes in an `api-key` header. The base URL is the resource root (the model is
// then the deployment name), a `/openai/deployments/<name>` URL, or the `/openai/v1` API; the
// first two get `api-version` unless the URL already carries one. The SDK's AzureOpenAI is not
// used: it requires an api-version (the v1 API takes none) and reads AZURE_OPENAI_* from the
// process environment; the plain client with these headers and query sends the same requests.
import type { ChatCompletionCreateParams } from "openai/resources/chat/completions";
import { countOrZero } from "../limits.js";
import { loadOptional, type OptionalPackage } from "../optional-package.js";
import { type ChatWire, KEY_IN_OWN_HEADER, readReply, streamError } from "./chat-wire.js";
import type { ChatRequest, ChatResponse } from "./llm-client.js";
import { LlmError } from "./llm-error.js";
import { secretHeaderValues } from "./secret-scrub.js";

export const AZURE_API_VERSION = "2024-10-21";

/**
 * The optional parameters a server may reject, each the name of its adjustment: left out when a
 * 400 names it, except max_tokens, sent as max_completion_tokens when the 400 names that instead.
 */
const OPTIONAL_PARAMETERS = ["response_format", "max_tokens", "temperature", "stream_options"] as const;

export interface OpenAiWireOptions {
  type: "openai" | "azure";
  baseUrl: string;
  apiKey?: string;
  headers?: Record<string, string>;
  azureApiVersion?: string;
}

/** A peer dependency (package.json): only a bot whose provider is openai or azure installs it. */
const OPENAI_CLIENT: OptionalPackage = {
  packages: ["openai"],
  neededFor: "the openai and azure providers",
  layer: "llm",
};

export function openAiWire(options: OpenAiWireOptions): ChatWire {
  const secrets = [options.apiKey ?? "", ...secretHeaderValues(options.headers)];
  const provider = options.type;
  // OpenAI takes the key as a Bearer token (the SDK's way); Azure in `api-key`; a local server none.
  const bearer = provider === "openai" ? options.apiKey : undefined;
  const defaultHeaders = {
    ...(bearer ? {} : { Authorization: null }),
    ...options.headers,
    ...(provider === "azure" && options.apiKey ? { "api-key": options.apiKey } : {}),
  };
  return {
    provider,
    secrets,
    async send(request, model, { sdk, signal, stream, adjustments }) {
      const [{ OpenAI, APIError, OpenAIError }, { Stream }, { ChatCompletionStream }] = await loadOptional(
        OPENAI_CLIENT,
        () =>
          Promise.all([
            import("openai"),
            import("openai/streaming"),
            import("openai/lib/ChatCompletionStream"),
          ]),
      );
      // organization and project given, so that OPENAI_ORG_ID / OPENAI_PROJECT_ID are not sent.
      const client = new OpenAI({
        ...sdk,
        ...endpoint(options, model),
        ...{ apiKey: bearer ?? KEY_IN_OWN_HEADER, organization: null, project: null, defaultHeaders },
      });
      const body = requestBody(request, model, stream, adjustments);
      const response = await client.chat.completions.create(body, { signal }).asResponse();
      const chunks = () => Stream.fromSSEResponse(response, new AbortController(), client).toReadableStream();
      const whole = async () => ChatCompletionStream.fromReadableStream(chunks()).finalChatCompletion();
      try {
        return fromCompletion(provider, await readReply(response, (json) => json, whole));
      } catch (error) {
        if (error instanceof APIError)
          throw streamError(provider, secrets, (error.error as { message?: unknown })?.message);
        if (!(error instanceof OpenAIError)) throw error;
        // The SDK found the stream incomplete (no finish reason): not a whole reply.
        const why = `event stream ended before the reply was complete (${error.message})`;
        throw new LlmError(provider, "protocol", why, { retryable: true });
      }
    },
    adjustmentFor(errorText: string, adjustments: ReadonlySet<string>): string | undefined {
      const text = errorText.slice(0, 4096);
      const named = (name: string) => text.includes(name) && !adjustments.has(name);
      return OPTIONAL_PARAMETERS.find(
        (name) => named(name) && (name !== "max_tokens" || named("max_completion_tokens")),
      );
    },
  };
}

function requestBody(
  request: ChatRequest,
  model: string,
  stream: boolean,
  adjustments: ReadonlySet<string>,
): ChatCompletionCreateParams {
  const messages: { role: "system" | "user" | "assistant"; content: string }[] = [];
  if (request.system) messages.push({ role: "system", content: request.system });
  for (const m of request.messages) messages.push({ role: m.role, content: m.content });
  const body: Record<string, unknown> = { model, messages, stream };
  if (typeof request.maxTokens === "number" && request.maxTokens >= 1) {
    body[adjustments.has("max_tokens") ? "max_completion_tokens" : "max_tokens"] = Math.floor(
      request.maxTokens,
    );
  }
  if (typeof request.temperature === "number" && !adjustments.has("temperature")) {
    body.temperature = request.temperature;
  }
  if (request.json && !adjustments.has("response_format")) body.response_format = { type: "json_object" };
  if (stream && !adjustments.has("stream_options")) body.stream_options = { include_usage: true };
  return body as unknown as ChatCompletionCreateParams;
}

/** The SDK's base URL (`/chat/completions` is appended to it) and the query every request carries. */
function endpoint(
  options: OpenAiWireOptions,
  model: string,
): { baseURL: string; defaultQuery: Record<string, string> } {
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
  const defaultQuery = Object.fromEntries(url.searchParams);
  url.search = "";
  url.pathname = path;
  return { baseURL: url.toString(), defaultQuery };
}

function fromCompletion(provider: string, json: unknown): ChatResponse {
  const reply = json as {
    model?: unknown;
    choices?: { message?: { content?: unknown }; finish_reason?: unknown }[];
    usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
  };
  const choice = Array.isArray(reply?.choices) ? reply.choices[0] : undefined;
  if (!choice || typeof choice !== "object") throw new LlmError(provider, "protocol", "reply has no choices");
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
}

/** A content field: a string, or an array of `{type: "text", text}` parts. */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  const parts = Array.isArray(content) ? (content as { text?: unknown }[]) : [];
  return parts.map((part) => (typeof part?.text === "string" ? part.text : "")).join("");
}
