// How many tool calls one MCP server runs at once, first come first served. Without it a burst
// of calls is processor-shared: every call gets a slice of the CPU and of the backend's
// connection pool (src/backends/huginn/huginn-http.ts queues requests first in, first out), so
// each call's corrective re-query waits behind every other call's first search and all replies
// arrive together at the end of the burst. With at most `concurrency` calls running, an admitted
// call finishes in about its own time and the replies leave one by one as calls finish.
import { ConnectorsError } from "../connectors-error.js";

/** Calls one server runs at the same time: a Huginn backend's connection pool holds as many. */
export const DEFAULT_CONCURRENT_CALLS = 128;
/** Calls allowed to wait beyond those running; past it a call is refused at once as busy. */
export const DEFAULT_QUEUED_CALLS = 10_000;

export class ServerBusyError extends ConnectorsError {
  override readonly name = "ServerBusyError";
  constructor(queued: number) {
    super("busy", `the knowledge server is busy (${queued} calls waiting); try again shortly`);
  }
}

export interface CallLimiter {
  /** Runs `call` when a slot is free; rejects with the signal's reason if it fires while waiting. */
  run<T>(call: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  readonly running: number;
  readonly waiting: number;
}

export function callLimiter(
  concurrency: number = DEFAULT_CONCURRENT_CALLS,
  maxQueued: number = DEFAULT_QUEUED_CALLS,
): CallLimiter {
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`concurrency must be a whole number >= 1, got ${concurrency}`);
  }
  let running = 0;
  const queue: Array<() => void> = [];
  // A freed slot passes straight to the oldest waiting call, so no newcomer can take it between.
  const release = () => {
    const next = queue.shift();
    if (next) next();
    else running--;
  };
  return {
    get running() {
      return running;
    },
    get waiting() {
      return queue.length;
    },
    async run(call, signal) {
      signal?.throwIfAborted();
      if (running < concurrency) running++;
      else {
        if (queue.length >= maxQueued) throw new ServerBusyError(queue.length);
        await new Promise<void>((resolve, reject) => {
          const admit = () => {
            signal?.removeEventListener("abort", onAbort);
            resolve();
          };
          const onAbort = () => {
            const at = queue.indexOf(admit);
            if (at !== -1) queue.splice(at, 1);
            reject(signal?.reason);
          };
          signal?.addEventListener("abort", onAbort, { once: true });
          queue.push(admit);
        });
      }
      try {
        return await call();
      } finally {
        release();
      }
    },
  };
}
