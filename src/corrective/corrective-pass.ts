// The corrective pass, start to finish: the value it hands from step to step, its steps (grade,
// choose re-queries, search them, merge what they found) and the loop that runs them. Read top
// to bottom it is the order a pass runs in; each step takes a pass and returns the next one.

import { type Context, context } from "@opentelemetry/api";
import { DEADLINES, withDeadline } from "../deadline.js";
import { renderHits } from "../knowledge-tool/render.js";
import {
  appendCorrection,
  appendNote,
  docKey,
  renderFooter,
  renderLanguageNote,
  renderNoBetterMatchNote,
  renderNotCoveredNote,
  renderRequeryNote,
} from "../knowledge-tool/result-text.js";
import { clampHitLimit, positiveOrUndefined, SEARCH_LIMITS } from "../limits.js";
import { type Logger, logger } from "../telemetry/logger.js";
import { emitGradeSpan, epochMs, type RequerySpan, startRequerySpan } from "../telemetry/tool-span.js";
import { clipText } from "../text-clip.js";
import type {
  CorrectiveMetadata,
  CorrectiveOutcome,
  Grade,
  GraderMode,
  Hit,
  KnowledgeBackend,
  RetryHints,
  SearchRequest,
  SearchResponse,
  Verdict,
} from "../types.js";
import { HIGH_BAND_MIN, isWeak } from "../weakness.js";
import { clampBudget, DEFAULT_GRADER_TIMEOUT_MS } from "./corrective-config.js";
import { CorrectiveError } from "./corrective-error.js";
import { type FusedHit, fuseRankings } from "./fusion.js";
import type { GradeFn } from "./llm-grade.js";
import { gradeWithModel } from "./llm-grade.js";
import {
  modelCandidates,
  queryIdentity,
  type RequeryCandidate,
  requeryScope,
  signalCandidates,
} from "./requery.js";
import type { Reading, ShownResult } from "./signal-grader.js";
import {
  type CorrectiveLanguages,
  documentLanguageOf,
  isBorderline,
  keyAbsentTermsOf,
  type LanguageMismatch,
  languageMismatch,
  maxRelevance,
  mismatchedReading,
  readShownResult,
  unmatchedTermsOf,
} from "./signal-grader.js";

export type { CorrectiveLanguages } from "./signal-grader.js";

// The value one corrective pass hands from step to step (`runCorrectiveRetrieval` runs the steps): its
// settings, resolved once; what the result shows (`ShownResult`); the text so far; and what the
// pass records for its metadata. Each step takes a pass and returns the next one — nothing
// changes a pass in place — so a step's effect is what it returns. Starting a pass, recording a
// grade, the "not found" line and finishing (the language note, the metadata, the grade span)
// live here too.

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
  /** Those of them that are the question's subject (signal-grader.ts `keyAbsentTermsOf`). */
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
  // Read once: its coverage (how the query's words met the documents, when the search ran
  // in-process) and its best relevance.
  const shownEvidence = shown.reading.evidence();
  const mismatch = languageMismatch(settings.originalQuery, searched, languages, settings.log, shownEvidence);
  const reading = mismatch ? mismatchedReading(shown.reading, mismatch.reason) : shown.reading;
  const documentLanguage = documentLanguageOf(searched, languages);
  const originalBest = shownEvidence.bestRelevance;
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

// The corrective pass for one knowledge-search result (docs/design.md §5, docs/reference/muninn-corrective-retrieval.md §6): grade → pick a
// re-query → search inside the call's allow-list with rerank → merge the new hits → grade the
// merged set while the budget lasts. A loop, never recursive; every awaited step is bounded;
// every failure leaves the text as it was. Where muninn went wrong (docs/reference/muninn-corrective-retrieval.md §10), this fixes:
// the re-query stays in the allow-list (8), carries limit/brief/minRelevance (9), sees a weak
// result without hints (10, via the signal grader), does not leave a rescued "No results"
// search insufficient (11), makes no grader call after the last re-query (12), records one
// verdict per re-query (13) and takes hints from the trailing footer only (14).
//
// Each step is a function of its own that takes the pass and returns the next one with what it
// decided: gradeStep, chooseRequery, searchStep and mergeStep (below, in that order), the last
// re-reading the merged result for the next gradeStep. No step changes a pass in place. What the
// result shows is read once, at the edge, by one of two readers (signal-grader.ts
// `readShownResult`): the structured response of an in-process search, or the text of one we
// only see as text.

