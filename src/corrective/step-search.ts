// Step "search" of the corrective pass: one round's candidates in parallel, each bounded, inside
// the round's span, with the original query's next page beside them on a signal rescue; a
// failed candidate is logged and left out. The round counts only when one of them answered: then
// it returns what was found and the pass that counted it.

import { context } from "@opentelemetry/api";
import { withDeadline } from "../deadline.js";
import { clampHitLimit } from "../limits.js";
import { type RequerySpan, startRequerySpan } from "../telemetry/corrective-spans.js";
import { clipText } from "../text-clip.js";
import type { SearchRequest, SearchResponse } from "../types.js";
import { CorrectiveError } from "./corrective-error.js";
import type { CorrectivePass } from "./corrective-pass.js";
import type { RequeryCandidate } from "./requery-candidates.js";
import type { RequeryPlan } from "./step-choose-requery.js";

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
