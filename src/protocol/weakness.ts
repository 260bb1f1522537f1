// The signal's thresholds (docs/design.md §3). The bands are set on measured band precision:
// over every top-10 hit of the default search on every judged collection (`npm run bench --
// bands`, bench/results/bands.json), P(judged relevant) must be ordered high > medium > low.
// `high` keeps Huginn's 0.65 (the corrective pass's bar for "clearly found" too); `medium` starts
// at 0.20, not Huginn's 0.40: the calibration is flat above 0.4 on Cranfield's strict judgments,
// so a medium band of [0.40, 0.65) held the hits nearest the top and outscored high there
// (42.8 % against 39.5 %). A Huginn server's own `confidenceBand` is taken as it sends it.
import type { Band, SearchResponse } from "../types.js";

/** A hit at or above this calibrated relevance is `high`. */
export const HIGH_BAND_MIN = 0.65;
/** A hit at or above this calibrated relevance (and below {@link HIGH_BAND_MIN}) is `medium`. */
export const MEDIUM_BAND_MIN = 0.2;
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
 * [0.20, 0.45)), so "no hit is low" never means "not weak"; a `high` hit never can.
 */
export function isWeak(response: Pick<SearchResponse, "results" | "bestScore">): boolean {
  return response.results.length === 0 || response.bestScore < WEAK_BEST_SCORE;
}