export async function runCorrectiveRetrieval(input: CorrectiveRetrievalInput): Promise<CorrectiveOutcome> {
  const settings = passSettings(input);
  // The one place the two kinds of result part: structure when the search ran in-process.
  const shown = readShownResult(input.originalResponse, input.originalText, input.brief === true);
  const started = startPass(settings, shown, input.originalText, input.languages);
  if (started.settings.signal?.aborted) return finishPass(started);
  const { pass, notFound } = await correctiveRounds(started);
  return finishPass(notFound ? sayNotFound(pass, notFound.reason, notFound.terms) : pass);
}

/**
 * grade → (choose re-query → search → merge → re-grade) while the grade asks for it and the
 * budget lasts: the last pass, and the line it owes the model when it stopped without better.
 */
async function correctiveRounds(
  start: CorrectivePass,
): Promise<{ pass: CorrectivePass; notFound?: NotFound }> {
  const { budget, signal } = start.settings;
  let pass = start;
  // The grade in hand; undefined when the text changed and must be graded (again).
  let grade: Grade | undefined;
  for (;;) {
    if (grade === undefined) ({ pass, grade } = await gradeStep(pass, pass.retries >= budget));
    if (grade.verdict === "correct" || pass.retries >= budget || signal?.aborted) return { pass };
    const plan = chooseRequery(pass, grade);
    if ("stop" in plan) return plan.notCovered ? { pass, notFound: plan.notCovered } : { pass };
    const searched = await searchStep(pass, plan);
    if (!searched) return { pass };
    const merged = mergeStep(searched.pass, plan, searched.found, grade);
    pass = merged.pass;
    if (merged.outcome === "stop") return merged.notFound ? { pass, notFound: merged.notFound } : { pass };
    if (merged.outcome === "appended") grade = undefined;
  }
}

// Step "grade" (and "re-grade") of the corrective pass: the signal's grade of the current
// reading, or the model's where the setting asks for it ("haiku" always, "auto" where the
// signal is borderline) — never after the last re-query, since nothing could act on it. It
// returns the grade and the pass with the grade recorded.

/** A step's grade and the pass that recorded it. */
export interface Graded {
  pass: CorrectivePass;
  grade: Grade;
}

export async function gradeStep(pass: CorrectivePass, afterLastRequery: boolean): Promise<Graded> {
  const { settings } = pass;
  const started = settings.now();
  const grade = settings.grade;
  const wantModel =
    !afterLastRequery &&
    grade !== undefined &&
    (settings.setting === "haiku" || (settings.setting === "auto" && isBorderline(pass.reading.evidence())));
  if (!wantModel || !grade) {
    const graded = pass.reading.signalGrade;
    const next = { ...pass, gradedByModel: false, graderMs: pass.graderMs + (settings.now() - started) };
    return { pass: withGrade(next, graded), grade: graded };
  }
  const graded = await gradeWithModel(
    grade,
    {
      question: settings.question,
      text: pass.body,
      digestSource: pass.digestSource,
      collections: settings.allowed,
      ...(pass.documentLanguage ? { documentLanguage: pass.documentLanguage } : {}),
      ...(pass.mismatch ? { queryLanguage: pass.mismatch.query.name } : {}),
    },
    {
      timeoutMs: settings.graderTimeoutMs,
      ...(settings.signal ? { signal: settings.signal } : {}),
      log: settings.log,
    },
  );
  // A failed or unusable model grade is `correct` and carries nothing: the text stands.
  const next = {
    ...pass,
    usedModel: true,
    gradedByModel: true,
    graderMs: pass.graderMs + (settings.now() - started),
  };
  return { pass: withGrade(next, graded), grade: graded };
}

// Step "choose re-query" of the corrective pass: the round's candidates (a model grade's own,
// else the signal's from the current hints) and where they may search (inside the allow-list),
// or why the pass stops here — with the "not covered" line it owes the model, if any. It changes
// nothing: the plan carries the queries tried with this round's, for the search step to keep.

export const REASON_NO_CANDIDATE = "no re-query could be derived from the query";
export const REASON_KEY_TERM_ABSENT = "the question's key words occur in no document";

/** One round's plan: what to search, where, and whose candidates they are. */
export interface RequeryPlan {
  candidates: RequeryCandidate[];
  collections: string[];
  /** The candidates are the model grader's (no next page, no rescue bar). */
  fromModel: boolean;
  /** queryIdentity() of every query tried, this round's candidates included. */
  tried: ReadonlySet<string>;
}

