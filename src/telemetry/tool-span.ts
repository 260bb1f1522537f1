// The `execute_tool <tool>` span a caller (MCP tool, CLI, connector) wraps a tool call in, and the
// spans the corrective pass run inside it emits as its children (knowledge_grade,
// knowledge_requery).

import { type Context, context, type Span, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { errorMessage } from "../errors.js";
import { clipText } from "../text-clip.js";
import type { CorrectiveMetadata } from "../types.js";
import {
  ATTR,
  EVALUATION_NAME,
  EXECUTE_TOOL_PREFIX,
  executeToolSpanName,
  SPAN_KNOWLEDGE_GRADE,
  SPAN_KNOWLEDGE_REQUERY,
} from "./span-names.js";
import { epochMs, tracer } from "./tracer.js";

export { epochMs } from "./tracer.js";

/** Longer query texts are cut in attributes: a span is not a place for a 100 KB string. */
export const MAX_ATTRIBUTE_CHARS = 1024;

export interface ToolSpanOptions {
  /** Parent of the tool span; the active context when absent. */
  parentContext?: Context;
}

/**
 * Runs `fn` inside an `execute_tool <name>` span and ends the span when `fn` settles; a throw is
 * recorded on the span and rethrown. `fn` gets a context holding the span: with a context
 * manager registered (captureSpans registers one) the context is also active, so spans started
 * inside `fn` are children automatically; without one, pass `toolContext` on explicitly
 * (correctToolResult's `traceContext`).
 */
export async function withToolSpan<T>(
  name: string,
  args: unknown,
  fn: (toolContext: Context) => Promise<T> | T,
  options: ToolSpanOptions = {},
): Promise<T> {
  const { value, span } = await withOpenToolSpan(name, args, async (toolContext) => fn(toolContext), options);
  span.end();
  return value;
}

/**
 * An `execute_tool` span whose result may still be corrected: the corrective pass runs after the
 * search returned (in a hook, or in the MCP tool), and its spans are the tool span's children, so
 * the tool span stays open until the pass is done. Whoever holds it ends it exactly once.
 */
export interface OpenToolSpan {
  /** A context holding the span: the parent of the corrective pass's spans. */
  readonly context: Context;
  /** Ends the span now (after the corrective pass). */
  end(): void;
  /** Ends the span when its tool returned (no corrective pass followed). */
  endAtResult(): void;
}

/** An open tool span nobody ends is ended at its result after this long (telemetry only). */
export const OPEN_TOOL_SPAN_MAX_MS = 120_000;
/** Bound on tool spans open at once; beyond it the oldest is ended at its result. */
export const MAX_OPEN_TOOL_SPANS = 1024;
const openToolSpans = new Set<OpenToolSpan>();

/**
 * Like withToolSpan, but a successful call leaves the span open and hands it back with the
 * value; a throw ends it with the error. Ended by its holder, else after OPEN_TOOL_SPAN_MAX_MS or
 * at endOpenToolSpans (process shutdown), both at the time the tool returned.
 */
export async function withOpenToolSpan<T>(
  name: string,
  args: unknown,
  fn: (toolContext: Context) => Promise<T>,
  options: ToolSpanOptions = {},
): Promise<{ value: T; span: OpenToolSpan }> {
  const parent = options.parentContext ?? context.active();
  const span = tracer().startSpan(
    executeToolSpanName(name),
    { kind: SpanKind.INTERNAL, attributes: toolAttributes(name, args), startTime: epochMs() },
    parent,
  );
  const toolContext = trace.setSpan(parent, span);
  let value: T;
  try {
    value = await context.with(toolContext, () => fn(toolContext));
  } catch (error) {
    span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({ code: SpanStatusCode.ERROR, message: errorMessage(error) });
    span.end(epochMs());
    throw error;
  }
  // No SDK recording (nothing registered): nothing to keep open, no timer per search.
  if (!span.isRecording()) {
    span.end();
    return { value, span: { context: toolContext, end: () => {}, endAtResult: () => {} } };
  }
  const returnedAt = epochMs();
  let ended = false;
  const finish = (at?: number) => {
    if (ended) return;
    ended = true;
    clearTimeout(timer);
    openToolSpans.delete(open);
    span.end(at ?? epochMs());
  };
  const open: OpenToolSpan = {
    context: toolContext,
    end: () => finish(),
    endAtResult: () => finish(returnedAt),
  };
  const timer = setTimeout(() => open.endAtResult(), OPEN_TOOL_SPAN_MAX_MS);
  timer.unref();
  if (openToolSpans.size >= MAX_OPEN_TOOL_SPANS) openToolSpans.values().next().value?.endAtResult();
  openToolSpans.add(open);
  return { value, span: open };
}

/** Ends every open tool span at its result (before a flush at shutdown). */
export function endOpenToolSpans(): void {
  for (const open of [...openToolSpans]) open.endAtResult();
}

// The tool name and, for a search, its query and collections; never the whole argument object
// (a model can put anything in it).
function toolAttributes(name: string, args: unknown): Record<string, string | string[]> {
  const attributes: Record<string, string | string[]> = {
    [ATTR.operationName]: EXECUTE_TOOL_PREFIX,
    [ATTR.toolName]: name,
  };
  if (args === null || typeof args !== "object" || Array.isArray(args)) return attributes;
  const { query, collection } = args as { query?: unknown; collection?: unknown };
  if (typeof query === "string") attributes[ATTR.retrievalQueryText] = clip(query);
  if (typeof collection === "string" && collection !== "") {
    attributes[ATTR.correctiveCollections] = [clip(collection)];
  } else if (Array.isArray(collection)) {
    const names = collection.filter((c): c is string => typeof c === "string" && c !== "").slice(0, 32);
    if (names.length > 0) attributes[ATTR.correctiveCollections] = names.map(clip);
  }
  return attributes;
}

export function clip(text: string): string {
  return clipText(text, MAX_ATTRIBUTE_CHARS);
}

// The spans a corrective pass emits (docs/design.md §9), as real children of the tool-call span that is
// active (or given) when the pass runs. knowledge_grade is written once the pass knows it was
// eventful (an uneventful signal-mode check emits nothing), with its true start time;
// one knowledge_requery per re-query (a round of candidate searches) is live, so a backend's own
// spans nest under it, and ends with what the outcome records for that round.

/** knowledge_grade over [startMs, endMs] (epoch ms), carrying the pass's verdicts. */
export function emitGradeSpan(
  parent: Context,
  metadata: CorrectiveMetadata,
  times: { startMs: number; endMs: number },
): void {
  const final = metadata.reasons[metadata.reasons.length - 1] ?? "";
  const span = tracer().startSpan(
    SPAN_KNOWLEDGE_GRADE,
    {
      kind: SpanKind.INTERNAL,
      startTime: times.startMs,
      attributes: {
        [ATTR.correctiveMode]: metadata.graderMode,
        [ATTR.correctiveVerdicts]: [...metadata.verdicts],
        [ATTR.correctiveFinalVerdict]: metadata.finalVerdict,
        [ATTR.correctivePasses]: metadata.verdicts.length,
        [ATTR.correctiveRetries]: metadata.retries,
        [ATTR.evaluationName]: EVALUATION_NAME,
        [ATTR.evaluationScoreLabel]: metadata.finalVerdict,
        [ATTR.evaluationExplanation]: clip(final),
      },
    },
    parent,
  );
  span.end(Math.max(times.startMs, times.endMs));
}

/** How one re-query (a round of candidate searches) ended, as the outcome records it. */
export interface RequeryResult {
  /** The queries that answered, in order: the round's entries of `queriesTried`. */
  queries: readonly string[];
  /** Hits the round actually added to the text: its entry of `newHits`. */
  newHits: number;
}

export interface RequerySpan {
  /** A context holding the span, for the backend calls (their spans nest under the re-query). */
  context: Context;
  /** One candidate search failed (an exception event; the round may still succeed). */
  candidateFailed(query: string, error: unknown): void;
  succeeded(result: RequeryResult): void;
  /**
   * No candidate answered: the re-query ran and learned nothing (not counted in the outcome, so
   * no new_hits). The error is the first candidate's unless given.
   */
  failed(error?: unknown): void;
}

/**
 * Starts knowledge_requery for one re-query: every candidate search of one round, in the
 * collections the round searched. End it once with succeeded() or failed().
 */
export function startRequerySpan(
  parent: Context,
  queries: readonly string[],
  collections: readonly string[],
): RequerySpan {
  const lead = queries[0] ?? "";
  const span: Span = tracer().startSpan(
    SPAN_KNOWLEDGE_REQUERY,
    {
      kind: SpanKind.INTERNAL,
      attributes: {
        [ATTR.correctiveQuery]: clip(lead),
        [ATTR.correctiveQueries]: queries.map(clip),
        [ATTR.retrievalQueryText]: clip(lead),
        [ATTR.correctiveCollections]: collections.map(clip),
      },
      startTime: epochMs(),
    },
    parent,
  );
  let ended = false;
  let firstFailure: unknown;
  const end = () => {
    if (ended) return false;
    ended = true;
    return true;
  };
  return {
    context: trace.setSpan(parent, span),
    candidateFailed(query, error) {
      if (ended) return;
      firstFailure ??= error;
      span.addEvent("exception", {
        "exception.message": clip(errorMessage(error)),
        [ATTR.correctiveQuery]: clip(query),
      });
    },
    succeeded(result) {
      if (!end()) return;
      // What the outcome says the round did: its answered queries (the lead one first) and
      // the hits it added.
      span.setAttribute(ATTR.correctiveQuery, clip(result.queries[0] ?? lead));
      span.setAttribute(ATTR.retrievalQueryText, clip(result.queries[0] ?? lead));
      span.setAttribute(ATTR.correctiveQueries, result.queries.map(clip));
      span.setAttribute(ATTR.correctiveNewHits, result.newHits);
      span.end(epochMs());
    },
    failed(error) {
      if (!end()) return;
      const cause = error ?? firstFailure ?? "no re-query answered";
      const message = errorMessage(cause);
      if (error !== undefined || firstFailure === undefined) {
        span.recordException(cause instanceof Error ? cause : message);
      }
      span.setStatus({ code: SpanStatusCode.ERROR, message: clip(message) });
      span.end(epochMs());
    },
  };
}
