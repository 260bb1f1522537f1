// Grader mode "auto" (issue 4): the free signal decides first, and the model is asked only
// where the signal is borderline: the result is weak (including "no results"), or its best hit
// is in the medium band, or a relevance could not be read. A confident result (best hit in the
// high band) never reaches the model, and neither does a text that is not a search result at
// all (an error text has no hits and no weak signal).
import { HIGH_BAND_MIN, MEDIUM_BAND_MIN } from "../protocol/weakness.js";

export interface SignalEvidence {
  /** The signal graded the result weak or empty. */
  weak: boolean;
  /** Hits the grader could see. */
  hitCount: number;
  /** Best hit relevance, when known. */
  bestRelevance?: number;
  /** Hits whose relevance could not be read (Huginn leaves it out when it has none). */
  hitsWithoutRelevance: number;
}

export function isBorderline(evidence: SignalEvidence): boolean {
  if (evidence.weak) return true;
  if (evidence.hitCount === 0) return false;
  if (evidence.hitsWithoutRelevance > 0 || evidence.bestRelevance === undefined) return true;
  return evidence.bestRelevance >= MEDIUM_BAND_MIN && evidence.bestRelevance < HIGH_BAND_MIN;
}
