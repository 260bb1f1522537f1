// Grader mode "auto": the signal decides, except where it is least sure, which is where a
// model's judgement is worth its seconds. Clear cases never reach the model: no results
// (certainly insufficient), a top hit in the high band (confident) or below the medium band
// (certainly weak), and texts that carry no hits at all (error texts are not search results).
import { HIGH_BAND_MIN, MEDIUM_BAND_MIN } from "../protocol/weakness.js";

export interface SignalEvidence {
  /** Hits the grader could see. */
  hitCount: number;
  /** Best hit relevance, when known. */
  bestRelevance?: number;
  /** Hits whose relevance could not be read (Huginn leaves it out when it has none). */
  hitsWithoutRelevance: number;
}

/** True when the signal cannot tell: the best hit is in the medium band, or relevance is unknown. */
export function isBorderline(evidence: SignalEvidence): boolean {
  if (evidence.hitCount === 0) return false;
  if (evidence.hitsWithoutRelevance > 0 || evidence.bestRelevance === undefined) return true;
  return evidence.bestRelevance >= MEDIUM_BAND_MIN && evidence.bestRelevance < HIGH_BAND_MIN;
}
