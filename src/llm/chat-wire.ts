// What differs between the HTTP providers: how one request is sent with the provider's official
// SDK and its reply read. Time bounds, retry bounds, spans, usage and error text are
// src/llm/sdk-chat-client.ts's, written once.
import type { ChatRequest, ChatResponse } from "./llm-client.js";
import { LlmError } from "./llm-error.js";
import { MAX_QUOTED_CHARS, quoteScrubbed } from "./secret-scrub.js";

/**
 * The SDKs want a credential and send it as `Authorization: Bearer`. Where a provider takes its
 * key in a header of its own (`x-api-key`, Azure's `api-key`) or takes none (a local server), the
 * SDK's credential is this placeholder and its Authorization header is left out (`null`).
 */
export const KEY_IN_OWN_HEADER = "key-sent-in-its-own-header";

/** SDK client options that make the SDK's HTTP attempts ours (src/llm/sdk-chat-client.ts). */
export interface SdkOptions {
  fetch: (url: string | URL | Request, init?: RequestInit) => Promise<Response>;
  maxRetries: number;
  timeout: number;
  logLevel: "off";
}

export interface ChatWire {
  /** For error messages, logs and spans: `anthropic`, `openai`, `azure`. */
  readonly provider: string;
  /** Values that must never appear in an error message or a log (the key, secret headers). */
  readonly secrets: readonly string[];
  /** One request, its retries included, read to its end (a JSON reply or an event stream). */
  send(request: ChatRequest, model: string, call: WireCall): Promise<ChatResponse>;
  /**
   * A 400 whose text names an optional parameter this server does not accept: the name of the
   * adjustment that leaves it out (a new one, not in `adjustments`), else undefined.
   */
  adjustmentFor?(errorText: string, adjustments: ReadonlySet<string>): string | undefined;
}

export interface WireCall {
  sdk: SdkOptions;
  signal: AbortSignal;
  /** Ask for an event stream; the server may stream unasked, and either reply is read. */
  stream: boolean;
  /** The compatibility changes this client has learnt the server needs (see `adjustmentFor`). */
  adjustments: ReadonlySet<string>;
}

/** The reply as the server sent it, whatever was asked: an event stream, else one JSON value. */
export async function readReply<T>(
  response: Response,
  fromJson: (json: unknown) => T,
  fromEvents: () => Promise<T>,
): Promise<T> {
  const streamed = response.headers.get("content-type")?.includes("text/event-stream");
  return streamed ? fromEvents() : fromJson(await response.json());
}

/** An error event inside a reply stream, the provider's words scrubbed and clipped. */
export function streamError(
  provider: string,
  secrets: readonly string[],
  message: unknown,
  retryable = false,
) {
  const words = quoteScrubbed(String(message ?? "unknown"), secrets, MAX_QUOTED_CHARS);
  return new LlmError(provider, "protocol", `stream error: ${words}`, { retryable });
}
