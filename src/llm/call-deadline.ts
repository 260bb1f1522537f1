// One model call's bound, the same for every provider: a deadline over the whole call (retries
// included) and the caller's AbortSignal, merged into one signal for the call's I/O. When either
// fires, the call fails with an LlmError that says which — never with whatever error the
// interrupted I/O happened to raise.
import { LlmError } from "./llm-error.js";

export async function withCallDeadline<T>(
  provider: string,
  timeoutMs: number,
  outer: AbortSignal | undefined,
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new LlmError(provider, "timeout", `no reply within ${timeoutMs} ms`)),
    timeoutMs,
  );
  const onAbort = () => controller.abort(new LlmError(provider, "aborted", "the call was cancelled"));
  if (outer?.aborted) onAbort();
  else outer?.addEventListener("abort", onAbort, { once: true });
  try {
    return await run(controller.signal);
  } catch (error) {
    if (controller.signal.aborted && controller.signal.reason instanceof LlmError)
      throw controller.signal.reason;
    throw error;
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener("abort", onAbort);
  }
}
