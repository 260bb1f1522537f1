// The corrective pass for one knowledge-search result (design §5, muninn §6): grade → pick a
// re-query → search inside the bot's allow-list with rerank → merge the new hits → grade the
// merged set while the budget lasts. A loop, never recursive; every awaited step is bounded;
// every failure leaves the text as it was. Where muninn went wrong (its §10), this fixes:
// the re-query stays in the allow-list (8), carries limit/brief/minRelevance (9), sees a weak
// result without hints (10, via the signal grader), does not leave a rescued "No results"
// search insufficient (11), makes no grader call after the last re-query (12), records one
// verdict per re-query (13) and takes hints from the trailing footer only (14).

import { type Context, context } from "@opentelemetry/api";
import { withDeadline } from "../deadline.js";
import { positiveOrUndefined, SEARCH_LIMITS } from "../limits.js";
import { appendCorrection, renderRequeryNote } from "../protocol/corrective-note.js";
import { docKey, renderDocIdLine } from "../protocol/doc-id-line.js";
import { scanResultText } from "../protocol/text-signal.js";
import { isWeak } from "../protocol/weakness.js";
import { emitGradeSpan, epochMs, startRequerySpan } from "../telemetry/corrective-spans.js";
import { type Logger, logger } from "../telemetry/logger.js";
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
import { isBorderline, type SignalEvidence } from "./borderline.js";
import { boundedView } from "./bounded-view.js";
import { clampBudget, DEFAULT_GRADER_TIMEOUT_MS } from "./corrective-config.js";
import { type GradeFn, gradeWithModel } from "./llm-grade.js";
import { renderAddition, selectFreshHits } from "./merge.js";
import { pickRequery, queryIdentity } from "./requery-choice.js";
import { requeryScope } from "./requery-scope.js";
import { countDocIdLines, detectBriefMode } from "./result-shape.js";
import { gradeFromResponse, gradeFromText } from "./signal-grader.js";

/** `auto`: the signal grades, and the model only where the signal is borderline. */
export type GraderSetting = GraderMode | "auto";

/** Bound on one re-query (the backend call). */
export const DEFAULT_REQUERY_TIMEOUT_MS = 8_000;

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
  budget?: unknown;
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

  const gradePass = async (afterLastRequery: boolean): Promise<Grade> => {
    const started = now();
    try {
      const wantModel =
        !afterLastRequery &&
        input.grade !== undefined &&
        (setting === "haiku" || (setting === "auto" && isBorderline(reading.evidence())));
      if (!wantModel || !input.grade) return reading.signalGrade;
      usedModel = true;
      return await gradeWithModel(
        input.grade,
        { question, text: body, digestSource: view.view },
        { timeoutMs: graderTimeoutMs, ...(input.signal ? { signal: input.signal } : {}), log },
      );
    } finally {
      graderMs += now() - started;
    }
  };

  if (!input.signal?.aborted) {
    let grade = await gradePass(false);
    verdicts.push(grade.verdict);
    reasons.push(grade.reason);

    while (grade.verdict !== "correct" && retries < budget && !input.signal?.aborted) {
      const query = pickRequery(grade.rewrittenQuery, hints, tried);
      if (query === undefined) {
        log.debug({ query: clipForLog(input.originalQuery) }, "corrective: no re-query candidate");
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
      tried.add(queryIdentity(query));
      const request: SearchRequest = { query, collections: scope.collections, rerank: true };
      if (input.limit !== undefined) request.limit = input.limit;
      if (input.brief !== undefined) request.brief = input.brief;
      if (input.minRelevance !== undefined) request.minRelevance = input.minRelevance;

      const span = startRequerySpan(traceParent, query, scope.collections);
      const started = now();
      let response: SearchResponse;
      let fresh: Hit[];
      let nextBody: string | undefined;
      try {
        response = await withDeadline("re-query", requeryTimeoutMs, input.signal, (signal) =>
          context.with(span.context, () => input.backend.search(request, { signal })),
        );
        if (response === null || typeof response !== "object" || !Array.isArray(response.results)) {
          throw new Error("backend returned no results array");
        }
        fresh = selectFreshHits(response.results, known, alreadyShown);
        if (fresh.length > 0) {
          const note = renderRequeryNote({
            n: retries + 1,
            verdict: grade.verdict,
            reason: grade.reason,
            query,
            collections: scope.collections,
            added: fresh.length,
          });
          nextBody = appendCorrection(
            body,
            note,
            renderAddition(fresh, response, { brief, startIndex: hitsShown + 1 }),
          );
        }
      } catch (error) {
        // Not counted: nothing was learned, and the text stays exactly as it was.
        span.failed(error);
        log.warn(
          { query: clipForLog(query), err: String(error) },
          "corrective: re-query failed; keeping the result",
        );
        break;
      }
      retries++;
      queriesTried.push(query);
      collectionsTried.push(scope.collections);
      requeryMs.push(Math.round(now() - started));
      newHits.push(fresh.length);
      span.succeeded(fresh.length);
      currentCollections = scope.collections;

      if (nextBody === undefined) {
        // Nothing new to show: the text and its grade stand; another hint may still help.
        verdicts.push(grade.verdict);
        reasons.push(`re-query "${clipForLog(query)}" added no new results`);
        continue;
      }
      body = nextBody;
      changed = true;
      for (const hit of fresh) known.add(docKey(hit));
      hitsShown += fresh.length;
      merged.push(...fresh);
      // The merged text now ends with the re-query's footer (or none): its hints are current.
      hints = isWeak(response) ? (response.retryHints ?? {}) : {};
      if (original) {
        reading = readResponse({ ...original, results: merged }, maxRelevance(merged));
      } else {
        view = boundedView(body);
        reading = readText(view.view, gradeFromText(view.view));
      }
      grade = await gradePass(retries >= budget);
      verdicts.push(grade.verdict);
      reasons.push(grade.reason);
    }
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
  if (usedModel || verdicts.some((v) => v !== "correct")) {
    emitGradeSpan(traceParent, metadata, { startMs: spanStartMs, endMs: epochMs() });
  }
  return { changed, text: body, metadata };
}

/** Grading from structured hits: the merged set's best relevance decides, not re-parsed text. */
function readResponse(response: SearchResponse, bestScore: number): Reading {
  const { signal: _signal, ...signalGrade } = gradeFromResponse({ ...response, bestScore });
  return {
    signalGrade,
    hints: response.retryHints ?? {},
    evidence: () => ({
      weak: signalGrade.verdict === "insufficient",
      hitCount: response.results.length,
      bestRelevance: bestScore,
      hitsWithoutRelevance: 0,
    }),
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