/** The pass stops; `notCovered` is the note to append first, when one is due. */
export interface RequeryStop {
  stop: string;
  notCovered?: NotFound;
}

/** Picks the round's re-queries; the chosen ones count as tried from the plan on. */
export function chooseRequery(pass: CorrectivePass, grade: Grade): RequeryPlan | RequeryStop {
  const { settings, unmatchedTerms, absentKeyTerms } = pass;
  const fromModel = pass.gradedByModel;
  let candidates = fromModel ? modelCandidates(grade, settings.originalQuery, pass.tried) : [];
  if (fromModel && candidates.length === 0 && grade.verdict === "insufficient") {
    // The model read the results and judged the documents silent, offering no query: a
    // re-search on the signal's hints would only append what it already judged off-topic.
    return {
      stop: "the model offered no re-query",
      notCovered: { reason: grade.reason, terms: unmatchedTerms },
    };
  }
  if (!fromModel && pass.retries === 0 && absentKeyTerms.length > 0) {
    // The subject occurs nowhere: every re-query the signal can derive drops it, so whatever
    // one finds answers another question ("connect to a database" for "… a PostgreSQL database").
    return {
      stop: REASON_KEY_TERM_ABSENT,
      notCovered: { reason: REASON_KEY_TERM_ABSENT, terms: absentKeyTerms },
    };
  }
  if (candidates.length === 0) candidates = signalCandidates(pass.hints, pass.tried);
  if (candidates.length === 0) {
    settings.log.debug({ query: clipText(settings.originalQuery, 200) }, "corrective: no re-query candidate");
    return pass.retries === 0 && absentKeyTerms.length > 0
      ? { stop: REASON_NO_CANDIDATE, notCovered: { reason: REASON_NO_CANDIDATE, terms: absentKeyTerms } }
      : { stop: REASON_NO_CANDIDATE };
  }
  const scope = requeryScope(settings.allowed, pass.currentCollections, grade.suggestedCollection);
  if ("stop" in scope) {
    settings.log.info({ reason: scope.stop }, "corrective: no collection to re-query");
    return { stop: scope.stop };
  }
  if (grade.suggestedCollection !== undefined && !scope.redirected) {
    settings.log.info(
      { suggested: grade.suggestedCollection },
      "corrective: suggested collection is outside the call's allow-list; ignored",
    );
  }
  const tried = new Set([...pass.tried, ...candidates.map((c) => queryIdentity(c.query))]);
  return { candidates, collections: scope.collections, fromModel, tried };
}

// Step "search" of the corrective pass: one round's candidates in parallel, each bounded, inside
// the round's span, with the original query's next page beside them on a signal rescue; a
// failed candidate is logged and left out. The round counts only when one of them answered: then
// it returns what was found and the pass that counted it.

/** One candidate's search that answered. */
export interface CandidateResult {
  query: string;
  origin: string;
  response: SearchResponse;
  /** The share of the original query's weight the re-query keeps, when the index said. */
  keptShare?: number;
}

/** What a round's searches found. */
export interface RoundSearch {
  round: RequerySpan;
  /** The candidates that answered, in the plan's order. */
  answered: CandidateResult[];
  /** The original query's next page, when it was searched and answered. */
  continuation?: CandidateResult;
}

/** A round that counted: what its searches found, and the pass that counted it. */
export interface Searched {
  pass: CorrectivePass;
  found: RoundSearch;
}

export async function searchStep(pass: CorrectivePass, plan: RequeryPlan): Promise<Searched | undefined> {
  const { settings } = pass;
  const started = settings.now();
  // One span per re-query: the round's candidates (and the next page) are its searches.
  const round = startRequerySpan(
    settings.traceParent,
    plan.candidates.map((c) => c.query),
    plan.collections,
  );
  // Not a candidate (never named in the note, never counted as tried): only fused.
  // A page shorter than its limit was everything the query matched: there is no next page.
  const nextPage =
    plan.fromModel || pass.retries > 0 || pass.hitsShown < clampHitLimit(settings.limit)
      ? undefined
      : runCandidate(
          pass,
          round,
          { query: settings.originalQuery, origin: "query" },
          plan.collections,
          nextPageLimit(settings.limit),
        );
  const settled = await Promise.all(
    plan.candidates.map((candidate) => runCandidate(pass, round, candidate, plan.collections)),
  );
  const continuation = await nextPage;
  const answered = settled.filter((r): r is CandidateResult => r !== undefined);
  if (answered.length === 0) {
    round.failed();
    // Not counted: nothing was learned, and the text stays exactly as it was.
    settings.log.warn(
      { queries: plan.candidates.map((c) => clipText(c.query, 200)) },
      "corrective: every re-query failed; keeping the result",
    );
    return undefined;
  }
  const counted: CorrectivePass = {
    ...pass,
    tried: plan.tried,
    retries: pass.retries + 1,
    requeriedByModel: pass.requeriedByModel || plan.fromModel,
    queriesTried: [...pass.queriesTried, ...answered.map((r) => r.query)],
    collectionsTried: [...pass.collectionsTried, plan.collections],
    requeryMs: [...pass.requeryMs, Math.round(settings.now() - started)],
    currentCollections: plan.collections,
  };
  return { pass: counted, found: { round, answered, ...(continuation ? { continuation } : {}) } };
}

