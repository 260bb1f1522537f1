import type { Band } from "../types.js";
import { bandFor, isWeak, WEAK_BEST_SCORE } from "../weakness.js";
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

/**
 * The shipped model's log-odds shift per analyzer (language tag): the same features score lower
 * in a language whose analysis matches less of a query's text, so its answered searches read as
 * weak more often. A shift is kept only where the weak threshold chosen on one multilingual set
 * (the highest with false alarms ≤ 20 %) holds on the other, in both directions
 * (bench/multilingual/quick.ts over debian-handbook and lohelp, DUMP'd best scores):
 * - German: 0.21 chosen on lohelp gives the handbook false alarms 11 % (24 % at 0.25),
 *   unanswerable flagged 70 % (80 %); 0.23 chosen on the handbook gives lohelp 29 % (48 %) and 85 %
 *   (85 %). Shift = logit(0.25) − logit(0.21), the threshold chosen on both sets.
 * - Spanish (its analyzer es-2, which indexes stopwords, so unanswerable questions score higher):
 *   0.28 chosen on lohelp gives the handbook false alarms 16 % (9 % at 0.25), unanswerable flagged
 *   60 % (55 %); 0.27 chosen on the handbook gives lohelp 22 % (17 %) and 65 % (45 %). Shift =
 *   logit(0.25) − logit(0.27).
 * Every other measured language's threshold moves the other way between the two sets (French,
 * Japanese, English: higher on one, lower on the other; Russian loses half its flagged
 * unanswerable questions on the handbook with lohelp's), so they keep the model as fitted. A
 * bot's own calibration (`second-look calibrate`) is fitted on its own collection: no shift.
 */
export const ANALYZER_RELEVANCE_SHIFT: Readonly<Record<string, number>> = {
  de: logit(WEAK_BEST_SCORE) - logit(0.21),
  es: logit(WEAK_BEST_SCORE) - logit(0.27),
};

function logit(p: number): number {
  return Math.log(p / (1 - p));
}

/** The log-odds shift for relevance computed with `model` over a collection analysed in `language`. */
export function relevanceShift(model: CalibrationModel, language: string | undefined): number {
  if (model !== DEFAULT_CALIBRATION || language === undefined) return 0;
  return ANALYZER_RELEVANCE_SHIFT[language] ?? 0;
}

/**
 * P(relevant | features), rounded to 3 decimals as Huginn rounds its relevance; `shift` is added
 * to the log-odds (an analyzer's, {@link relevanceShift}).
 */
export function calibratedRelevance(
  f: RelevanceFeatures,
  model: CalibrationModel = DEFAULT_CALIBRATION,
  shift = 0,
): number {
  let z = model.bias + shift;
  model.features.forEach((name, i) => {
    z += (model.weights[i] ?? 0) * featureValue(f, name);
  });
  const p = 1 / (1 + Math.exp(-z));
  return Math.round(p * 1000) / 1000;
}

export function relevanceAndBand(
  f: RelevanceFeatures,
  model: CalibrationModel = DEFAULT_CALIBRATION,
  shift = 0,
): { relevance: number; band: Band } {
  const relevance = calibratedRelevance(f, model, shift);
  return { relevance, band: bandFor(relevance) };
}

/** True when every name is a feature this version computes (a stored model may be older or newer). */
export function isKnownFeature(name: string): name is FeatureName {
  return (FEATURE_NAMES as readonly string[]).includes(name);
}
