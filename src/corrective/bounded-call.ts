// Every awaited step of a corrective pass (an LLM grade, a re-query) runs under its own time
// bound and the caller's signal, so a slow grader or backend can only cost its bound, never
// hang the tool call. The callee gets a signal that fires on either, to cancel its own I/O.

export class StepTimeoutError extends Error {
  constructor(
    readonly what: string,
    readonly timeoutMs: number,
  ) {
    super(`${what} exceeded ${timeoutMs} ms`);
    this.name = "StepTimeoutError";
  }
}

/**
 * Resolves with `run`'s result, or rejects when `run` rejects or throws, when `timeoutMs`
 * passes, or when `outer` aborts, whichever comes first. The timer is always cleared.
 */
export async function boundedCall<T>(
  what: string,
  timeoutMs: number,
  outer: AbortSignal | undefined,
  run: (signal: AbortSignal) => Promise<T> | T,
): Promise<T> {
  outer?.throwIfAborted();
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onOuter: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new StepTimeoutError(what, timeoutMs);
      controller.abort(error);
      reject(error);
    }, timeoutMs);
    onOuter = () => {
      controller.abort(outer?.reason);
      reject(outer?.reason ?? new Error(`${what} aborted`));
    };
    outer?.addEventListener("abort", onOuter, { once: true });
  });
  try {
    // A callee that throws synchronously or returns a plain value is handled like a promise.
    const running = Promise.resolve().then(() => run(controller.signal));
    return await Promise.race([running, stopped]);
  } finally {
    clearTimeout(timer);
    if (onOuter) outer?.removeEventListener("abort", onOuter);
  }
}
