// The default grader (docs/design.md §5): no model call, deterministic, pure. It reads what the search
// said about itself, from the structured response when the search ran in-process, else from
// the rendered text. It never answers "ambiguous" and never proposes a query of its own; the
// orchestrator takes re-query candidates from the hints.
import { type ResultTextScan, readResultBody, type TextSignal } from "../knowledge-tool/text-signal.js";
import { peelTraceMarker } from "../knowledge-tool/trace-marker.js";
import type { Grade, RetryHints, SearchResponse } from "../types.js";
import { isWeak } from "../weakness.js";

export type { TextSignal };

export const REASON_EMPTY = "search returned no results";
export const REASON_WEAK = "the search flagged the result as low confidence";
export const REASON_CONFIDENT = "no low-confidence signal from the search";

export type SignalGrade = Grade & { signal: TextSignal };

export interface TextSignalGrade extends SignalGrade {
  /** Retry hints from the trailing footer only; `{}` when there is none. */
  hints: RetryHints;
  /** `collection/id` of every hit in the text, in order, for deduping re-query hits. */
  docKeys: string[];
}

/** A body's grade with the one scan it was read from (the orchestrator's text reader reuses it). */
export interface BodySignalGrade extends TextSignalGrade {
  scan: ResultTextScan;
}

/** Grade of a structured response: empty, else weak (bestScore < WEAK_BEST_SCORE), else correct. */
export function gradeFromResponse(response: SearchResponse): SignalGrade {
  if (response.results.length === 0) return gradeFor("empty");
  if (isWeak(response)) return gradeFor("weak");
  return gradeFor(null);
}

/** Grade of a tool-result text (see classifyTextSignal for exactly what counts). */
export function gradeFromText(text: string | null | undefined): TextSignalGrade {
  const { scan: _scan, ...graded } = gradeFromBody(peelTraceMarker(text ?? "").body);
  return graded;
}

/** gradeFromText on a body whose trace marker is already peeled, with the scan it used. */
export function gradeFromBody(body: string): BodySignalGrade {
  const { signal, ...read } = readResultBody(body);
  return { ...gradeFor(signal), ...read };
}

function gradeFor(signal: TextSignal): SignalGrade {
  if (signal === "empty") return { verdict: "insufficient", reason: REASON_EMPTY, signal };
  if (signal === "weak") return { verdict: "insufficient", reason: REASON_WEAK, signal };
  return { verdict: "correct", reason: REASON_CONFIDENT, signal };
}
