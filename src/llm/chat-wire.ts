// What differs between the HTTP providers: how a request is written and how a reply (JSON or
// an event stream) is read. Everything else (time bounds, retries, spans, usage, error text)
// is the HTTP client's, written once.
import type { ChatRequest, ChatResponse } from "./llm-client.js";
import type { SseEvent } from "./sse-events.js";

export interface WireRequest {
  url: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

export interface ChatWire {
  /** For error messages, logs and spans: `anthropic`, `openai`, `azure`. */
  readonly provider: string;
  /** Values that must never appear in an error message or a log (the key, secret headers). */
  readonly secrets: readonly string[];
  /**
   * The request for one call. `adjustments` are the compatibility changes this client has
   * learnt the server needs (see `adjustmentFor`).
   */
  build(request: ChatRequest, model: string, stream: boolean, adjustments: ReadonlySet<string>): WireRequest;
  /** A non-streamed reply. Throws LlmError ("protocol") when it is not one. */
  readJson(json: unknown): ChatResponse;
  /** A streamed reply, read to its end. */
  readSse(events: AsyncIterable<SseEvent>): Promise<ChatResponse>;
  /**
   * A 400 whose text names an optional parameter this server does not accept: the name of the
   * adjustment that leaves it out (a new one, not in `adjustments`), else undefined.
   */
  adjustmentFor?(errorText: string, adjustments: ReadonlySet<string>): string | undefined;
}
