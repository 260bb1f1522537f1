// Grader mode "auto": the free signal decides first, and the model is asked only where the
// signal is uncertain — the search is weak (or returned nothing) and the index cannot already
// tell why. A search the signal does not flag never reaches the model, and neither does a text
// that is not a search result (an error text has no hits and no weak signal). A weak search whose
// query holds words no document contains is the signal's to answer: its rescue drops those
// words, and when that finds nothing clearly relevant the model is told plainly that the
// documents do not cover them. Asking on the medium band as well was measured and dropped: on
// the pydocs bot it asked the model on 79 of 100 searches (bench/results/rescue.md).
import type { RetryHints, SearchResponse } from "../types.js";
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
}

export function isBorderline(evidence: SignalEvidence): boolean {
  if (!evidence.weak) return false;
  return !(evidence.unmatchedTerms !== undefined && evidence.unmatchedTerms > 0);
}

/** The query words no document contains, as a search's index reported them in its hints. */
export function unmatchedTermsOf(hints: RetryHints | undefined): string[] {
  const terms: unknown = hints?.unmatchedTerms;
  return Array.isArray(terms) ? terms.filter((t): t is string => typeof t === "string" && t !== "") : [];
}

/**
 * The signal's evidence on a structured (in-process) response: every hit is shown and carries
 * its relevance. The orchestrator and `eval`'s grader-cost estimate both read it from here, so
 * the estimate counts exactly the searches `auto` sends to the model.
 */
export function responseEvidence(response: SearchResponse): SignalEvidence {
  return {
    weak: gradeFromResponse(response).verdict === "insufficient",
    hitCount: response.results.length,
    bestRelevance: response.bestScore,
    hitsWithoutRelevance: 0,
    unmatchedTerms: unmatchedTermsOf(response.retryHints).length,
  };
}
