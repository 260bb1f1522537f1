// Grader mode "auto": the free signal decides first, and the model is asked only where it can
// change the outcome. The weak line decides when the free path appends and is kept low so that
// rarely happens; asking the model is a different decision with its own, more sensitive rule.
// A query written in another language than the documents is always the model's (the signal
// cannot translate, the model can; bench/results/crosslang.md). A search whose response reports
// how its query's words meet the documents (the ranking core's, types.ts QueryCoverage) is
// decided by auto-ask-rule.ts. Any other (a Huginn response, a result read from text, merged
// sub-question responses) by the band rule below, fitted before that coverage was reported:
// - a weak or empty search is the model's, unless a query word is in no document: that search
//   is the signal's "not covered" evidence, and asking the model there too took lohelp-en from
//   31 to 37 calls in 80 searches (46 %, past the 40 % budget English searches keep), for 3 of
//   nodejs-api's 9 replayed rescues;
// - a search whose top hit sits in the borderline band (below AUTO_BAND_TOP) and barely
//   outscores the second hit (by less than AUTO_MAX_GAP) is the model's: two near-equal middling
//   hits is how a near miss looks, a found answer usually stands out.
// A search the rule is confident about never reaches the model, and neither does a text that is
// not a search result (an error text has no hits and no relevance). When the second hit's
// relevance is unknown (a result read from text), the band just above the weak line
// (AUTO_ASK_BELOW) decides instead, as before.
// Fitted on the initial searches of the documentation bots with recorded grader replies, pydocs
// and nodejs-api: over band tops 0.25..0.70 and gaps 0..0.40, the pair that keeps the largest share
// of haiku's replayed rescues on both while asking on at most 40 of 100 searches on each (replayed,
// `npm run bench -- rescue`). Leave one collection out: fitted on pydocs alone (0.36, 0.16)
// nodejs-api asks on 57 %; fitted on nodejs-api alone (0.26, 0.01) pydocs keeps 5 of 16. The
// misses it still leaves to the signal have a clear lead over the second hit (0.07..0.29), which
// nothing the signal reads marks as doubtful.

import type { RetryHints, SearchResponse } from "../types.js";
import { WEAK_BEST_SCORE } from "../weakness.js";
import { autoAsksOnCoverage, hasCoverage } from "./auto-ask-rule.js";
import { gradeFromResponse } from "./signal-grader.js";

export interface SignalEvidence {
  /** The signal graded the result weak or empty. */
  weak: boolean;
  /** Hits the grader could see. */
  hitCount: number;
  /** Best hit relevance, when known. */
  bestRelevance?: number;
  /** Hits whose relevance could not be read (Huginn leaves it out when it has none). */
  hitsWithoutRelevance: number;
  /** Query words no document contains, as the search's index reported them (0 when unknown). */
  unmatchedTerms?: number;
  /** The query is in another language than the searched documents (src/weakness.ts). */
  languageMismatch?: boolean;
  /** Relevance of the second-best hit (0 when there is one hit), when known. */
  secondRelevance?: number;
  /** Relevance of the fifth-best hit (0 with fewer than five), when known. */
  fifthRelevance?: number;
  /** Share of the query's key terms the top hit's document holds (QueryCoverage), when reported. */
  keyTermsInTopHit?: number;
  /** Share of the query's weight no document holds (QueryCoverage), when reported. */
  unmatchedShare?: number;
}

/**
 * Best relevance below which `auto` asks the model even when the search is not weak, when the
 * second hit's relevance is unknown (a result read from text).
 */
export const AUTO_ASK_BELOW = 0.3;
/** The top of the borderline band: a top hit below it may be a near miss. */
export const AUTO_BAND_TOP = 0.43;
/** In the band, a top hit that outscores the second by less than this is asked about. */
export const AUTO_MAX_GAP = 0.06;

