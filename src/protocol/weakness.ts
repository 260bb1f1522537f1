// The signal's thresholds (docs/design.md §3). They are Huginn's constants, so a band or a weak flag
// means the same thing whichever backend produced it.
import type { Band, SearchResponse } from "../types.js";

/** A hit at or above this calibrated relevance is `high`. */
export const HIGH_BAND_MIN = 0.65;
/** A hit at or above this calibrated relevance (and below {@link HIGH_BAND_MIN}) is `medium`. */
export const MEDIUM_BAND_MIN = 0.4;
/** A response whose best hit (before `minRelevance` filtering) is below this is weak. */
export const WEAK_BEST_SCORE = 0.45;

/** The confidence band of a calibrated 0..1 relevance. */
export function bandFor(relevance: number): Band {
  if (relevance >= HIGH_BAND_MIN) return "high";
  if (relevance >= MEDIUM_BAND_MIN) return "medium";
  return "low";
}

/**
 * Weak = nothing survived filtering, or the best hit before filtering is below
 * {@link WEAK_BEST_SCORE}. A `medium` band can coexist with a weak response (relevance in
 * [0.40, 0.45)), so "no hit is low" never means "not weak".
 */
export function isWeak(response: Pick<SearchResponse, "results" | "bestScore">): boolean {
  return response.results.length === 0 || response.bestScore < WEAK_BEST_SCORE;
}