/** One candidate's search, bounded, inside its round's span; undefined when it failed (logged). */
async function runCandidate(
  pass: CorrectivePass,
  round: RequerySpan,
  candidate: RequeryCandidate,
  collections: string[],
  limit = pass.settings.limit,
): Promise<CandidateResult | undefined> {
  const { settings } = pass;
  const { query, origin, keptShare } = candidate;
  const request: SearchRequest = { query, collections, rerank: true };
  if (limit !== undefined) request.limit = limit;
  if (settings.brief !== undefined) request.brief = settings.brief;
  if (settings.minRelevance !== undefined) request.minRelevance = settings.minRelevance;
  try {
    const response = await withDeadline("re-query", settings.requeryTimeoutMs, settings.signal, (signal) =>
      context.with(round.context, () => settings.backend.search(request, { signal })),
    );
    if (response === null || typeof response !== "object" || !Array.isArray(response.results)) {
      throw new CorrectiveError("malformed-response", "backend returned no results array");
    }
    return keptShare === undefined ? { query, origin, response } : { query, origin, response, keptShare };
  } catch (error) {
    round.candidateFailed(query, error);
    settings.log.warn({ query: clipText(query, 200), err: String(error) }, "corrective: re-query failed");
    return undefined;
  }
}

/** Twice the page the original search showed: its hits plus the next page (the first are dropped as known). */
export function nextPageLimit(limit: number | undefined): number {
  return clampHitLimit(2 * clampHitLimit(limit));
}

// Steps "merge" and the re-reading before "re-grade" of the corrective pass: a round's answers
// fused into one ranking, the unseen hits judged (does the round convince, is anything new?),
// and — when it does — appended under a note, after which the result is read again. A hit of a
// collection outside the call's allow-list is dropped before anything else reads the round,
// whatever the backend returned: the pass never shows a caller a document it may not read.

/** Fused hits appended per round: the best of several rankings, not all of them. */
export const MAX_FUSED_HITS_APPENDED = 5;
/**
 * The signal's rescue also fuses the original query's next page (its hits past those shown): a
 * weak search's answer often sits just below the cut, and that ranking holds every word the user
 * wrote. It weighs as much as three candidates agreeing, so the next page leads unless the
 * candidates concur on something else. Measured on pydocs, Cranfield, CISI and CACM together
 * (bench/results/rescue-candidates.md); the next page only, since a deeper list dilutes it.
 * Searched only when the original page was full (a shorter page was all the query matched).
 */
export const ORIGINAL_NEXT_PAGE_WEIGHT = 3;

export const REASON_RESCUE_NOT_CONFIDENT = "re-queries without those words found no confident match";
export const REASON_RESCUE_EMPTY = "re-queries found nothing";
export const REASON_REQUERY_WEAK = "re-queries found no confident match either";

/** What a round's merge did: the pass stops, goes on unchanged, or re-grades the merged text. */
export type MergeOutcome = "stop" | "unchanged" | "appended";

/** A round merged: what it did, the pass after it, and the line a stop owes the model, if any. */
export interface Merged {
  outcome: MergeOutcome;
  pass: CorrectivePass;
  notFound?: NotFound;
}

/** A round's answers as one ranking (the next page weighted), and the unseen hits of it to append. */
export function fuseRound(
  found: Pick<RoundSearch, "answered" | "continuation">,
  known: ReadonlySet<string>,
  alreadyShown?: (hit: Hit) => boolean,
): { fused: FusedHit[]; fresh: Hit[] } {
  const { answered, continuation } = found;
  const fused = continuation
    ? fuseRankings([continuation.response.results, ...answered.map((r) => r.response.results)], {
        weights: [ORIGINAL_NEXT_PAGE_WEIGHT, ...answered.map(() => 1)],
      })
    : fuseRankings(answered.map((r) => r.response.results));
  const fresh = selectFreshHits(
    fused.map((f) => f.hit),
    known,
    alreadyShown,
  ).slice(0, MAX_FUSED_HITS_APPENDED);
  return { fused, fresh };
}

