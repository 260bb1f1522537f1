// The one way this code bounds a step in time. Every awaited step that talks to something slow —
// a model call, a re-query, a corrective pass inside a tool call, an MCP tool call — runs under a
// wall-clock deadline and the caller's AbortSignal, merged into one signal the step can use to
// cancel its own I/O. The step's promise is *raced* against the deadline, so a callee that ignores
// its signal still costs at most the deadline. Timers are always cleared and listeners removed.
import { SecondLookError } from "./errors.js";

/** The deadline layer's error codes (docs/errors.md): why a bounded step stopped before it settled. */
export const DEADLINE_ERROR_CODES = ["timeout", "aborted"] as const;
export type DeadlineErrorCode = (typeof DEADLINE_ERROR_CODES)[number];

/** Why a bounded step stopped before it settled. */
export type DeadlineStop = DeadlineErrorCode;

/** A step stopped by its deadline (or cancelled by a caller that gave no reason). */
export class DeadlineError extends SecondLookError<DeadlineErrorCode> {
  constructor(
    readonly what: string,
    readonly stop: DeadlineStop,
    readonly timeoutMs: number,
    options?: { cause?: unknown },
  ) {
    super(
      "deadline",
      stop,
      stop === "timeout" ? `${what} exceeded ${timeoutMs} ms` : `${what} was cancelled`,
      options,
    );
    this.name = "DeadlineError";
  }
}

/**
 * Every default time bound, by name, in milliseconds: one table, so a default is changed in one
 * place and bounds that must agree are read side by side. A bot's config may override those it
 * names (src/bots/config-options.ts prints these defaults).
 */
export const DEADLINES = {
  // The corrective pass (src/corrective, src/connectors/copilot-sdk/corrective-hook.ts).
  /** One model grader call (`correctiveRetrieval.graderTimeoutMs`); past it the results pass through. */
  graderMs: 8_000,
  /** One corrective re-query against the backend. */
  requeryMs: 8_000,
  /** A whole corrective pass inside a chat turn (the Copilot hook); past it the original passes through. */
  correctivePassMs: 30_000,
  /** A whole corrective pass where a person or a script waits for it (`search`, `eval`). */
  offlineCorrectivePassMs: 60_000,
  /** One conversation turn (`session.timeoutMs`). */
  sessionTurnMs: 120_000,
  /** One MCP tool call, the corrective pass included. */
  mcpToolCallMs: 60_000,
  /** After an aborted turn, how long to wait for the runtime to go idle. */
  turnAbortSettleMs: 3_000,
  // Model clients (src/llm).
  /** One chat call over HTTP (OpenAI, Anthropic wire). */
  chatCallMs: 30_000,
  /** One chat through the Copilot runtime. */
  copilotChatMs: 60_000,
  /** Deleting a Copilot session after its chat. */
  copilotSessionDeleteMs: 5_000,
  /** Detaching a Copilot session (all of a runtime's at once when it closes). */
  copilotSessionDetachMs: 3_000,
  /** Stopping the shared Copilot client before it is killed. */
  copilotStopGraceMs: 5_000,
  /** The TCP connect that checks a provider is reachable. */
  providerConnectMs: 3_000,
  // Strategies (src/strategies).
  /** A strategy's whole run of model turns. */
  strategyRunMs: 60_000,
  /** One model turn of a strategy. */
  strategyCallMs: 30_000,
  /** One step of the strategic backend (rerank, deep fallback). */
  strategyStepMs: 20_000,
  // Backends and indexing (src/knowledge).
  /** One search against a Huginn server. */
  huginnSearchMs: 30_000,
  /** One PostgreSQL statement (statement_timeout). */
  postgresStatementMs: 10_000,
  /** Opening a PostgreSQL connection. */
  postgresConnectMs: 5_000,
  /** Reading, parsing and analysing one file while indexing (`knowledge.ingest.fileTimeoutMs`). */
  ingestFileMs: 60_000,
  /** A parser worker thread's start. */
  ingestWorkerStartMs: 30_000,
  /** Parsing one PDF. */
  pdfParseMs: 60_000,
  // Hosts and telemetry (src/hosts, src/telemetry).
  /** Teams: the Bot Connector's calls. */
  teamsConnectorMs: 15_000,
  /** Teams: one incoming request. */
  teamsRequestMs: 20_000,
  /** Slack: one Web API call. */
  slackWebApiMs: 15_000,
  /** After a host's shutdown aborts its answers, how long to wait for them to settle. */
  answerAbortGraceMs: 5_000,
  /** One OTLP span export. */
  otlpExportMs: 3_000,
} as const;

