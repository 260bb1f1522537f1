// An LlmClient over a provider's official SDK, for any ChatWire: the SDK builds each request and
// reads its reply; around it, our RetryPolicy (408/409/429/5xx, broken connections and replies
// that break off are tried again, after our backoff or the provider's Retry-After when longer,
// within the call's time), a bounded read of the reply, and the resend without an optional
// parameter a server rejects. Error messages name the provider, the status and the host and
// path called, and quote at most a scrubbed, clipped part of the reply.
//
// The SDK makes one attempt per send (maxRetries 0) through `fetch` below, which keeps what the
// error needs; the attempts are counted and waited for here, so one loop holds every bound.

import { setTimeout as sleep } from "node:timers/promises";
import type { Dispatcher } from "undici";
import { DEADLINES } from "../deadline.js";
import { positiveOrUndefined } from "../limits.js";
import { type Logger, logger as processLogger } from "../telemetry/logger.js";
import { type ChatCall, framedChatClient } from "./chat-client-frame.js";
import type { ChatWire, SdkOptions } from "./chat-wire.js";
import type { ChatRequest, LlmClient } from "./llm-client.js";
import { isRetryableStatus, LlmError } from "./llm-error.js";
import { proxyDispatcher } from "./proxy-dispatcher.js";
import { MAX_QUOTED_CHARS, quoteScrubbed, scrubSecrets } from "./secret-scrub.js";

/** A chat reply larger than this is not one we asked for. */
const MAX_REPLY_BYTES = 4 * 1024 * 1024;
/** Of an error reply, this much is quoted from (and scrubbed knowing it was cut). */
const MAX_ERROR_CHARS = 4 * 1024;
/** Compatibility adjustments per call (each one a distinct parameter left out). */
const MAX_ADJUSTMENTS = 3;

export interface RetryPolicy {
  /** Attempts in all, the first included (default 3, at most 10). */
  maxAttempts?: number;
  /** The first backoff (default 500 ms); doubled per retry, half of it random. */
  baseDelayMs?: number;
  /** Cap on one backoff (default 8 s). */
  maxDelayMs?: number;
  /** A Retry-After longer than this is not waited for: the call fails now (default 30 s). */
  maxRetryAfterMs?: number;
}

export interface SdkClientOptions {
  /** Bound on one call, all attempts included (default 30 s; a request's `timeoutMs` wins). */
  timeoutMs?: number;
  retry?: RetryPolicy;
  /** Ask for an event stream (default false: one JSON reply). Either kind of reply is read. */
  stream?: boolean;
  log?: Logger;
  /** undici dispatcher; by default a proxy agent when the env sets HTTP(S)_PROXY, else the global one. */
  dispatcher?: Dispatcher;
}

type Fetch = SdkOptions["fetch"];
/** The last HTTP attempt: where it went, and the connection's error or a failed reply's status and text. */
type Attempt = {
  where: string;
  failed?: string;
  status?: number;
  text?: string;
  retryable?: boolean;
  retryAfterMs?: number;
};

/** A client sending `model` (a request's `model` overrides it) through `wire`. */
export function createSdkChatClient(
  wire: ChatWire,
  defaultModel: string,
  env: NodeJS.ProcessEnv,
  options: SdkClientOptions,
): LlmClient {
  const adjustments = new Set<string>();
  const log = (options.log ?? processLogger()).child({ llm: wire.provider });
  const scrub = (text: string) => scrubSecrets(text, wire.secrets);
  const policy = { maxAttempts: 3, baseDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 30_000 };
  for (const [key, value] of Object.entries(options.retry ?? {}) as [keyof RetryPolicy, unknown][]) {
    if (typeof value === "number" && Number.isFinite(value) && value >= 0) policy[key] = value;
  }
  const maxAttempts = Math.max(1, Math.min(10, Math.floor(policy.maxAttempts)));
  const backoff = (retry: number) => {
    const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
    return Math.round(exponential / 2 + (Math.random() * exponential) / 2);
  };
  let transport: Promise<Fetch> | undefined;

  const send = async (request: ChatRequest, model: string, { timeoutMs, signal, retried }: ChatCall) => {
    const deadline = Date.now() + timeoutMs;
    transport ??= undiciFetch(options.dispatcher, env);
    const base = await transport;
    let last: Attempt | undefined;
    const fetch: Fetch = async (url, init) => {
      const where = endpointOf(url instanceof Request ? url.url : String(url));
      last = { where };
      const response = await base(url, init).catch((error: unknown) => {
        last = { where, failed: scrub(describe(error)) };
        throw error;
      });
      const body = response.body && capped(response.body, wire.provider, where);
      if (response.ok) return body ? new Response(body, response) : response;
      const text = body ? await new Response(body).text() : "";
      const { status, headers } = response;
      // A provider's `x-should-retry` overrides what the status says (as the SDKs read it).
      const told = headers.get("x-should-retry");
      const retryable = told === "true" || (told !== "false" && isRetryableStatus(status));
      last = { where, status, text, retryable, retryAfterMs: retryAfterMs(headers) };
      return new Response(text, response);
    };
    const sdk: SdkOptions = { fetch, maxRetries: 0, timeout: Math.ceil(timeoutMs), logLevel: "off" };
    for (let attempt = 1, adjusted = 0; ; attempt++) {
      try {
        return await wire.send(request, model, { sdk, signal, stream: options.stream === true, adjustments });
      } catch (error) {
        signal.throwIfAborted();
        const rejected = last?.status === 400 && adjusted < MAX_ADJUSTMENTS ? last.text : undefined;
        const next = rejected === undefined ? undefined : wire.adjustmentFor?.(rejected, adjustments);
        if (next !== undefined && !adjustments.has(next)) {
          adjustments.add(next);
          adjusted++;
          attempt = 0; // a resend without the parameter is a new request, not a retry
          log.info({ adjustment: next }, "llm: server rejected an optional parameter; resending without it");
          continue;
        }
        const ended = failureOf(wire, error, last);
        if (!(ended instanceof LlmError && ended.retryable) || attempt >= maxAttempts) throw ended;
        const asked = ended.retryAfterMs ?? 0;
        const wait = Math.max(1, asked, backoff(attempt));
        if (asked > policy.maxRetryAfterMs || Date.now() + wait >= deadline) throw ended;
        retried();
        log.debug({ attempt: attempt + 1, after: ended.message }, "llm: retrying");
        await sleep(wait, undefined, { signal });
      }
    }
  };

  return framedChatClient({
    provider: wire.provider,
    model: defaultModel,
    timeoutMs: positiveOrUndefined(options.timeoutMs) ?? DEADLINES.chatCallMs,
    send,
    failure: (error) =>
      error instanceof LlmError ? error : new LlmError(wire.provider, "protocol", scrub(describe(error))),
  });
}

