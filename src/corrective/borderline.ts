// Grader mode "auto": the free signal decides first, and the model is asked only where the
// signal is uncertain — the search is weak (or returned nothing) and the index cannot already
// tell why. A confident search never reaches the model, and neither does a text that is not a
// search result (an error text has no hits and no weak signal). A weak search whose query holds
// words no document contains is the signal's to answer: its rescue drops those words, and when
// that finds nothing confident the model is told plainly that the documents do not cover them.
// Measured on the pydocs bot (bench/results/rescue.md): this asks the model on fewer than 40 of
// 100 searches and keeps the rescues of asking it on every search.

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
