import type { Qrels } from "./dataset.js";

// Retrieval metrics as BEIR reports them (pytrec_eval, i.e. trec_eval's definitions), so our
// numbers sit next to published BEIR and Cranfield baselines without an asterisk.
//
// Conventions shared by every ranked metric here:
// - A ranking is the caller's order, best first; ties are the caller's business (trec_eval
//   would re-sort by score and break ties by doc id; we take the order as given).
// - A document is relevant when its judged gain is > 0 (trec_eval's relevance_level 1 for
//   integer grades). Unjudged documents are not relevant.
// - A document repeated in a ranking keeps its rank but earns nothing the second time: a
//   duplicate is a bug in the caller and must not inflate the score.
// - Per-query values are averaged over every judged query. A query the run has no ranking
//   for scores 0 (pytrec_eval silently leaves such a query out of BEIR's averages, which
//   flatters a system that fails outright).

export type Ranking = readonly string[];
/** docId -> graded gain; > 0 is relevant. */
export type Judgments = ReadonlyMap<string, number>;

/** Linear-gain DCG over the top k: sum of gain / log2(rank + 1), rank from 1. */
export function dcgAt(ranking: Ranking, judgments: Judgments, k: number): number {
  let dcg = 0;
  forEachRelevantRank(ranking, judgments, k, (rank, gain) => {
    dcg += gain / Math.log2(rank + 1);
  });
  return dcg;
}

/**
 * nDCG@k (trec_eval's ndcg_cut): DCG of the ranking over DCG of the ideal ranking, which is
 * every judged relevant document of the query sorted by gain — including documents the
 * system never saw. 0 when the query has no relevant document.
 */
export function ndcgAt(ranking: Ranking, judgments: Judgments, k: number): number {
  const ideal = [...judgments.values()].filter((g) => g > 0).sort((a, b) => b - a);
  let idcg = 0;
  for (let i = 0; i < Math.min(k, ideal.length); i++) idcg += ideal[i]! / Math.log2(i + 2);
  return idcg === 0 ? 0 : dcgAt(ranking, judgments, k) / idcg;
}

/**
 * AP@k (trec_eval's map_cut): sum of precision@i at each relevant document within the top k,
 * divided by the query's total number of relevant documents — not min(relevant, k).
 * m_map_cut.c divides by num_rel whatever the cutoff, so with 150 relevant documents a
 * perfect top 100 scores 100/150. Averaged over queries this is BEIR's MAP@k.
 */
export function averagePrecisionAt(ranking: Ranking, judgments: Judgments, k: number): number {
  const numRelevant = countRelevant(judgments);
  if (numRelevant === 0) return 0;
  let found = 0;
  let sum = 0;
  forEachRelevantRank(ranking, judgments, k, (rank) => {
    found++;
    sum += found / rank;
  });
  return sum / numRelevant;
}

/** Recall@k: relevant documents in the top k over all relevant documents of the query. */
export function recallAt(ranking: Ranking, judgments: Judgments, k: number): number {
  const numRelevant = countRelevant(judgments);
  if (numRelevant === 0) return 0;
  let found = 0;
  forEachRelevantRank(ranking, judgments, k, () => {
    found++;
  });
  return found / numRelevant;
}

/** Whether any relevant document is in the top k (a miss@k is the negation). */
export function hasRelevantInTop(ranking: Ranking, judgments: Judgments, k: number): boolean {
  const depth = Math.min(k, ranking.length);
  for (let i = 0; i < depth; i++) if ((judgments.get(ranking[i]!) ?? 0) > 0) return true;
  return false;
}

/**
 * Precision of a set: the share of distinct selected items that are relevant, e.g.
 * P(relevant | band = high) over all hits banded high. NaN for an empty selection — a ratio
 * over nothing has no value (JSON renders it null); report the selection size beside it.
 */
export function precision(selected: Iterable<string>, relevant: ReadonlySet<string> | Judgments): number {
  const isRelevant =
    relevant instanceof Map
      ? (id: string) => ((relevant as Judgments).get(id) ?? 0) > 0
      : (id: string) => (relevant as ReadonlySet<string>).has(id);
  const distinct = new Set(selected);
  if (distinct.size === 0) return Number.NaN;
  let hits = 0;
  for (const id of distinct) if (isRelevant(id)) hits++;
  return hits / distinct.size;
}

