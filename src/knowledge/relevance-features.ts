import type { QueryTermStats } from "./index/lexical-index.js";
import type { CollectionRanking } from "./index/ranker.js";

/** How many of the query's rarest terms keyTermScore measures against. */
const KEY_TERMS = 3;

/**
 * What the calibration model reads about a hit. Every value is scale-free (a share of what the
 * query could score, a rank), never a raw BM25 score or a query length, so a model fitted on some
 * collections carries to one of another size, vocabulary and query style. Other features were
 * measured leave-one-collection-out and left out (bench/results/calibration.json lists them and
 * docs/quality-and-speed.md "Relevance calibration" says why).
 */
export interface RelevanceFeatures {
  /** Original-query BM25F of the hit's best section over the most the whole query could score. */
  normalizedScore: number;
  /** 0-based position in the collection's ranking. */
  rank: number;
  /**
   * The same score over the most the query's three rarest terms could score: unlike
   * normalizedScore it does not shrink as a query grows longer, so a forty-word expert query
   * whose key terms all match well reads as strongly as a four-word one.
   */
  keyTermScore: number;
}

/** The names a calibration model refers to features by. */
export const FEATURE_NAMES = [
  "normalizedScore",
  "rank",
  "keyTermScore",
] as const satisfies readonly (keyof RelevanceFeatures)[];
export type FeatureName = (typeof FEATURE_NAMES)[number];

/** The features of every hit of a collection's ranking, in ranking order. */
export function relevanceFeatures(ranking: CollectionRanking): RelevanceFeatures[] {
  const weights = ranking.stats.map((s: QueryTermStats) => s.idf * s.queryFrequency);
  const total = weights.reduce((a, b) => a + b, 0);
  const key = [...weights]
    .sort((a, b) => b - a)
    .slice(0, KEY_TERMS)
    .reduce((a, b) => a + b, 0);
  return ranking.documents.map((ranked, rank) => ({
    normalizedScore: ranked.normalizedScore,
    rank,
    keyTermScore: key > 0 ? (ranked.normalizedScore * total) / key : 0,
  }));
}