/** Index candidates that add words the user never wrote (the feedback pass's, rescue-candidates.ts). */
const EXPANDING_STRATEGIES: ReadonlySet<string> = new Set(["feedback_terms", "feedback_expansion"]);

/**
 * Whether a signal re-query is better than the original search, its score read on the original's
 * scale. It must reach the high band: a medium-band re-query of a question the documents do not
 * answer found text about its words, not about the question (on the LibreOffice help in German
 * that appended a median 1,184 characters to every unanswerable question; `npm run bench --
 * lohelp`). And a shorter query scores higher on its own scale, so when the index said which
 * share of the query's weight the re-query keeps (`keptShare`), its best score times that share
 * must beat the original's best: no document it found can score more than that under the
 * original query's words. A candidate that adds words (the feedback pass's) has no such scale —
 * its added words come from the original ranking's own leading sections, so it scores their
 * neighbours high by construction — and is no evidence: on pydocs, lohelp-en and nodejs-api it
 * was the only high-band re-query of every unanswerable question that appended 2,000–3,400
 * characters (`npm run bench -- rescue`). A text-only result's footer candidates carry no share
 * and keep the high-band rule alone.
 */
export function isBetterThanOriginal(r: CandidateResult, originalBest: number | undefined): boolean {
  const best = r.response.bestScore;
  if (!(best >= HIGH_BAND_MIN)) return false;
  if (r.keptShare === undefined) return true;
  if (EXPANDING_STRATEGIES.has(r.origin)) return false;
  return originalBest === undefined || best * r.keptShare > originalBest;
}

/**
 * Whether a signal rescue's answers are too weak to append: none is better than the original
 * (`isBetterThanOriginal`). A model's re-queries are never held to it; `auto` asks the model
 * where the signal cannot tell.
 */
export function isUnconvincing(
  answered: readonly CandidateResult[],
  fromModel: boolean,
  originalBest?: number,
): boolean {
  if (fromModel) return false;
  return !answered.some((r) => isBetterThanOriginal(r, originalBest));
}

export function mergeStep(pass: CorrectivePass, plan: RequeryPlan, found: RoundSearch, grade: Grade): Merged {
  const scoped = withinScope(found, pass.settings.allowed);
  const { answered } = scoped;
  const { fused, fresh } = fuseRound(scoped, pass.known, pass.shown.alreadyShown);
  const unconvincing = isUnconvincing(answered, plan.fromModel, pass.originalBest);
  const newHits = unconvincing ? 0 : fresh.length;
  found.round.succeeded({ queries: answered.map((r) => r.query), newHits });
  const counted: CorrectivePass = { ...pass, newHits: [...pass.newHits, newHits] };

  if (unconvincing) {
    // The model then reads the original result and one line saying what was not found.
    const reason = pass.unmatchedTerms.length > 0 ? REASON_RESCUE_NOT_CONFIDENT : REASON_REQUERY_WEAK;
    const stopped = withGrade(counted, { verdict: grade.verdict, reason });
    // A later round keeps what an earlier one appended; only a first one says "not covered".
    return pass.retries === 1
      ? { outcome: "stop", pass: stopped, notFound: { reason, terms: pass.absentKeyTerms } }
      : { outcome: "stop", pass: stopped };
  }
  if (fresh.length === 0) {
    if (fused.length === 0 && pass.retries === 1) {
      // Not one candidate matched anything: nothing in the documents to show.
      const stopped = withGrade(counted, { verdict: grade.verdict, reason: REASON_RESCUE_EMPTY });
      const reason = plan.fromModel ? grade.reason : REASON_RESCUE_EMPTY;
      return { outcome: "stop", pass: stopped, notFound: { reason, terms: pass.absentKeyTerms } };
    }
    // Nothing new to show: the text and its grade stand; another round may still help.
    const searched = answered.map((r) => `"${clipText(r.query, 200)}"`).join(", ");
    const reason = `re-queries ${searched} added no new results`;
    return { outcome: "unchanged", pass: withGrade(counted, { verdict: grade.verdict, reason }) };
  }
  return { outcome: "appended", pass: appendFresh(counted, plan, answered, fresh, grade) };
}