/** The largest delay setTimeout honours; longer ones fire at once (Node clamps them to 1 ms). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * `run`'s result, or a rejection, whichever comes first: `run`'s own; a DeadlineError once
 * `timeoutMs` passes; or, as fetch does, `outer`'s abort reason once the caller aborts.
 * `run` may throw synchronously or return a plain value.
 */
export async function withDeadline<T>(
  what: string,
  timeoutMs: number,
  outer: AbortSignal | undefined,
  run: (signal: AbortSignal) => Promise<T> | T,
): Promise<T> {
  const ms = Math.min(Math.max(0, timeoutMs), MAX_TIMER_MS);
  if (outer?.aborted) throw abortReason(what, ms, outer);
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onOuter: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    const stop = (error: unknown) => {
      controller.abort(error);
      reject(error);
    };
    timer = setTimeout(() => stop(new DeadlineError(what, "timeout", ms)), ms);
    onOuter = () => stop(abortReason(what, ms, outer));
    outer?.addEventListener("abort", onOuter, { once: true });
  });
  try {
    const running = Promise.resolve().then(() => run(controller.signal));
    // A step abandoned at its deadline may still reject later; that rejection is not an error.
    running.catch(() => {});
    return await Promise.race([running, stopped]);
  } finally {
    clearTimeout(timer);
    if (onOuter) outer?.removeEventListener("abort", onOuter);
  }
}

function abortReason(what: string, ms: number, outer: AbortSignal | undefined): unknown {
  return outer?.reason ?? new DeadlineError(what, "aborted", ms);
}

/** `work`'s value; rejects with `signal.reason` as soon as `signal` aborts first. */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    work.catch(() => {});
    return Promise.reject(signal.reason);
  }
  return settleOn(work, signal, () => Promise.reject(signal.reason));
}

/**
 * `work`'s value, or `fallback` once `signal` aborts first. For steps that fail soft: whatever
 * `work` does later is ignored, and its late rejection is swallowed.
 */
export function settleBy<T, F>(work: Promise<T>, signal: AbortSignal, fallback: F): Promise<T | F> {
  if (signal.aborted) {
    work.catch(() => {});
    return Promise.resolve(fallback);
  }
  return settleOn<T | F>(work, signal, () => Promise.resolve(fallback));
}

function settleOn<T>(work: Promise<T>, signal: AbortSignal, onAbort: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const abort = () => {
      work.catch(() => {});
      onAbort().then(resolve, reject);
    };
    signal.addEventListener("abort", abort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", abort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", abort);
        reject(error);
      },
    );
  });
}

/** A signal that fires at the deadline or when the client cancels, and which of the two it was. */
export interface DeadlineSignal {
  signal: AbortSignal;
  /** True once the deadline (not the client) stopped the call. */
  expired: () => boolean;
  timeoutMs: number;
}

export function deadlineSignal(clientSignal: AbortSignal | undefined, timeoutMs: number): DeadlineSignal {
  const ms = Math.min(Math.max(0, timeoutMs), MAX_TIMER_MS);
  const timeout = AbortSignal.timeout(ms);
  const signal = clientSignal ? AbortSignal.any([clientSignal, timeout]) : timeout;
  return { signal, expired: () => timeout.aborted, timeoutMs: ms };
}
