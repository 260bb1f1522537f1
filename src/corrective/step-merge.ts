// Steps "merge" and the re-reading before "re-grade" of the corrective pass: a round's answers
// fused into one ranking, the unseen hits judged (does the round convince, is anything new?),
// and — when it does — appended under a note, after which the result is read again. A hit of a
// collection outside the call's allow-list is dropped before anything else reads the round,
// whatever the backend returned: the pass never shows a caller a document it may not read.

import { appendCorrection, renderRequeryNote } from "../knowledge-tool/corrective-note.js";
import { docKey } from "../knowledge-tool/doc-id-line.js";
import { clipText } from "../text-clip.js";
import type { Grade, Hit, SearchResponse } from "../types.js";
import { HIGH_BAND_MIN, isWeak } from "../weakness.js";
import { type CorrectivePass, type NotFound, withGrade } from "./corrective-pass.js";
import { type FusedHit, fuseRankings } from "./fusion.js";
import { renderAddition, selectFreshHits } from "./merge.js";
import { maxRelevance } from "./shown-result.js";
import type { RequeryPlan } from "./step-choose-requery.js";
import type { CandidateResult, RoundSearch } from "./step-search.js";

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