/**
 * The round's answers with every hit outside `allowed` dropped; a response that lost hits scores
 * as its best remaining hit, so a dropped hit's score never makes the round look convincing.
 */
export function withinScope(
  found: Pick<RoundSearch, "answered" | "continuation">,
  allowed: readonly string[],
): Pick<RoundSearch, "answered" | "continuation"> {
  const inside = new Set(allowed);
  const scoped = (r: CandidateResult): CandidateResult => {
    const { results } = r.response;
    if (results.every((hit) => inside.has(hit?.collection))) return r;
    const kept = results.filter((hit) => inside.has(hit?.collection));
    const bestScore = Math.min(r.response.bestScore, maxRelevance(kept));
    return { ...r, response: { ...r.response, results: kept, bestScore } };
  };
  return {
    answered: found.answered.map(scoped),
    ...(found.continuation ? { continuation: scoped(found.continuation) } : {}),
  };
}

/** The fresh hits under the round's note, then the merged result read again for the re-grade. */
function appendFresh(
  pass: CorrectivePass,
  plan: RequeryPlan,
  answered: readonly CandidateResult[],
  fresh: Hit[],
  grade: Grade,
): CorrectivePass {
  const lead = answered[0]!;
  const note = renderRequeryNote({
    n: pass.retries,
    verdict: grade.verdict,
    reason: grade.reason,
    query: lead.query,
    alsoQueries: answered
      .slice(1)
      .filter((r) => r.origin !== "hypothetical_answer")
      .map((r) => r.query),
    expanded: answered.some((r) => r.origin === "hypothetical_answer"),
    collections: plan.collections,
    added: fresh.length,
  });
  const confident = answered.some((r) => !isWeak(r.response));
  const fusedResponse: SearchResponse = {
    query: lead.query,
    results: fresh,
    bestScore: confident ? Math.max(...answered.map((r) => r.response.bestScore)) : maxRelevance(fresh),
    reranked: answered.every((r) => r.response.reranked),
  };
  const body = appendCorrection(
    pass.body,
    note,
    renderAddition(fresh, fusedResponse, { brief: pass.shown.brief, startIndex: pass.hitsShown + 1 }),
  );
  const added = [...pass.added, ...fresh];
  const reread = pass.shown.reread(body, added);
  return {
    ...pass,
    body,
    changed: true,
    added,
    known: new Set([...pass.known, ...fresh.map((hit) => docKey(hit))]),
    hitsShown: pass.hitsShown + fresh.length,
    // The merged text now ends with the fused addition's footer (or none): its hints are the
    // lead candidate's, when that search was weak and offered any.
    hints: isWeak(fusedResponse) && isWeak(lead.response) ? (lead.response.retryHints ?? {}) : {},
    reading: reread.reading,
    digestSource: reread.digestSource,
  };
}

// Merging a re-query into the result the model will read (docs/design.md §4/§5): only hits not already
// shown (the original copy wins), rendered like the hits above, with the re-query's own footer
// when it was weak itself, so the next grading pass sees the latest search's verdict.

/**
 * The re-query's hits whose `collection/id` is neither in `known` nor `alreadyShown(hit)` (for
 * texts too large to index), each once, in the backend's order. Hits without a usable
 * collection or id are dropped; a missing title falls back to the id.
 */
export function selectFreshHits(
  results: readonly unknown[],
  known: ReadonlySet<string>,
  alreadyShown?: (hit: Hit) => boolean,
): Hit[] {
  const fresh: Hit[] = [];
  const seen = new Set<string>();
  for (const candidate of results) {
    if (candidate === null || typeof candidate !== "object") continue;
    const hit = candidate as Hit;
    if (typeof hit.collection !== "string" || hit.collection === "") continue;
    if (typeof hit.id !== "string" || hit.id === "") continue;
    const key = docKey(hit);
    if (known.has(key) || seen.has(key)) continue;
    seen.add(key);
    if (alreadyShown?.(hit)) continue;
    fresh.push(typeof hit.title === "string" && hit.title !== "" ? hit : { ...hit, title: hit.id });
  }
  return fresh;
}

/** The new hits (brief numbering from `startIndex`), then the re-query's footer if it was weak. */
export function renderAddition(
  fresh: readonly Hit[],
  response: SearchResponse,
  options: { brief: boolean; startIndex: number },
): string {
  const rendered = renderHits(fresh, options);
  const footer = isWeak(response) ? renderFooter(response) : "";
  return footer ? `${rendered}\n\n${footer}` : rendered;
}
