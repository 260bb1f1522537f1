// One model call's bound, the same for every provider: withDeadline over the whole call (retries
// included) and the caller's AbortSignal. When either fires, the call fails with an LlmError that
// says which — never with whatever error the interrupted I/O happened to raise.
import { DeadlineError, withDeadline } from "../deadline.js";
import { LlmError } from "./llm-error.js";

export async function withCallDeadline<T>(
  provider: string,
  timeoutMs: number,
  outer: AbortSignal | undefined,
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  try {
    return await withDeadline(`${provider} call`, timeoutMs, outer, run);
  } catch (error) {
    if (outer?.aborted) throw new LlmError(provider, "aborted", "the call was cancelled");
    if (error instanceof DeadlineError)
      throw new LlmError(provider, "timeout", `no reply within ${timeoutMs} ms`);
    throw error;
  }
}
