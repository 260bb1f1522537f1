// The spans a corrective pass emits (docs/design.md §9), as real children of the tool-call span that is
// active (or given) when the pass runs. knowledge_grade is written once the pass knows it was
// eventful (an uneventful signal-mode check emits nothing), with its true start time;
// one knowledge_requery per re-query (a round of candidate searches) is live, so a backend's own
// spans nest under it, and ends with what the outcome records for that round.

import { type Context, type Span, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { errorMessage } from "../errors.js";
import type { CorrectiveMetadata } from "../types.js";
import { ATTR, EVALUATION_NAME, SPAN_KNOWLEDGE_GRADE, SPAN_KNOWLEDGE_REQUERY } from "./span-names.js";
import { clip } from "./tool-span.js";
import { epochMs, tracer } from "./tracer.js";

export { epochMs } from "./tracer.js";

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
