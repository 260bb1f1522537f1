// An LlmClient over HTTP (undici), for any ChatWire: one `chat <model>` span per call, a time
// bound over the whole call (retries and backoff included), the caller's AbortSignal, retries
// on 429/5xx honouring Retry-After, a bounded read of the reply (JSON or SSE, whichever the
// server sent), and a running usage total. Error messages name the provider, the status and
// the host and path called, and quote at most a scrubbed, clipped part of the provider's reply.

import type { Dispatcher } from "undici";
import { DEADLINES } from "../deadline.js";
import { SecondLookError } from "../errors.js";
import { positiveOrUndefined } from "../limits.js";
import { type Logger, logger as processLogger } from "../telemetry/logger.js";
import { withCallDeadline } from "./call-deadline.js";
import { withChatSpan } from "./chat-span.js";
import type { ChatWire } from "./chat-wire.js";
import type { ChatRequest, ChatResponse, LlmClient, UsageTotals } from "./llm-client.js";
import { isRetryableStatus, LlmError } from "./llm-error.js";
import { retryAfterMs } from "./retry-after.js";
import { type RetryPolicy, runWithRetries } from "./retry-policy.js";
import { MAX_QUOTED_CHARS, quoteScrubbed, scrubSecrets } from "./secret-scrub.js";
import { readSseEvents, SseLimitError } from "./sse-events.js";
import { UsageMeter } from "./usage-meter.js";

export const DEFAULT_CHAT_TIMEOUT_MS = DEADLINES.chatCallMs;
/** A chat reply larger than this is not one we asked for. */
const MAX_REPLY_BYTES = 4 * 1024 * 1024;
/** Of an error reply, this much is read (the rest is discarded unread). */
const MAX_ERROR_BYTES = 4 * 1024;
/** Of the provider's error message, this much is quoted in ours. */
/** Compatibility adjustments per call (each one a distinct parameter left out). */
const MAX_ADJUSTMENTS = 3;

export interface HttpChatClientOptions {
  wire: ChatWire;
  /** The default model (a request's `model` overrides it). */
  model: string;
  /** Bound on one call, all attempts included (default 30 s; a request's `timeoutMs` wins). */
  timeoutMs?: number;
  retry?: RetryPolicy;
  /** Ask for an event stream (default false: one JSON reply). Either kind of reply is read. */
  stream?: boolean;
  log?: Logger;
  /** undici dispatcher (proxies, connection pools); the global one when absent. */
  dispatcher?: Dispatcher;
  /** Jitter source, for tests. */
  random?: () => number;
}

