import { SecondLookError } from "../errors.js";

// The one error type a provider rejects with. Its message is written by us from facts we
// control (provider, status, the host and path called, a clipped and scrubbed reply), so it is
// safe to log: it never carries a key, a request header or a URL query string.

export type LlmErrorKind =
  /** The provider answered with a non-2xx status. */
  | "http"
  /** The call's time bound passed. */
  | "timeout"
  /** The caller's signal fired. */
  | "aborted"
  /** The connection failed or broke before a reply was read. */
  | "network"
  /** A 2xx reply that is not what the wire format promises (or too large). */
  | "protocol"
  /** The client cannot be built or used as configured (e.g. the key variable is unset). */
  | "config";

/** The llm layer's error codes (docs/errors.md): an LlmError's kind, or a provider's package missing. */
export const LLM_ERROR_CODES = [
  "http",
  "timeout",
  "aborted",
  "network",
  "protocol",
  "config",
  "missing-package",
] as const;
export type LlmErrorCode = (typeof LLM_ERROR_CODES)[number];

export class LlmError extends SecondLookError<LlmErrorCode> {
  override readonly name = "LlmError";
  readonly provider: string;
  readonly kind: LlmErrorKind;
  readonly status: number | undefined;
  /** How long the provider asked us to wait (Retry-After), when it said. */
  readonly retryAfterMs: number | undefined;
  /** Whether another attempt could succeed (429, 5xx, a broken connection, an overload event). */
  readonly retryable: boolean;

  constructor(
    provider: string,
    kind: LlmErrorKind,
    message: string,
    options: { status?: number; retryAfterMs?: number; retryable?: boolean; cause?: unknown } = {},
  ) {
    super("llm", kind, `${provider}: ${message}`, options);
    this.provider = provider;
    this.kind = kind;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
    this.retryable = options.retryable ?? false;
  }
}

/** Statuses worth another attempt: rate limits, timeouts, overloads and server errors. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}
