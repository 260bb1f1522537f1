// Fitting the relevance calibration on judged questions: the shipped model (bench/calibrate.ts,
// leave-one-collection-out over every judged collection) and a bot's own (`second-look calibrate`)
// share this code, so both are fitted and measured the same way.

import { queryTermsFor } from "../backends/embedded/embedded-engine.js";
import { rankCollection } from "../knowledge/index/ranker.js";
import type { RankingCore } from "../knowledge/ranking-core/index.js";
import { type CalibrationModel, calibratedRelevance, calibrationInput } from "../knowledge/relevance.js";
import {
  type FeatureName,
  type RelevanceFeatures,
  relevanceFeatures,
} from "../knowledge/relevance-features.js";
import type { Band } from "../types.js";
import { bandFor, WEAK_BEST_SCORE } from "../weakness.js";
import { fitLogistic } from "./logistic.js";
import { rocAuc } from "./metrics.js";

/** Hits per search the model is fitted on (a search shows at most this many by default). */
export const FIT_DEPTH = 10;
/** The weak flag is judged on whether an answer is among the hits a model reads first. */
export const ANSWER_DEPTH = 5;

export interface JudgedSearchSet {
  name: string;
  /**
   * The engine every question is searched in; or, per question and pass (rerank or not), the
   * engine holding what that search needs (a postgres bot's candidates for the question).
   */
  engine: RankingCore | ((question: number, rerank: boolean) => RankingCore);
  questions: readonly { text: string; answerable: boolean; relevant: ReadonlySet<string> }[];
}

export interface LabelledHit {
  features: RelevanceFeatures;
  relevant: 0 | 1;
}

/** One judged question searched both ways a bot searches: first pass only (brief) and the default. */
export interface LabelledSearch {
  set: string;
  /** Position of the question in its set (folds split by question, never inside one). */
  question: number;
  answerable: boolean;
  firstPass: LabelledHit[];
  reranked: LabelledHit[];
}

/** Every question of the set, searched in every collection of its engine, hits labelled. */
export function labelledSearches(set: JudgedSearchSet): LabelledSearch[] {
  const out: LabelledSearch[] = [];
  const { engine } = set;
  const engineFor = typeof engine === "function" ? engine : () => engine;
  for (const [position, question] of set.questions.entries()) {
    for (const name of engineFor(position, true).collections()) {
      const pass = (rerank: boolean): LabelledHit[] => {
        const index = engineFor(position, rerank).collectionIndex(name)!;
        const terms = queryTermsFor(question.text, index);
        const ranking = rankCollection(index, terms, { rerank, limit: FIT_DEPTH });
        const features = relevanceFeatures(ranking);
        return ranking.documents.map((d, i) => ({
          features: features[i]!,
          relevant: question.relevant.has(index.documents[d.document]!.id) ? 1 : 0,
        }));
      };
      out.push({
        set: set.name,
        question: position,
        answerable: question.answerable,
        firstPass: pass(false),
        reranked: pass(true),
      });
    }
  }
  return out;
}

/**
 * Logistic fit of "judged relevant" on the named features over every hit of both passes. With
 * `balanceSets`, each judged set weighs the same in total, whatever its number of questions.
 */
export function fitCalibration(
  searches: readonly LabelledSearch[],
  features: readonly FeatureName[],
  options: { balanceSets?: boolean } = {},
): CalibrationModel {
  const hits = searches.flatMap((s) => [...s.firstPass, ...s.reranked].map((h) => ({ set: s.set, h })));
  const perSet = new Map<string, number>();
  for (const { set } of hits) perSet.set(set, (perSet.get(set) ?? 0) + 1);
  const sampleWeights = options.balanceSets
    ? hits.map(({ set }) => hits.length / perSet.size / perSet.get(set)!)
    : undefined;
  const model = fitLogistic(
    hits.map(({ h }) => calibrationInput(h.features, features)),
    hits.map(({ h }) => h.relevant),
    sampleWeights ? { sampleWeights } : {},
  );
  return {
    features: [...features],
    weights: model.weights.map((w) => round(w, 6)),
    bias: round(model.bias, 6),
  };
}

/** One judged search as the weak flag sees it. */
export interface WeakOutcome {
  bestScore: number;
  answerable: boolean;
  /** An answer is among the first ANSWER_DEPTH hits. */
  answered: boolean;
}

