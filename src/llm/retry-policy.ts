// Retries of one model call: exponential backoff with jitter on errors a later attempt could
// get past (429, 5xx, a broken connection), honouring the provider's Retry-After. Bounded in
// attempts and in time: no wait runs past the call's deadline, and a Retry-After longer than
// we are willing to wait ends the call at once instead of sleeping into a certain timeout.

import { LlmError } from "./llm-error.js";

export interface RetryPolicy {
  /** Attempts in all, the first included (default 3). */
  maxAttempts?: number;
  /** The first backoff (default 500 ms); doubled per retry. */
  baseDelayMs?: number;
  /** Cap on one backoff (default 8 s). */
  maxDelayMs?: number;
  /** A Retry-After longer than this is not waited for: the call fails now (default 30 s). */
  maxRetryAfterMs?: number;
}

export const DEFAULT_RETRY_POLICY: Required<RetryPolicy> = {
  maxAttempts: 3,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 30_000,
};

/** Hard ceiling whatever a caller configures: a misconfiguration must not mean endless calls. */
const MAX_ATTEMPTS_CEILING = 10;

export interface RetryRun {
  policy?: RetryPolicy;
  /** Epoch ms by which the whole call must be over. */
  deadline: number;
  /** Fires on timeout or caller abort; stops a backoff wait at once. */
  signal: AbortSignal;
  /** 0 ≤ x < 1 (default Math.random); injected so tests can pin the jitter. */
  random?: () => number;
  now?: () => number;
  /** Told before each wait (for logs and the usage meter). */
  onRetry?: (info: { attempt: number; delayMs: number; error: LlmError }) => void;
}

/** The wait before retry number `retry` (1-based): half fixed, half random, capped. */
export function backoffDelay(retry: number, policy: Required<RetryPolicy>, random: () => number): number {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.round(exponential / 2 + (random() * exponential) / 2);
}

/** Runs `attempt` until it succeeds, fails for good, runs out of attempts or out of time. */
export async function runWithRetries<T>(attempt: (n: number) => Promise<T>, run: RetryRun): Promise<T> {
  const policy = { ...DEFAULT_RETRY_POLICY, ...definedOnly(run.policy) };
  const maxAttempts = Math.max(1, Math.min(MAX_ATTEMPTS_CEILING, Math.floor(policy.maxAttempts)));
  const random = run.random ?? Math.random;
  const now = run.now ?? Date.now;
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (error) {
      if (!(error instanceof LlmError) || !error.retryable || n >= maxAttempts) throw error;
      if (error.retryAfterMs !== undefined && error.retryAfterMs > policy.maxRetryAfterMs) throw error;
      const delayMs = Math.max(error.retryAfterMs ?? 0, backoffDelay(n, policy, random));
      if (now() + delayMs >= run.deadline) throw error;
      run.onRetry?.({ attempt: n, delayMs, error });
      await sleep(delayMs, run.signal);
    }
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

function definedOnly(policy: RetryPolicy | undefined): RetryPolicy {
  const out: RetryPolicy = {};
  if (!policy) return out;
  for (const key of Object.keys(policy) as (keyof RetryPolicy)[]) {
    const value = policy[key];
    if (typeof value === "number" && Number.isFinite(value) && value >= 0) out[key] = value;
  }
  return out;
}
