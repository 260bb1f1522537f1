// The seam for a model-backed grader (haiku, arriving separately): the orchestrator calls an
// injected function and treats every failure of it (a throw, a timeout, output that is not a
// grade) as `correct`. The feature must never make a search worse (docs/design.md §5).

import { withDeadline } from "../deadline.js";
import { SEARCH_LIMITS } from "../limits.js";
import type { Logger } from "../telemetry/logger.js";
import type { Grade, Verdict } from "../types.js";

export interface GradeInput {
  /** The user's question (or the tool's query when the question is unknown). */
  question: string;
  /** The current result text, trace marker peeled (may be large). */
  text: string;
  /** A bounded view of `text` (head and tail), what a digest should be built from. */
  digestSource: string;
  /**
   * The collections this call may search (the caller's allow-list): the only ones a grader may
   * name to the model, and the only ones a suggested collection is honoured in.
   */
  collections: readonly string[];
  /** Fires when the grade is no longer wanted (time bound or caller abort). */
  signal?: AbortSignal;
  /** The searched documents' language by name ("English"), when known. */
  documentLanguage?: string;
  /** The question's language by name, when it differs from the documents' ("German"). */
  queryLanguage?: string;
}

export type GradeFn = (input: GradeInput) => Promise<Grade>;

export const REASON_GRADER_UNAVAILABLE = "grader unavailable";
export const REASON_GRADER_UNPARSEABLE = "grader output unparseable";
const DEFAULT_REASON_CORRECT = "results cover the question";
const DEFAULT_REASON_OTHER = "results do not clearly cover the question";
const MAX_COLLECTION_CHARS = 256;
/** Alternative queries kept from one grade (the grader is asked for at most 3). */
export const MAX_ALTERNATIVE_QUERIES = 3;
/** A hypothetical answer is "a short passage"; longer ones are cut, not dropped (a cut passage still expands). */
export const MAX_HYPOTHETICAL_ANSWER_CHARS = 800;
const MAX_REASON_CHARS = 500;
const VERDICTS: readonly Verdict[] = ["correct", "ambiguous", "insufficient"];

/** Calls `grade` under `timeoutMs` and `signal`; never rejects. */
export async function gradeWithModel(
  grade: GradeFn,
  input: Omit<GradeInput, "signal">,
  options: { timeoutMs: number; signal?: AbortSignal; log?: Logger },
): Promise<Grade> {
  let raw: unknown;
  try {
    raw = await withDeadline("grader", options.timeoutMs, options.signal, (signal) =>
      grade({ ...input, signal }),
    );
  } catch (error) {
    options.log?.warn({ err: error }, "corrective: grader failed; treating the result as correct");
    return { verdict: "correct", reason: REASON_GRADER_UNAVAILABLE };
  }
  const normalized = normalizeGrade(raw);
  if (normalized.reason === REASON_GRADER_UNPARSEABLE) {
    options.log?.warn("corrective: grader returned no usable verdict; treating the result as correct");
  }
  return normalized;
}

/**
 * A well-formed Grade from whatever a grader returned: an unknown verdict means `correct`
 * (unparseable); a blank reason gets a default; the rewritten query, suggested collection and
 * alternative queries (at most 3, distinct, none equal to the rewrite) are trimmed, kept only for
 * non-correct verdicts and dropped when blank or oversized; a hypothetical answer is cut to a
 * short passage.
 */
export function normalizeGrade(raw: unknown): Grade {
  if (raw === null || typeof raw !== "object")
    return { verdict: "correct", reason: REASON_GRADER_UNPARSEABLE };
  const { verdict, reason, rewrittenQuery, suggestedCollection, alternativeQueries, hypotheticalAnswer } =
    raw as Record<string, unknown>;
  if (!VERDICTS.includes(verdict as Verdict))
    return { verdict: "correct", reason: REASON_GRADER_UNPARSEABLE };
  const v = verdict as Verdict;
  const text = typeof reason === "string" ? reason.trim().slice(0, MAX_REASON_CHARS) : "";
  const grade: Grade = {
    verdict: v,
    reason: text !== "" ? text : v === "correct" ? DEFAULT_REASON_CORRECT : DEFAULT_REASON_OTHER,
  };
  if (v === "correct") return grade;
  const query = boundedString(rewrittenQuery, SEARCH_LIMITS.queryChars);
  if (query !== undefined) grade.rewrittenQuery = query;
  const collection = boundedString(suggestedCollection, MAX_COLLECTION_CHARS);
  if (collection !== undefined) grade.suggestedCollection = collection;
  if (Array.isArray(alternativeQueries)) {
    const seen = new Set(query !== undefined ? [query.toLowerCase()] : []);
    const alternatives: string[] = [];
    // Bounded before it is walked: a model may send a million-entry array.
    for (const candidate of alternativeQueries.slice(0, MAX_ALTERNATIVE_QUERIES * 4)) {
      const alternative = boundedString(candidate, SEARCH_LIMITS.queryChars);
      if (alternative === undefined || seen.has(alternative.toLowerCase())) continue;
      seen.add(alternative.toLowerCase());
      alternatives.push(alternative);
      if (alternatives.length === MAX_ALTERNATIVE_QUERIES) break;
    }
    if (alternatives.length > 0) grade.alternativeQueries = alternatives;
  }
  if (typeof hypotheticalAnswer === "string") {
    const passage = hypotheticalAnswer.trim().slice(0, MAX_HYPOTHETICAL_ANSWER_CHARS).trim();
    if (passage !== "") grade.hypotheticalAnswer = passage;
  }
  return grade;
}

function boundedString(value: unknown, max: number): string | undefined {
  if (typeof value !== "string") return undefined;
  const trimmed = value.trim();
  return trimmed !== "" && trimmed.length <= max ? trimmed : undefined;
}
