// The bound on one MCP tool call: the client's cancellation and a wall-clock deadline, as one
// signal, so a slow backend or corrective pass costs at most the deadline and never holds a
// call (or the client waiting on it) open.

export interface CallDeadline {
  signal: AbortSignal;
  /** True once the deadline (not the client) stopped the call. */
  expired: () => boolean;
  timeoutMs: number;
}

export function callDeadline(clientSignal: AbortSignal | undefined, timeoutMs: number): CallDeadline {
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = clientSignal ? AbortSignal.any([clientSignal, timeout]) : timeout;
  return { signal, expired: () => timeout.aborted, timeoutMs };
}

/**
 * `work`'s value, or `fallback` once `signal` aborts first. For steps that fail soft (the
 * corrective pass): whatever `work` does later is ignored, and its rejection is swallowed.
 */
export function settleBy<T, F>(work: Promise<T>, signal: AbortSignal, fallback: F): Promise<T | F> {
  if (signal.aborted) {
    work.catch(() => {});
    return Promise.resolve(fallback);
  }
  return new Promise<T | F>((resolve, reject) => {
    const onAbort = () => resolve(fallback);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
