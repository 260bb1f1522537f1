// The value one corrective pass hands from step to step (orchestrator.ts runs the steps): its
// settings, resolved once; what the result shows (shown-result.ts); the text so far; and what the
// pass records for its metadata. Each step takes a pass and returns the next one — nothing
// changes a pass in place — so a step's effect is what it returns. Starting a pass, recording a
// grade, the "not found" line and finishing (the language note, the metadata, the grade span)
// live here too.

import { type Context, context } from "@opentelemetry/api";
import { DEADLINES } from "../deadline.js";
import {
  appendNote,
  renderLanguageNote,
  renderNoBetterMatchNote,
  renderNotCoveredNote,
} from "../knowledge-tool/corrective-note.js";
import { positiveOrUndefined, SEARCH_LIMITS } from "../limits.js";
import { emitGradeSpan, epochMs } from "../telemetry/corrective-spans.js";
import { type Logger, logger } from "../telemetry/logger.js";
import type {
  CorrectiveMetadata,
  CorrectiveOutcome,
  Grade,
  GraderMode,
  Hit,
  KnowledgeBackend,
  RetryHints,
  SearchResponse,
  Verdict,
} from "../types.js";
import { keyAbsentTermsOf, unmatchedTermsOf } from "./borderline.js";
import { clampBudget, DEFAULT_GRADER_TIMEOUT_MS } from "./corrective-config.js";
import {
  type CorrectiveLanguages,
  documentLanguageOf,
  type LanguageMismatch,
  languageMismatch,
  mismatchedReading,
} from "./language-mismatch.js";
import type { GradeFn } from "./llm-grade.js";
import { queryIdentity } from "./requery-choice.js";
import type { Reading, ShownResult } from "./shown-result.js";

/** `auto`: the signal grades, and the model only where the signal is borderline. */
export type GraderSetting = GraderMode | "auto";

/** Bound on one re-query (the backend call); a round's candidates run in parallel under it. */
export const DEFAULT_REQUERY_TIMEOUT_MS = DEADLINES.requeryMs;

export interface CorrectiveRetrievalInput {
  /** The user's question, for a model grader; the original query when blank. */
  question: string;
  /** The query of the search being corrected. */
  originalQuery: string;
  /** The collections that search was scoped to; absent means the bot's whole allow-list. */
  originalCollections?: readonly string[];
  /** The original call's limit, brief and minRelevance: every re-query carries them over. */
  limit?: number;
  brief?: boolean;
  minRelevance?: number;
  /** The result text, trace marker already peeled. */
  originalText: string;
  /**
   * The structured response `originalText` was rendered from, when the search ran in-process:
   * then grading reads it (and the merged hits) instead of parsing text.
   */
  originalResponse?: SearchResponse;
  /**
   * The call's allow-list (the caller's scope: an HTTP token's collections, else the bot's): the
   * grader is told only these, a re-query never searches outside them, nothing outside is merged.
   */
  allowedCollections: readonly string[];
  /** Re-queries allowed: clamped to 1..2, anything not a number is 1. */
  budget?: number;
  /** Default "signal". "haiku" and "auto" need `grade`; without it the signal grades. */
  grader?: GraderSetting;
  grade?: GradeFn;
  graderTimeoutMs?: number;
  requeryTimeoutMs?: number;
  signal?: AbortSignal;
  /** Monotonic milliseconds, for graderMs/requeryMs (default performance.now). */
  now?: () => number;
  /** Searched directly for re-queries (pass the raw backend, not one that corrects itself). */
  backend: KnowledgeBackend;
  log?: Logger;
  /** Parent of the corrective spans; the active context when absent. */
  traceContext?: Context;
  /** The collections' languages: a query in another language makes the search weak. */
  languages?: CorrectiveLanguages;
}

/** The input's settings, defaults applied and bounds clamped once (the question bounded too). */
export interface PassSettings
  extends Pick<
    CorrectiveRetrievalInput,
    | "question"
    | "originalQuery"
    | "originalCollections"
    | "limit"
    | "brief"
    | "minRelevance"
    | "grade"
    | "signal"
    | "backend"
  > {
  /** The call's allow-list, each name once. */
  allowed: string[];
  budget: number;
  setting: GraderSetting;
  graderTimeoutMs: number;
  requeryTimeoutMs: number;
  now: () => number;
  log: Logger;
  traceParent: Context;
}