/** `auto`'s decision: ask the model about this search. */
export function isBorderline(evidence: SignalEvidence): boolean {
  if (evidence.languageMismatch === true) return true;
  if (hasCoverage(evidence)) return autoAsksOnCoverage(evidence);
  if (evidence.unmatchedTerms !== undefined && evidence.unmatchedTerms > 0) return false;
  if (evidence.weak) return true;
  const best = evidence.bestRelevance;
  if (evidence.hitCount <= 0 || best === undefined || !Number.isFinite(best) || best < WEAK_BEST_SCORE) {
    return false;
  }
  const second = evidence.secondRelevance;
  if (second === undefined || !Number.isFinite(second)) return best < AUTO_ASK_BELOW;
  return best < AUTO_BAND_TOP && best - second < AUTO_MAX_GAP;
}

/** The query words no document contains, as a search's index reported them in its hints. */
export function unmatchedTermsOf(hints: RetryHints | undefined): string[] {
  const terms: unknown = hints?.unmatchedTerms;
  return Array.isArray(terms) ? terms.filter((t): t is string => typeof t === "string" && t !== "") : [];
}

/**
 * The share of a query's content-word weight that the words no document contains carry together
 * (RetryHints.unmatchedShare times their number) from which they are the question's subject, not
 * an aside: "connect to a PostgreSQL database" without "postgresql", "stock options vesting
 * schedule" without "stock" and "vesting" ask about something else; "create a web server without
 * any framework" without "framework" does not. Chosen leave-one-collection-out on pydocs,
 * lohelp-en, nodejs-api and lohelp de, fr, sv, ja as the lowest share at which no question
 * answered in the top 5 is told "not covered" on the other collections: 0.49 in six folds, 0.48
 * with French left out (docs/design.md §5 has the left-out figures). A share, so it reads alike
 * whatever the language and the collection's size; German compounds ("Heftchen", 0.42 of its
 * query) and Swedish ones ("rullgardinslista", 0.42) are why it is not lower.
 */
export const KEY_ABSENT_TERM_MIN_SHARE = 0.49;

/**
 * The query words no document contains when together they are the question's subject (they carry
 * at least KEY_ABSENT_TERM_MIN_SHARE of its weight): the one evidence of absence the signal
 * trusts. Empty when the search did not report the share (a text-only result): unmatched words
 * of unknown weight are no evidence.
 */
export function keyAbsentTermsOf(hints: RetryHints | undefined): string[] {
  const share: unknown = hints?.unmatchedShare;
  const terms = unmatchedTermsOf(hints);
  if (typeof share !== "number" || !Number.isFinite(share)) return [];
  return share * terms.length >= KEY_ABSENT_TERM_MIN_SHARE ? terms : [];
}

/**
 * The signal's evidence on a structured (in-process) response: every hit is shown and carries
 * its relevance. The orchestrator and `eval`'s grader-cost estimate both read it from here, so
 * the estimate counts exactly the searches `auto` sends to the model.
 */
export function responseEvidence(response: SearchResponse): SignalEvidence {
  const ranked = response.results
    .map((hit) => hit.relevance)
    .filter((r) => Number.isFinite(r))
    .sort((a, b) => b - a);
  const evidence: SignalEvidence = {
    weak: gradeFromResponse(response).verdict === "insufficient",
    hitCount: response.results.length,
    bestRelevance: response.bestScore,
    hitsWithoutRelevance: 0,
    unmatchedTerms: unmatchedTermsOf(response.retryHints).length,
    // The n-th best relevance is 0 when fewer than n hits carry one.
    secondRelevance: ranked[1] ?? 0,
  };
  const coverage = response.queryCoverage;
  if (coverage) {
    evidence.fifthRelevance = ranked[4] ?? 0;
    evidence.keyTermsInTopHit = coverage.keyTermsInTopHit;
    evidence.unmatchedShare = coverage.unmatchedShare;
  }
  return evidence;
}