/**
 * ROC AUC of `scores` as a predictor of `labels` (true = positive): the probability that a
 * random positive scores above a random negative, ties counted half (the Mann–Whitney U
 * statistic over nPos·nNeg). O(n log n): one sort, average ranks for tied scores. NaN when
 * either class is empty, since there is no pair to compare.
 */
export function rocAuc(scores: readonly number[], labels: readonly boolean[]): number {
  if (scores.length !== labels.length) {
    throw new RangeError(`rocAuc: ${scores.length} scores but ${labels.length} labels`);
  }
  const order = scores.map((_, i) => i);
  for (const s of scores) if (Number.isNaN(s)) throw new RangeError("rocAuc: a score is NaN");
  order.sort((a, b) => scores[a]! - scores[b]!);
  let positives = 0;
  let positiveRankSum = 0;
  for (let start = 0; start < order.length; ) {
    let end = start + 1;
    while (end < order.length && scores[order[end]!] === scores[order[start]!]) end++;
    // Ranks start..end-1 (0-based) share one score: each gets their average, 1-based.
    const averageRank = (start + 1 + end) / 2;
    for (let i = start; i < end; i++) {
      if (labels[order[i]!]) {
        positives++;
        positiveRankSum += averageRank;
      }
    }
    start = end;
  }
  const negatives = scores.length - positives;
  if (positives === 0 || negatives === 0) return Number.NaN;
  return (positiveRankSum - (positives * (positives + 1)) / 2) / (positives * negatives);
}

export interface QueryMetrics {
  ndcg10: number;
  ap100: number;
  recall100: number;
  /** No relevant document in the top 10. */
  miss10: boolean;
}

export interface RunMetrics {
  /** Judged queries averaged over. */
  queries: number;
  ndcg10: number;
  map100: number;
  recall100: number;
  /** Share of judged queries with no relevant document in the top 10. */
  miss10: number;
  perQuery: Map<string, QueryMetrics>;
}

/**
 * The BEIR headline metrics of a run (queryId -> ranking) over every judged query in `qrels`.
 * Rankings for queries without judgments are ignored.
 */
export function evaluateRuns(qrels: Qrels, runs: ReadonlyMap<string, Ranking>): RunMetrics {
  const perQuery = new Map<string, QueryMetrics>();
  let ndcg10 = 0;
  let map100 = 0;
  let recall100 = 0;
  let misses = 0;
  for (const [queryId, judgments] of qrels) {
    if (countRelevant(judgments) === 0) continue;
    const ranking = runs.get(queryId) ?? [];
    const m: QueryMetrics = {
      ndcg10: ndcgAt(ranking, judgments, 10),
      ap100: averagePrecisionAt(ranking, judgments, 100),
      recall100: recallAt(ranking, judgments, 100),
      miss10: !hasRelevantInTop(ranking, judgments, 10),
    };
    perQuery.set(queryId, m);
    ndcg10 += m.ndcg10;
    map100 += m.ap100;
    recall100 += m.recall100;
    if (m.miss10) misses++;
  }
  const n = perQuery.size;
  const mean = (sum: number) => (n === 0 ? Number.NaN : sum / n);
  return {
    queries: n,
    ndcg10: mean(ndcg10),
    map100: mean(map100),
    recall100: mean(recall100),
    miss10: mean(misses),
    perQuery,
  };
}

function countRelevant(judgments: Judgments): number {
  let n = 0;
  for (const gain of judgments.values()) if (gain > 0) n++;
  return n;
}

/**
 * Calls `onRelevant(rank, gain)` (rank 1-based) for each distinct relevant document in the top
 * k; a repeated document keeps its first rank and earns nothing again.
 */
function forEachRelevantRank(
  ranking: Ranking,
  judgments: Judgments,
  k: number,
  onRelevant: (rank: number, gain: number) => void,
): void {
  const seen = new Set<string>();
  const depth = Math.min(k, ranking.length);
  for (let i = 0; i < depth; i++) {
    const docId = ranking[i]!;
    if (seen.has(docId)) continue;
    seen.add(docId);
    const gain = judgments.get(docId) ?? 0;
    if (gain > 0) onRelevant(i + 1, gain);
  }
}