export interface CorrectivePass {
  readonly settings: PassSettings;
  readonly shown: ShownResult;
  /** The text so far: the original body, then with each note and addition appended. */
  readonly body: string;
  readonly changed: boolean;
  readonly reading: Reading;
  readonly digestSource: string;
  /** The retry hints of the text as it now ends (its trailing footer's). */
  readonly hints: RetryHints;
  readonly hitsShown: number;
  /** `collection/id` of every hit the text shows, so a re-query adds only what is new. */
  readonly known: ReadonlySet<string>;
  readonly mismatch?: LanguageMismatch;
  /** The original search's best relevance, when it was read (the scale re-queries are compared on). */
  readonly originalBest?: number;
  /** The searched documents' language by name, for the model grader. */
  readonly documentLanguage?: string;
  /** The query words no document contains, as the original search's index reported them. */
  readonly unmatchedTerms: readonly string[];
  /** Those of them that are the question's subject (borderline.ts `keyAbsentTermsOf`). */
  readonly absentKeyTerms: readonly string[];
  /** queryIdentity() of the original and every re-query so far. */
  readonly tried: ReadonlySet<string>;
  readonly currentCollections?: readonly string[];
  /** The hits appended to the text so far, in the order shown. */
  readonly added: readonly Hit[];
  /** Whether the grade in hand came from the model (its candidates then lead the round). */
  readonly gradedByModel: boolean;
  /** Whether a model-graded round re-searched (the model then searched in the documents' words). */
  readonly requeriedByModel: boolean;
  readonly usedModel: boolean;
  readonly graderMs: number;
  readonly retries: number;
  readonly verdicts: readonly Verdict[];
  readonly reasons: readonly string[];
  readonly queriesTried: readonly string[];
  readonly collectionsTried: readonly string[][];
  readonly requeryMs: readonly number[];
  readonly newHits: readonly number[];
  readonly notCovered?: CorrectiveMetadata["notCovered"];
  readonly noBetterMatch?: CorrectiveMetadata["noBetterMatch"];
  readonly spanStartMs: number;
}

/** Why a pass stopped without finding better, owing the model one line (`sayNotFound`). */
export interface NotFound {
  reason: string;
  terms: readonly string[];
}

export function passSettings(input: CorrectiveRetrievalInput): PassSettings {
  const settings: PassSettings = {
    question: boundedQuestion(input.question, input.originalQuery),
    originalQuery: input.originalQuery,
    allowed: [...new Set(input.allowedCollections)],
    budget: clampBudget(input.budget),
    setting: input.grader ?? "signal",
    graderTimeoutMs: positiveOrUndefined(input.graderTimeoutMs) ?? DEFAULT_GRADER_TIMEOUT_MS,
    requeryTimeoutMs: positiveOrUndefined(input.requeryTimeoutMs) ?? DEFAULT_REQUERY_TIMEOUT_MS,
    now: input.now ?? (() => performance.now()),
    backend: input.backend,
    log: input.log ?? logger(),
    traceParent: input.traceContext ?? context.active(),
  };
  if (input.originalCollections) settings.originalCollections = input.originalCollections;
  if (input.limit !== undefined) settings.limit = input.limit;
  if (input.brief !== undefined) settings.brief = input.brief;
  if (input.minRelevance !== undefined) settings.minRelevance = input.minRelevance;
  if (input.grade) settings.grade = input.grade;
  if (input.signal) settings.signal = input.signal;
  return settings;
}

/** A pass over `shown`, its body `body`, before any step ran. */
export function startPass(
  settings: PassSettings,
  shown: ShownResult,
  body: string,
  languages: CorrectiveLanguages | undefined,
): CorrectivePass {
  const searched = settings.originalCollections ?? settings.allowed;
  const mismatch = languageMismatch(settings.originalQuery, searched, languages, settings.log);
  const reading = mismatch ? mismatchedReading(shown.reading, mismatch.reason) : shown.reading;
  const documentLanguage = documentLanguageOf(searched, languages);
  const originalBest = shown.reading.evidence().bestRelevance;
  const tried = new Set([
    queryIdentity(settings.originalQuery),
    ...shown.searchedByServer.map(queryIdentity),
  ]);
  return {
    settings,
    shown,
    body,
    changed: false,
    reading,
    digestSource: shown.digestSource,
    hints: reading.hints,
    hitsShown: shown.hitsShown,
    known: shown.known,
    ...(mismatch ? { mismatch } : {}),
    ...(documentLanguage ? { documentLanguage } : {}),
    ...(originalBest !== undefined && Number.isFinite(originalBest) ? { originalBest } : {}),
    unmatchedTerms: unmatchedTermsOf(reading.hints),
    absentKeyTerms: keyAbsentTermsOf(reading.hints),
    tried,
    ...(settings.originalCollections ? { currentCollections: settings.originalCollections } : {}),
    added: [],
    gradedByModel: false,
    requeriedByModel: false,
    usedModel: false,
    graderMs: 0,
    retries: 0,
    verdicts: [],
    reasons: [],
    queriesTried: [],
    collectionsTried: [],
    requeryMs: [],
    newHits: [],
    spanStartMs: epochMs(),
  };
}