/** What the weak flag does on judged searches under a model (the default search, as a bot runs it). */
export interface WeakSignalFigures {
  searches: number;
  /** Flagged although an answer is in the top 5, of searches with an answer in the top 5. */
  falseAlarms: number | null;
  /** Flagged, of answerable searches with no answer in the top 5. */
  missesCaught: number | null;
  /** Flagged, of unanswerable questions. */
  unanswerableFlagged: number | null;
  /** AUC of bestScore for "an answer in the top 5". */
  auc: number | null;
  /** P(relevant) by band over every hit, in ranking order of the default search. */
  bandPrecision: { high: number | null; medium: number | null; low: number | null };
}

/** Each judged search of the default pass as the weak flag sees it under `model`. */
export function weakOutcomes(searches: readonly LabelledSearch[], model: CalibrationModel): WeakOutcome[] {
  return searches.map((s) => {
    const top = s.reranked[0];
    return {
      bestScore: top ? calibratedRelevance(top.features, model) : 0,
      answerable: s.answerable,
      answered: s.answerable && s.reranked.slice(0, ANSWER_DEPTH).some((h) => h.relevant === 1),
    };
  });
}

export function weakSignalFigures(
  searches: readonly LabelledSearch[],
  model: CalibrationModel,
  threshold: number = WEAK_BEST_SCORE,
): WeakSignalFigures {
  const outcomes = weakOutcomes(searches, model);
  const bands: Record<Band, [number, number]> = { high: [0, 0], medium: [0, 0], low: [0, 0] };
  for (const s of searches) {
    // Relevance is kept non-increasing along a ranking, as the engine keeps it.
    let ceiling = 1;
    for (const h of s.reranked) {
      ceiling = Math.min(ceiling, calibratedRelevance(h.features, model));
      const counts = bands[bandFor(ceiling)];
      counts[0]++;
      counts[1] += h.relevant;
    }
  }
  const precision = ([n, r]: [number, number]) => (n ? round(r / n, 4) : null);
  return {
    ...weakFlagFigures(outcomes, threshold),
    bandPrecision: {
      high: precision(bands.high),
      medium: precision(bands.medium),
      low: precision(bands.low),
    },
  };
}

/**
 * The weak flag's figures over judged searches, a search flagged when its best score is below
 * `threshold` (the protocol's unless a study asks another).
 */
export function weakFlagFigures(
  outcomes: readonly WeakOutcome[],
  threshold: number = WEAK_BEST_SCORE,
): Omit<WeakSignalFigures, "bandPrecision"> {
  const flaggedShare = (group: readonly WeakOutcome[]) =>
    share(group.filter((o) => o.bestScore < threshold).length, group.length);
  const answerable = outcomes.filter((o) => o.answerable);
  const auc = rocAuc(
    outcomes.map((o) => o.bestScore),
    outcomes.map((o) => o.answered),
  );
  return {
    searches: outcomes.length,
    falseAlarms: flaggedShare(answerable.filter((o) => o.answered)),
    missesCaught: flaggedShare(answerable.filter((o) => !o.answered)),
    unanswerableFlagged: flaggedShare(outcomes.filter((o) => !o.answerable)),
    auc: Number.isNaN(auc) ? null : round(auc, 4),
  };
}

function share(part: number, whole: number): number | null {
  return whole ? round(part / whole, 4) : null;
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** The weak thresholds a study compares: 0.20 to 0.60 in steps of 0.01. */
export const WEAK_THRESHOLD_GRID: readonly number[] = Array.from({ length: 41 }, (_, i) =>
  round(0.2 + i / 100, 2),
);

/**
 * The weak threshold for judged sets that hold unanswerable questions (documentation bots): the
 * highest of `grid` whose false alarms stay at or below `maxFalseAlarms` on every set, so the flag
 * catches all it can without crying wolf on any one of them. Null when no threshold keeps every
 * set under the cap (or no set has a search with an answer in the top 5).
 */
export function chooseWeakThreshold(
  sets: readonly (readonly WeakOutcome[])[],
  maxFalseAlarms: number,
  grid: readonly number[] = WEAK_THRESHOLD_GRID,
): number | null {
  let chosen: number | null = null;
  for (const threshold of grid) {
    const rates = sets.map((outcomes) => weakFlagFigures(outcomes, threshold).falseAlarms);
    if (rates.some((r) => r === null)) return null;
    if (rates.every((r) => r! <= maxFalseAlarms + 1e-9)) chosen = Math.max(chosen ?? threshold, threshold);
  }
  return chosen;
}
