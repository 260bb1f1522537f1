// The spans a corrective pass emits (docs/design.md §9), as real children of the tool-call span that is
// active (or given) when the pass runs. knowledge_grade is written once the pass knows it was
// eventful (an uneventful signal-mode check emits nothing), with its true start time;
// knowledge_requery spans are live, so a backend's own spans nest under them.

import { type Context, type Span, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { errorMessage } from "../errors.js";
import type { CorrectiveMetadata } from "../types.js";
import { ATTR, EVALUATION_NAME, SPAN_KNOWLEDGE_GRADE, SPAN_KNOWLEDGE_REQUERY } from "./span-names.js";
import { clip } from "./tool-span.js";
import { tracer } from "./tracer.js";

/** Wall-clock milliseconds since the epoch, sub-millisecond precision (span timestamps). */
export function epochMs(): number {
  return performance.timeOrigin + performance.now();
}

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

export interface RequerySpan {
  /** A context holding the span, for the backend call (its spans nest under the re-query). */
  context: Context;
  succeeded(newHits: number): void;
  failed(error: unknown): void;
}

/** Starts knowledge_requery for one re-query; end it with succeeded() or failed(). */
export function startRequerySpan(
  parent: Context,
  query: string,
  collections: readonly string[],
): RequerySpan {
  const span: Span = tracer().startSpan(
    SPAN_KNOWLEDGE_REQUERY,
    {
      kind: SpanKind.INTERNAL,
      attributes: {
        [ATTR.correctiveQuery]: clip(query),
        [ATTR.retrievalQueryText]: clip(query),
        [ATTR.correctiveCollections]: collections.map(clip),
      },
    },
    parent,
  );
  return {
    context: trace.setSpan(parent, span),
    succeeded(newHits) {
      span.setAttribute(ATTR.correctiveNewHits, newHits);
      span.end();
    },
    failed(error) {
      const message = errorMessage(error);
      span.recordException(error instanceof Error ? error : message);
      span.setStatus({ code: SpanStatusCode.ERROR, message: clip(message) });
      span.end();
    },
  };
}