export function createHttpChatClient(options: HttpChatClientOptions): LlmClient {
  const { wire } = options;
  const meter = new UsageMeter();
  const adjustments = new Set<string>();
  const log = (options.log ?? processLogger()).child({ llm: wire.provider });
  const scrub = (text: string) => scrubSecrets(text, wire.secrets);

  const attempt = async (request: ChatRequest, model: string, signal: AbortSignal): Promise<ChatResponse> => {
    for (let adjusted = 0; ; adjusted++) {
      const built = wire.build(request, model, options.stream === true, adjustments);
      const where = endpointOf(built.url);
      let response: Dispatcher.ResponseData;
      try {
        // Loaded on the first call, not when the library is imported.
        const { request: undiciRequest } = await import("undici");
        response = await undiciRequest(built.url, {
          method: "POST",
          headers: { "content-type": "application/json", ...built.headers },
          body: JSON.stringify(built.body),
          signal,
          ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
        });
      } catch (error) {
        signal.throwIfAborted();
        throw new LlmError(
          wire.provider,
          "network",
          `request to ${where} failed: ${scrub(describe(error))}`,
          {
            retryable: true,
          },
        );
      }
      const { statusCode, headers, body } = response;
      try {
        if (statusCode < 200 || statusCode >= 300) {
          const { text, truncated } = await readErrorText(body, MAX_ERROR_BYTES);
          // The read stops at MAX_ERROR_BYTES, maybe inside a key: scrubbed knowing it was cut.
          const quoted = quoteScrubbed(errorMessageOf(text), wire.secrets, MAX_QUOTED_CHARS, { truncated });
          if (statusCode === 400 && adjusted < MAX_ADJUSTMENTS) {
            const next = wire.adjustmentFor?.(text, adjustments);
            if (next !== undefined && !adjustments.has(next)) {
              adjustments.add(next);
              log.info(
                { adjustment: next },
                "llm: server rejected an optional parameter; resending without it",
              );
              continue;
            }
          }
          const wait = retryAfterMs(headers);
          throw new LlmError(
            wire.provider,
            "http",
            `HTTP ${statusCode} from ${where}${quoted ? `: ${quoted}` : ""}`,
            {
              status: statusCode,
              retryable: isRetryableStatus(statusCode),
              ...(wait !== undefined ? { retryAfterMs: wait } : {}),
            },
          );
        }
        const contentType = String(headers["content-type"] ?? "");
        if (contentType.includes("text/event-stream")) {
          return await wire.readSse(readSseEvents(body, { maxBytes: MAX_REPLY_BYTES }));
        }
        const text = await readText(body, MAX_REPLY_BYTES, true);
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          throw new LlmError(wire.provider, "protocol", `reply from ${where} is not JSON`);
        }
        return wire.readJson(json);
      } catch (error) {
        signal.throwIfAborted();
        if (error instanceof LlmError) {
          // A stream's error event quotes the provider, who may echo what it was sent.
          error.message = scrub(error.message);
          throw error;
        }
        if (error instanceof SseLimitError || error instanceof ReplyTooLargeError) {
          throw new LlmError(wire.provider, "protocol", `reply from ${where}: ${error.message}`);
        }
        // The connection broke while the reply was read.
        throw new LlmError(
          wire.provider,
          "network",
          `reading the reply from ${where} failed: ${scrub(describe(error))}`,
          {
            retryable: true,
          },
        );
      } finally {
        body.destroy();
      }
    }
  };

  return {
    model: options.model,
    provider: wire.provider,
    usage: (): UsageTotals => meter.snapshot(),
    chat(request: ChatRequest): Promise<ChatResponse> {
      const model = typeof request.model === "string" && request.model !== "" ? request.model : options.model;
      meter.call();
      return withChatSpan(model, wire.provider, async () => {
        const timeoutMs =
          positiveOrUndefined(request.timeoutMs) ??
          positiveOrUndefined(options.timeoutMs) ??
          DEFAULT_CHAT_TIMEOUT_MS;
        try {
          const response = await withCallDeadline(wire.provider, timeoutMs, request.signal, (signal) =>
            runWithRetries(() => attempt(request, model, signal), {
              ...(options.retry ? { policy: options.retry } : {}),
              deadline: Date.now() + timeoutMs,
              signal,
              ...(options.random ? { random: options.random } : {}),
              onRetry: ({ attempt: n, delayMs, error }) => {
                meter.retried();
                log.debug({ attempt: n, delayMs, status: error.status, err: error.message }, "llm: retrying");
              },
            }),
          );
          meter.add(response.usage);
          return response;
        } catch (error) {
          meter.failed();
          if (error instanceof LlmError) throw error;
          throw new LlmError(wire.provider, "protocol", scrub(describe(error)));
        }
      });
    },
  };
}

class ReplyTooLargeError extends SecondLookError {
  constructor(message: string) {
    super("llm", "reply-too-large", message);
  }
}

/** The body as text, up to `maxBytes`: past it, an error (`strict`) or the text so far. */
async function readText(body: AsyncIterable<Uint8Array>, maxBytes: number, strict: boolean): Promise<string> {
  return (await readBounded(body, maxBytes, strict)).text;
}

/** An error body's first `maxBytes`, and whether there was more. */
function readErrorText(body: AsyncIterable<Uint8Array>, maxBytes: number) {
  return readBounded(body, maxBytes, false);
}

async function readBounded(
  body: AsyncIterable<Uint8Array>,
  maxBytes: number,
  strict: boolean,
): Promise<{ text: string; truncated: boolean }> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > maxBytes) {
      if (strict) throw new ReplyTooLargeError(`reply larger than ${maxBytes} bytes`);
      chunks.push(chunk.subarray(0, chunk.byteLength - (size - maxBytes)));
      truncated = true;
      break;
    }
    chunks.push(chunk);
  }
  return { text: Buffer.concat(chunks).toString("utf8"), truncated };
}

/** The provider's own words from an error body (`error.message`, `message`), else the text. */
function errorMessageOf(text: string): string {
  let message = text;
  try {
    const json = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const inner = typeof json.error === "object" && json.error !== null ? json.error.message : json.error;
    if (typeof inner === "string") message = inner;
    else if (typeof json.message === "string") message = json.message;
  } catch {
    // not JSON: quote the text itself
  }
  return message;
}

/** Host and path only: a query string may carry a key (some gateways take `?key=`). */
function endpointOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.host}${u.pathname}`;
  } catch {
    return "(invalid URL)";
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === "string" ? `${code}: ${error.message}` : error.message;
  }
  return String(error);
}
