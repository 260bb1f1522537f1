// One GET to a Huginn server over undici: bounded in time (the configured timeout, and the
// caller's signal) and in size (the body is read up to a cap, then the connection is dropped),
// with every failure turned into the adapter's wording (huginn-error.ts). A caller's abort is
// passed through as itself: it is not a Huginn failure and must not be worded as one.
import { Agent, type Dispatcher, request } from "undici";
import { scrubSecrets, urlSecrets } from "../../secret-text.js";
import { oneLine } from "../../text-clip.js";
import { failedError, HuginnError, statusError, unreachableError } from "./huginn-error.js";

/** Read of an error body: enough to quote, never the whole of a huge page. */
const MAX_ERROR_BODY_BYTES = 16 * 1024;

/** Codes that mean nothing is listening at the URL (httpx's ConnectError in the adapter). */
const UNREACHABLE_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
]);

export interface GetJsonOptions {
  timeoutMs: number;
  maxBytes: number;
  signal?: AbortSignal;
  /** Collections named in the "not running" message's start hint (search only). */
  startHint?: readonly string[];
}

export class HuginnHttp {
  private readonly dispatcher: Dispatcher;
  /** Credentials written into the URL: never quoted back from a reply or an error. */
  private readonly secrets: readonly string[];

  constructor(
    /** Without a trailing slash. */
    readonly baseUrl: string,
    options: { connections?: number; dispatcher?: Dispatcher } = {},
  ) {
    // Its own pool: concurrent tool calls share keep-alive connections, at most `connections`
    // at once (the rest queue), and close() releases them.
    this.dispatcher = options.dispatcher ?? new Agent({ connections: options.connections ?? 128 });
    this.secrets = urlSecrets(baseUrl);
  }

  /** The parsed JSON of a 2xx answer; throws HuginnError (or the caller's abort reason). */
  async getJson(pathAndQuery: string, options: GetJsonOptions): Promise<unknown> {
    options.signal?.throwIfAborted();
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    try {
      const response = await request(`${this.baseUrl}${pathAndQuery}`, {
        method: "GET",
        headers: { accept: "application/json" },
        signal,
        dispatcher: this.dispatcher,
      });
      if (response.statusCode < 200 || response.statusCode >= 300) {
        const { text, truncated } = await readBody(response.body, MAX_ERROR_BODY_BYTES, "cut");
        throw statusError(response.statusCode, text, this.secrets, { truncated });
      }
      const declared = Number(response.headers["content-length"]);
      if (Number.isFinite(declared) && declared > options.maxBytes) {
        response.body.destroy();
        throw tooLarge(options.maxBytes);
      }
      const { text } = await readBody(response.body, options.maxBytes, "refuse");
      try {
        return JSON.parse(text);
      } catch {
        throw failedError("the response is not valid JSON");
      }
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason ?? error;
      if (error instanceof HuginnError) throw error;
      if (timeout.aborted) throw failedError(`no answer within ${options.timeoutMs} ms`, error);
      if (isUnreachable(error)) throw unreachableError(this.baseUrl, options.startHint, error);
      throw failedError(describe(scrubSecrets(errorText(error), this.secrets)), error);
    }
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }
}

/** The body as text, at most `maxBytes`: beyond it, `cut` keeps what was read, `refuse` throws. */
async function readBody(
  body: Dispatcher.ResponseData["body"],
  maxBytes: number,
  over: "cut" | "refuse",
): Promise<{ text: string; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  for await (const chunk of body) {
    const buffer = chunk as Buffer;
    if (size + buffer.length > maxBytes) {
      body.destroy();
      if (over === "refuse") throw tooLarge(maxBytes);
      chunks.push(buffer.subarray(0, maxBytes - size));
      truncated = true;
      break;
    }
    chunks.push(buffer);
    size += buffer.length;
  }
  return { text: Buffer.concat(chunks).toString("utf8"), truncated };
}

function tooLarge(maxBytes: number): HuginnError {
  return failedError(`the response is larger than ${maxBytes} bytes`);
}

function isUnreachable(error: unknown): boolean {
  // Node wraps the per-address failures of one connect (IPv6 then IPv4) in an AggregateError.
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  while (pending.length > 0 && seen.size < 16) {
    const next = pending.pop();
    if (next === null || typeof next !== "object" || seen.has(next)) continue;
    seen.add(next);
    const { code, cause, errors } = next as { code?: unknown; cause?: unknown; errors?: unknown };
    if (typeof code === "string" && UNREACHABLE_CODES.has(code)) return true;
    pending.push(cause);
    if (Array.isArray(errors)) pending.push(...errors.slice(0, 8));
  }
  return false;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message || error.name : String(error);
}

/** An error's text (already scrubbed) as one bounded line. */
function describe(text: string): string {
  return oneLine(text, 300) || "unknown error";
}
