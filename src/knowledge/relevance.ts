import { bandFor, isWeak } from "../protocol/weakness.js";
import type { Band } from "../types.js";
import { CALIBRATION } from "./calibration-model.js";
import type { RelevanceFeatures } from "./index/ranker.js";

export { bandFor, isWeak };

/**
 * The calibration model's inputs. Both are scale-free (the share of what the query could score
 * at most, and the rank), so the model carries from the collection it was fitted on to
 * collections of other sizes and vocabularies. Richer sets (idf coverage, score relative to the
 * top hit, a top-rank indicator) were tried and gained nothing held-out; README "Relevance
 * calibration" gives the comparison. `npm run calibrate` refits and rewrites the model.
 */
export function calibrationFeatures(f: RelevanceFeatures): number[] {
  return [f.normalizedScore, Math.log1p(f.rank)];
}

/** P(relevant | features), rounded to 3 decimals as Huginn rounds its relevance. */
export function calibratedRelevance(f: RelevanceFeatures): number {
  const x = calibrationFeatures(f);
  let z = CALIBRATION.bias;
  for (let i = 0; i < x.length; i++) z += (CALIBRATION.weights[i] ?? 0) * x[i]!;
  const p = 1 / (1 + Math.exp(-z));
  return Math.round(p * 1000) / 1000;
}

export function relevanceAndBand(f: RelevanceFeatures): { relevance: number; band: Band } {
  const relevance = calibratedRelevance(f);
  return { relevance, band: bandFor(relevance) };
}