/**
 * Appends the line saying what the pass did not find, unless the query's language explains the
 * miss better. "Not covered" needs evidence that the documents lack the subject: the model read
 * the results and judged so, or a key query word no document contains (`terms`, the pass's
 * `absentKeyTerms`: one unmatched word among many is an aside, not the subject). A low score alone is
 * none: in users' words, and in languages the calibration was not fitted on, an answer in the top
 * 5 often scores below the weak line (bench/results/lohelp.md: "told not covered" with an answer
 * in the top 5). Then the line says only that nothing better was found.
 */
export function sayNotFound(pass: CorrectivePass, reason: string, terms: readonly string[]): CorrectivePass {
  // Words of another language are no sign the documents lack the subject: unless the model
  // read the results, the language note at the end says what went wrong instead.
  if (pass.mismatch && !pass.gradedByModel) return pass;
  if (pass.gradedByModel || terms.length > 0) {
    return {
      ...pass,
      notCovered: { terms: [...terms], reason },
      body: appendNote(pass.body, renderNotCoveredNote({ reason, terms })),
      changed: true,
    };
  }
  return {
    ...pass,
    noBetterMatch: { reason },
    body: appendNote(pass.body, renderNoBetterMatchNote(reason)),
    changed: true,
  };
}

/** The pass with one more verdict (and its reason) in its metadata. */
export function withGrade(pass: CorrectivePass, grade: Grade): CorrectivePass {
  return { ...pass, verdicts: [...pass.verdicts, grade.verdict], reasons: [...pass.reasons, grade.reason] };
}

/** The language note (when due), the metadata and the grade span: the pass's outcome. */
export function finishPass(pass: CorrectivePass): CorrectiveOutcome {
  const { mismatch } = pass;
  const languageNote =
    mismatch !== undefined &&
    !pass.requeriedByModel &&
    pass.notCovered === undefined &&
    !pass.settings.signal?.aborted;
  const body = languageNote
    ? appendNote(
        pass.body,
        renderLanguageNote({
          queryLanguage: mismatch.query.name,
          collections: mismatch.collections.join(", "),
          documentLanguage: mismatch.documentLanguage,
        }),
      )
    : pass.body;
  const verdicts = [...pass.verdicts];
  const metadata: CorrectiveMetadata = {
    graderMode: pass.usedModel ? "haiku" : "signal",
    verdicts,
    reasons: [...pass.reasons],
    queriesTried: [...pass.queriesTried],
    collectionsTried: [...pass.collectionsTried],
    retries: pass.retries,
    finalVerdict: verdicts[verdicts.length - 1] ?? "correct",
    graderMs: Math.round(pass.graderMs),
    requeryMs: [...pass.requeryMs],
    newHits: [...pass.newHits],
  };
  if (pass.notCovered) metadata.notCovered = pass.notCovered;
  if (pass.noBetterMatch) metadata.noBetterMatch = pass.noBetterMatch;
  if (mismatch) metadata.languageMismatch = { query: mismatch.query.tag, documents: mismatch.documentTags };
  if (pass.usedModel || verdicts.some((v) => v !== "correct")) {
    emitGradeSpan(pass.settings.traceParent, metadata, { startMs: pass.spanStartMs, endMs: epochMs() });
  }
  return {
    changed: pass.changed || languageNote,
    text: body,
    metadata,
    ...(pass.added.length > 0 ? { added: [...pass.added] } : {}),
  };
}

// The grader prompt gets the end of the question (the current turn), bounded.
function boundedQuestion(question: string, query: string): string {
  const text = typeof question === "string" && question.trim() !== "" ? question.trim() : query;
  return text.length > SEARCH_LIMITS.queryChars ? text.slice(-SEARCH_LIMITS.queryChars) : text;
}
