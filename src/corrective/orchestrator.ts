// The corrective pass for one knowledge-search result (docs/design.md §5, docs/reference/muninn-corrective-retrieval.md §6): grade → pick a
// re-query → search inside the bot's allow-list with rerank → merge the new hits → grade the
// merged set while the budget lasts. A loop, never recursive; every awaited step is bounded;
// every failure leaves the text as it was. Where muninn went wrong (docs/reference/muninn-corrective-retrieval.md §10), this fixes:
// the re-query stays in the allow-list (8), carries limit/brief/minRelevance (9), sees a weak
// result without hints (10, via the signal grader), does not leave a rescued "No results"
// search insufficient (11), makes no grader call after the last re-query (12), records one
// verdict per re-query (13) and takes hints from the trailing footer only (14).

import { type Context, context } from "@opentelemetry/api";
import { DEADLINES, withDeadline } from "../deadline.js";
import { SecondLookError } from "../errors.js";
import { clampHitLimit, positiveOrUndefined, SEARCH_LIMITS } from "../limits.js";
import { joinNames } from "../protocol/collection-languages.js";
import {
  appendCorrection,
  appendNote,
  renderLanguageNote,
  renderNotCoveredNote,
  renderRequeryNote,
} from "../protocol/corrective-note.js";
import { docKey, renderDocIdLine } from "../protocol/doc-id-line.js";
import { scanResultText } from "../protocol/text-signal.js";
import { HIGH_BAND_MIN, isLanguageMismatch, isWeak, type QueryLanguageGuess } from "../protocol/weakness.js";
import type { RequerySpan } from "../telemetry/corrective-spans.js";
import { emitGradeSpan, epochMs, startRequerySpan } from "../telemetry/corrective-spans.js";
import { type Logger, logger } from "../telemetry/logger.js";
import { clipText } from "../text-clip.js";
import type {
  CollectionLanguage,
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
import { isBorderline, responseEvidence, type SignalEvidence, unmatchedTermsOf } from "./borderline.js";
import { boundedView } from "./bounded-view.js";
import { clampBudget, DEFAULT_GRADER_TIMEOUT_MS } from "./corrective-config.js";
import { fuseRankings } from "./fusion.js";
import { type GradeFn, gradeWithModel } from "./llm-grade.js";
import { renderAddition, selectFreshHits } from "./merge.js";
import { modelCandidates, signalCandidates } from "./requery-candidates.js";
import { queryIdentity } from "./requery-choice.js";
import { requeryScope } from "./requery-scope.js";
import { countDocIdLines, detectBriefMode } from "./result-shape.js";
import { gradeFromResponse, gradeFromText } from "./signal-grader.js";

/** `auto`: the signal grades, and the model only where the signal is borderline. */
export type GraderSetting = GraderMode | "auto";

/** Bound on one re-query (the backend call); a round's candidates run in parallel under it. */
export const DEFAULT_REQUERY_TIMEOUT_MS = DEADLINES.requeryMs;
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

export const REASON_NO_CANDIDATE = "no re-query could be derived from the query";
export const REASON_RESCUE_NOT_CONFIDENT = "re-queries without those words found no confident match";
export const REASON_RESCUE_EMPTY = "re-queries found nothing";
export const REASON_REQUERY_WEAK = "re-queries found no confident match either";

/**
 * The documents' languages and a detector for the query's: a query written in another language
 * than every collection it searched is weak whatever it scored (protocol/weakness.ts).
 */
export interface CorrectiveLanguages {
  /** Each collection's document language; a collection not named here has none known. */
  collections: Readonly<Record<string, CollectionLanguage>>;
  /** The query's language as a detector reads it (undefined: no verdict). */
  guess: (query: string) => QueryLanguageGuess | undefined;
}

/** What the pass found about the original query's language. */
interface LanguageMismatch {
  query: QueryLanguageGuess;
  /** The searched collections' languages, by name ("English"). */
  documentLanguage: string;
  /** Their supported tags. */
  documentTags: string[];
  collections: string[];
  reason: string;
}

/** One candidate's search that answered. */
interface CandidateResult {
  query: string;
  origin: string;
  response: SearchResponse;
}

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
  /** The bot's allow-list: a re-query never searches outside it. */
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

/** What the grader sees of the current text, and what the merge needs to know about it. */
interface Reading {
  signalGrade: Grade;
  hints: RetryHints;
  evidence: () => SignalEvidence;
}

export async function runCorrectiveRetrieval(input: CorrectiveRetrievalInput): Promise<CorrectiveOutcome> {
  const now = input.now ?? (() => performance.now());
  const log = input.log ?? logger();
  const budget = clampBudget(input.budget);
  const setting = input.grader ?? "signal";
  const graderTimeoutMs = positiveOrUndefined(input.graderTimeoutMs) ?? DEFAULT_GRADER_TIMEOUT_MS;
  const requeryTimeoutMs = positiveOrUndefined(input.requeryTimeoutMs) ?? DEFAULT_REQUERY_TIMEOUT_MS;
  const traceParent = input.traceContext ?? context.active();
  const spanStartMs = epochMs();
  const original = input.originalResponse;
  const question = boundedQuestion(input.question, input.originalQuery);
  const allowed = [...new Set(input.allowedCollections)];

  let body = input.originalText;
  let changed = false;
  let view = boundedView(body);
  const originalView = view;
  // Everything the text already shows, so a re-query adds only what is new.
  const known = new Set<string>();
  let hitsShown: number;
  let brief: boolean;
  const merged: Hit[] = original ? [...original.results] : [];
  let reading: Reading;
  if (original) {
    for (const hit of original.results) known.add(docKey(hit));
    hitsShown = original.results.length;
    brief = input.brief === true;
    reading = readResponse(original, original.bestScore);
  } else {
    const graded = gradeFromText(view.view);
    for (const key of graded.docKeys) known.add(key);
    hitsShown = view.truncated ? countDocIdLines(body) : graded.docKeys.length;
    brief = detectBriefMode(view.view) ?? input.brief === true;
    reading = readText(view.view, graded);
  }
  const mismatch = languageMismatch(
    input.originalQuery,
    input.originalCollections ?? allowed,
    input.languages,
    log,
  );
  if (mismatch) reading = mismatchedReading(reading, mismatch.reason);
  // A text too large to index whole: a re-query hit counts as shown if its doc-id line is in it.
  const originalBody = body;
  const alreadyShown =
    !original && originalView.truncated
      ? (hit: Hit) => originalBody.includes(renderDocIdLine(hit))
      : undefined;

  const verdicts: Verdict[] = [];
  const reasons: string[] = [];
  const queriesTried: string[] = [];
  const collectionsTried: string[][] = [];
  const requeryMs: number[] = [];
  const newHits: number[] = [];
  let retries = 0;
  let graderMs = 0;
  let usedModel = false;
  const tried = new Set([queryIdentity(input.originalQuery)]);
  // A Huginn server that already ran its own rescue has searched these; asking again is waste.
  for (const query of input.originalResponse?.rescue?.queriesTried ?? []) {
    if (typeof query === "string") tried.add(queryIdentity(query));
  }
  let currentCollections = input.originalCollections;
  let hints = reading.hints;

  /** One candidate's search, bounded, inside its round's span; undefined when it failed (logged). */
  const runCandidate = async (
    round: RequerySpan,
    query: string,
    collections: string[],
    limit = input.limit,
  ): Promise<CandidateResult | undefined> => {
    const request: SearchRequest = { query, collections, rerank: true };
    if (limit !== undefined) request.limit = limit;
    if (input.brief !== undefined) request.brief = input.brief;
    if (input.minRelevance !== undefined) request.minRelevance = input.minRelevance;
    try {
      const response = await withDeadline("re-query", requeryTimeoutMs, input.signal, (signal) =>
        context.with(round.context, () => input.backend.search(request, { signal })),
      );
      if (response === null || typeof response !== "object" || !Array.isArray(response.results)) {
        throw new SecondLookError("corrective", "malformed-response", "backend returned no results array");
      }
      return { query, origin: originOf(query), response };
    } catch (error) {
      round.candidateFailed(query, error);
      log.warn({ query: clipForLog(query), err: String(error) }, "corrective: re-query failed");
      return undefined;
    }
  };
  const origins = new Map<string, string>();
  const originOf = (query: string) => origins.get(query) ?? "query";

  // Whether the grade in hand came from the model (its candidates then lead the round).
  let gradedByModel = false;
  // Whether a model-graded round re-searched (the model then searched in the documents' words).
  let requeriedByModel = false;
  const searchedLanguage = documentLanguageOf(input.originalCollections ?? allowed, input.languages);
  const gradeLanguages = {
    ...(searchedLanguage ? { documentLanguage: searchedLanguage } : {}),
    ...(mismatch ? { queryLanguage: mismatch.query.name } : {}),
  };
  const gradePass = async (afterLastRequery: boolean): Promise<Grade> => {
    const started = now();
    gradedByModel = false;
    try {
      const wantModel =
        !afterLastRequery &&
        input.grade !== undefined &&
        (setting === "haiku" || (setting === "auto" && isBorderline(reading.evidence())));
      if (!wantModel || !input.grade) return reading.signalGrade;
      usedModel = true;
      const graded = await gradeWithModel(
        input.grade,
        { question, text: body, digestSource: view.view, ...gradeLanguages },
        { timeoutMs: graderTimeoutMs, ...(input.signal ? { signal: input.signal } : {}), log },
      );
      // A failed or unusable model grade is `correct` and carries nothing: the text stands.
      gradedByModel = true;
      return graded;
    } finally {
      graderMs += now() - started;
    }
  };
  // The query words no document contains, as the original search's index reported them.
  const unmatchedTerms = unmatchedTermsOf(reading.hints);
  let notCovered: CorrectiveMetadata["notCovered"];
  const sayNotCovered = (reason: string, terms: readonly string[]) => {
    // Words of another language are no sign the documents lack the subject: unless the model
    // read the results, the language note at the end says what went wrong instead.
    if (mismatch && !gradedByModel) return;
    notCovered = { terms: [...terms], reason };
    body = appendNote(body, renderNotCoveredNote({ reason, terms }));
    changed = true;
  };

  if (!input.signal?.aborted) {
    let grade = await gradePass(false);
    verdicts.push(grade.verdict);
    reasons.push(grade.reason);

    while (grade.verdict !== "correct" && retries < budget && !input.signal?.aborted) {
      const fromModel = gradedByModel;
      let candidates = fromModel ? modelCandidates(grade, input.originalQuery, tried) : [];
      if (fromModel && candidates.length === 0 && grade.verdict === "insufficient") {
        // The model read the results and judged the documents silent, offering no query: a
        // re-search on the signal's hints would only append what it already judged off-topic.
        sayNotCovered(grade.reason, unmatchedTerms);
        break;
      }
      if (candidates.length === 0) candidates = signalCandidates(hints, tried);
      if (candidates.length === 0) {
        log.debug({ query: clipForLog(input.originalQuery) }, "corrective: no re-query candidate");
        if (retries === 0 && unmatchedTerms.length > 0) sayNotCovered(REASON_NO_CANDIDATE, unmatchedTerms);
        break;
      }
      const scope = requeryScope(allowed, currentCollections, grade.suggestedCollection);
      if ("stop" in scope) {
        log.info({ reason: scope.stop }, "corrective: no collection to re-query");
        break;
      }
      if (grade.suggestedCollection !== undefined && !scope.redirected) {
        log.info(
          { suggested: grade.suggestedCollection },
          "corrective: suggested collection is outside the bot's allow-list; ignored",
        );
      }
      for (const candidate of candidates) {
        tried.add(queryIdentity(candidate.query));
        origins.set(candidate.query, candidate.origin);
      }

      const started = now();
      // One span per re-query: the round's candidates (and the next page) are its searches.
      const round = startRequerySpan(
        traceParent,
        candidates.map((c) => c.query),
        scope.collections,
      );
      // Not a candidate (never named in the note, never counted as tried): only fused.
      // A page shorter than its limit was everything the query matched: there is no next page.
      const nextPage =
        fromModel || retries > 0 || hitsShown < clampHitLimit(input.limit)
          ? undefined
          : runCandidate(round, input.originalQuery, scope.collections, nextPageLimit(input.limit));
      const settled = await Promise.all(
        candidates.map((candidate) => runCandidate(round, candidate.query, scope.collections)),
      );
      const continuation = await nextPage;
      const answered = settled.filter((r): r is CandidateResult => r !== undefined);
      if (answered.length === 0) {
        round.failed();
        // Not counted: nothing was learned, and the text stays exactly as it was.
        log.warn(
          { queries: candidates.map((c) => clipForLog(c.query)) },
          "corrective: every re-query failed; keeping the result",
        );
        break;
      }
      retries++;
      if (fromModel) requeriedByModel = true;
      const searched = answered.map((r) => r.query);
      queriesTried.push(...searched);
      collectionsTried.push(scope.collections);
      requeryMs.push(Math.round(now() - started));
      currentCollections = scope.collections;

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
      const confident = answered.some((r) => !isWeak(r.response));
      // The signal's rescue appends only what a re-query found clearly, in the high band. A
      // medium-band re-query of a question the documents do not answer found more text about
      // its words, not about the question: on the LibreOffice help in German that appended a
      // median 1,184 characters to every unanswerable question, and over the 11 languages it
      // rescued 7 of 160 flagged misses; the high band rescues 2 and adds nothing
      // (bench/results/signal-noise.md). A shorter query also
      // scores higher on its own scale, so "not weak" is no evidence. The model then reads the
      // original result and one line saying what was not found; `auto` asks the model instead.
      const clearlyFound = answered.some((r) => r.response.bestScore >= HIGH_BAND_MIN);
      const unconvincing = !fromModel && !clearlyFound;
      newHits.push(unconvincing ? 0 : fresh.length);
      round.succeeded({ queries: searched, newHits: newHits[newHits.length - 1]! });

      if (unconvincing) {
        const reason = unmatchedTerms.length > 0 ? REASON_RESCUE_NOT_CONFIDENT : REASON_REQUERY_WEAK;
        verdicts.push(grade.verdict);
        reasons.push(reason);
        // A later round keeps what an earlier one appended; only a first one says "not covered".
        if (retries === 1) sayNotCovered(reason, unmatchedTerms);
        break;
      }
      if (fresh.length === 0) {
        verdicts.push(grade.verdict);
        if (fused.length === 0 && retries === 1) {
          // Not one candidate matched anything: nothing in the documents to show.
          reasons.push(REASON_RESCUE_EMPTY);
          sayNotCovered(fromModel ? grade.reason : REASON_RESCUE_EMPTY, unmatchedTerms);
          break;
        }
        // Nothing new to show: the text and its grade stand; another round may still help.
        reasons.push(
          `re-queries ${searched.map((q) => `"${clipForLog(q)}"`).join(", ")} added no new results`,
        );
        continue;
      }
      const lead = answered[0]!;
      const note = renderRequeryNote({
        n: retries,
        verdict: grade.verdict,
        reason: grade.reason,
        query: lead.query,
        alsoQueries: answered
          .slice(1)
          .filter((r) => r.origin !== "hypothetical_answer")
          .map((r) => r.query),
        expanded: answered.some((r) => r.origin === "hypothetical_answer"),
        collections: scope.collections,
        added: fresh.length,
      });
      const fusedResponse: SearchResponse = {
        query: lead.query,
        results: fresh,
        bestScore: confident ? Math.max(...answered.map((r) => r.response.bestScore)) : maxRelevance(fresh),
        reranked: answered.every((r) => r.response.reranked),
      };
      body = appendCorrection(
        body,
        note,
        renderAddition(fresh, fusedResponse, { brief, startIndex: hitsShown + 1 }),
      );
      changed = true;
      for (const hit of fresh) known.add(docKey(hit));
      hitsShown += fresh.length;
      merged.push(...fresh);
      // The merged text now ends with the fused addition's footer (or none): its hints are the
      // lead candidate's, when that search was weak and offered any.
      hints = isWeak(fusedResponse) && isWeak(lead.response) ? (lead.response.retryHints ?? {}) : {};
      if (original) {
        // The merged hits' own relevance decides: the original's hints spoke of its hits alone.
        const { retryHints: _originalHints, ...originalFields } = original;
        reading = readResponse({ ...originalFields, results: merged }, maxRelevance(merged));
      } else {
        view = boundedView(body);
        reading = readText(view.view, gradeFromText(view.view));
      }
      grade = await gradePass(retries >= budget);
      verdicts.push(grade.verdict);
      reasons.push(grade.reason);
    }
  }

  if (mismatch && !requeriedByModel && notCovered === undefined && !input.signal?.aborted) {
    body = appendNote(
      body,
      renderLanguageNote({
        queryLanguage: mismatch.query.name,
        collections: mismatch.collections.join(", "),
        documentLanguage: mismatch.documentLanguage,
      }),
    );
    changed = true;
  }

  const metadata: CorrectiveMetadata = {
    graderMode: usedModel ? "haiku" : "signal",
    verdicts,
    reasons,
    queriesTried,
    collectionsTried,
    retries,
    finalVerdict: verdicts[verdicts.length - 1] ?? "correct",
    graderMs: Math.round(graderMs),
    requeryMs,
    newHits,
  };
  if (notCovered) metadata.notCovered = notCovered;
  if (mismatch) metadata.languageMismatch = { query: mismatch.query.tag, documents: mismatch.documentTags };
  if (usedModel || verdicts.some((v) => v !== "correct")) {
    emitGradeSpan(traceParent, metadata, { startMs: spanStartMs, endMs: epochMs() });
  }
  return { changed, text: body, metadata };
}

/**
 * The original query's language against the searched collections' (undefined unless every one
 * of them has a known language and the query is clearly in none of them). A detector that
 * throws detects nothing.
 */
function languageMismatch(
  query: string,
  collections: readonly string[],
  languages: CorrectiveLanguages | undefined,
  log: Logger,
): LanguageMismatch | undefined {
  if (!languages || collections.length === 0) return undefined;
  const known = collections.map((c) => languages.collections[c]);
  if (known.some((l) => l === undefined || l.tags.length === 0)) return undefined;
  const tags = [...new Set(known.flatMap((l) => l!.tags))];
  let guess: QueryLanguageGuess | undefined;
  try {
    guess = languages.guess(query);
  } catch (error) {
    log.debug({ err: String(error) }, "corrective: query language unknown");
    return undefined;
  }
  if (!guess || !isLanguageMismatch(query, guess, tags)) return undefined;
  const documentLanguage = joinNames([...new Set(known.map((l) => l!.name))]);
  return {
    query: guess,
    documentLanguage,
    documentTags: tags,
    collections: [...collections],
    reason: `the query is in ${guess.name}, but the documents searched are in ${documentLanguage}`,
  };
}

/** The searched collections' language by name, when every one of them has a known one. */
function documentLanguageOf(
  collections: readonly string[],
  languages: CorrectiveLanguages | undefined,
): string | undefined {
  if (!languages || collections.length === 0) return undefined;
  const known = collections.map((c) => languages.collections[c]);
  if (known.some((l) => l === undefined || l.tags.length === 0)) return undefined;
  return joinNames([...new Set(known.map((l) => l!.name))]);
}

/** The first reading of a search whose query is in another language: weak, and worth a model's look. */
function mismatchedReading(reading: Reading, reason: string): Reading {
  return {
    signalGrade: { verdict: "insufficient", reason },
    hints: reading.hints,
    evidence: () => ({ ...reading.evidence(), weak: true, languageMismatch: true }),
  };
}

/** Twice the page the original search showed: its hits plus the next page (the first are dropped as known). */
function nextPageLimit(limit: number | undefined): number {
  return clampHitLimit(2 * clampHitLimit(limit));
}

/** Grading from structured hits: the merged set's best relevance decides, not re-parsed text. */
function readResponse(response: SearchResponse, bestScore: number): Reading {
  const graded = { ...response, bestScore };
  const { signal: _signal, ...signalGrade } = gradeFromResponse(graded);
  return {
    signalGrade,
    hints: response.retryHints ?? {},
    evidence: () => responseEvidence(graded),
  };
}

function readText(view: string, graded: ReturnType<typeof gradeFromText>): Reading {
  return {
    signalGrade: { verdict: graded.verdict, reason: graded.reason },
    hints: graded.hints,
    // Only "auto" needs the relevances, so only it pays for the second scan.
    evidence: () => {
      const scan = scanResultText(view);
      return {
        weak: graded.signal !== null,
        hitCount: scan.hitCount,
        hitsWithoutRelevance: scan.hitsWithoutRelevance,
        ...(scan.bestRelevance !== undefined ? { bestRelevance: scan.bestRelevance } : {}),
      };
    },
  };
}

function maxRelevance(hits: readonly Hit[]): number {
  let best = 0;
  for (const hit of hits) if (Number.isFinite(hit.relevance) && hit.relevance > best) best = hit.relevance;
  return best;
}

// The grader prompt gets the end of the question (the current turn), bounded.
function boundedQuestion(question: string, query: string): string {
  const text = typeof question === "string" && question.trim() !== "" ? question.trim() : query;
  return text.length > SEARCH_LIMITS.queryChars ? text.slice(-SEARCH_LIMITS.queryChars) : text;
}

function clipForLog(text: string): string {
  return clipText(text, 200);
}
