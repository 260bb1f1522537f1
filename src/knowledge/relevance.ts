import { bandFor, isWeak } from "../knowledge-tool/weakness.js";
import type { Band } from "../types.js";
import { CALIBRATION } from "./calibration-model.js";
import { FEATURE_NAMES, type FeatureName, type RelevanceFeatures } from "./relevance-features.js";

export { bandFor, isWeak };

/**
 * A logistic model of P(relevant | features): the shipped one (calibration-model.ts, fitted
 * leave-one-collection-out by `npm run calibrate`) or a bot's own (`second-look calibrate`).
 */
export interface CalibrationModel {
  features: readonly FeatureName[];
  weights: readonly number[];
  bias: number;
}

export const DEFAULT_CALIBRATION: CalibrationModel = CALIBRATION;

/** The model's input for one feature: the rank enters as log(1 + rank), everything else as is. */
export function featureValue(f: RelevanceFeatures, name: FeatureName): number {
  return name === "rank" ? Math.log1p(f.rank) : f[name];
}

export function calibrationInput(f: RelevanceFeatures, features: readonly FeatureName[]): number[] {
  return features.map((name) => featureValue(f, name));
}

/** P(relevant | features), rounded to 3 decimals as Huginn rounds its relevance. */
export function calibratedRelevance(
  f: RelevanceFeatures,
  model: CalibrationModel = DEFAULT_CALIBRATION,
): number {
  let z = model.bias;
  model.features.forEach((name, i) => {
    z += (model.weights[i] ?? 0) * featureValue(f, name);
  });
  const p = 1 / (1 + Math.exp(-z));
  return Math.round(p * 1000) / 1000;
}

export function relevanceAndBand(
  f: RelevanceFeatures,
  model: CalibrationModel = DEFAULT_CALIBRATION,
): { relevance: number; band: Band } {
  const relevance = calibratedRelevance(f, model);
  return { relevance, band: bandFor(relevance) };
}

/** True when every name is a feature this version computes (a stored model may be older or newer). */
export function isKnownFeature(name: string): name is FeatureName {
  return (FEATURE_NAMES as readonly string[]).includes(name);
}