/** What ended a call, told from what its last attempt met. */
function failureOf(wire: ChatWire, error: unknown, last: Attempt | undefined): unknown {
  if (error instanceof LlmError || !last) return error;
  const { where, failed, status, text, retryable, retryAfterMs } = last;
  const network = (what: string) => new LlmError(wire.provider, "network", what, { retryable: true });
  if (failed !== undefined) return network(`request to ${where} failed: ${failed}`);
  if (status !== undefined && text !== undefined) {
    // Quoted from the body's start, scrubbed knowing it may end inside a key.
    const start = errorMessageOf(text.slice(0, MAX_ERROR_CHARS));
    const truncated = text.length > MAX_ERROR_CHARS;
    const quoted = quoteScrubbed(start, wire.secrets, MAX_QUOTED_CHARS, { truncated });
    const message = `HTTP ${status} from ${where}${quoted ? `: ${quoted}` : ""}`;
    return new LlmError(wire.provider, "http", message, {
      status,
      retryable,
      ...(retryAfterMs ? { retryAfterMs } : {}),
    });
  }
  const notJson = `reply from ${where} is not JSON`;
  if (error instanceof SyntaxError) return new LlmError(wire.provider, "protocol", notJson);
  // The connection broke while the reply was read.
  return network(`reading the reply from ${where} failed: ${scrubSecrets(describe(error), wire.secrets)}`);
}

/** undici's fetch (loaded on first use), through the given dispatcher or the proxy `env` names. */
async function undiciFetch(given: Dispatcher | undefined, env: NodeJS.ProcessEnv): Promise<Fetch> {
  const [{ fetch }, dispatcher] = await Promise.all([import("undici"), given ?? proxyDispatcher(env)]);
  type Init = NonNullable<Parameters<typeof fetch>[1]>;
  return (url, init) =>
    fetch(url as string, { ...(init as Init), ...(dispatcher ? { dispatcher } : {}) }) as never;
}

/** `body`, failing its read with a protocol error past MAX_REPLY_BYTES. */
function capped(
  body: ReadableStream<Uint8Array>,
  provider: string,
  where: string,
): ReadableStream<Uint8Array> {
  let bytes = 0;
  const transform = (chunk: Uint8Array, out: TransformStreamDefaultController<Uint8Array>) => {
    bytes += chunk.byteLength;
    if (bytes <= MAX_REPLY_BYTES) out.enqueue(chunk);
    else
      out.error(
        new LlmError(provider, "protocol", `reply from ${where}: larger than ${MAX_REPLY_BYTES} bytes`),
      );
  };
  return body.pipeThrough(new TransformStream({ transform }));
}

/** How long the provider asked to wait: `retry-after-ms`, else Retry-After in seconds or as an HTTP date. */
function retryAfterMs(headers: Headers): number | undefined {
  const ms = Number(headers.get("retry-after-ms") ?? Number.NaN);
  if (Number.isFinite(ms) && ms >= 0) return Math.ceil(ms);
  const value = headers.get("retry-after")?.trim() ?? "";
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value) * 1000);
  // An HTTP date names its day and month (`Thu, 01 Jan 2026 …`); "-1" or a long value is not one.
  const at = value.length <= 64 && /[A-Za-z]{3}/.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** The provider's own words from an error body (`error.message`, `message`), else the text. */
function errorMessageOf(text: string): string {
  try {
    const json = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const inner = typeof json.error === "object" && json.error !== null ? json.error.message : json.error;
    if (typeof inner === "string") return inner;
    if (typeof json.message === "string") return json.message;
  } catch {
    // not JSON: quote the text itself
  }
  return text;
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

/** `code: message` of the innermost cause (fetch wraps the socket's error in "fetch failed"). */
function describe(error: unknown): string {
  const inner = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  if (!(inner instanceof Error)) return String(inner);
  const code = (inner as { code?: unknown }).code;
  return typeof code === "string" ? `${code}: ${inner.message}` : inner.message;
}
