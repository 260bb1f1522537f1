import { KnowledgeEngine } from "../backends/embedded/embedded-engine.js";
import { isBorderline, responseEvidence } from "../corrective/signal-grader.js";
import type { Band, SearchResponse } from "../types.js";
import { isWeak } from "../weakness.js";
import type { EvalDataset } from "./dataset.js";
import { toIndexableDocuments } from "./eval-documents.js";
import { evaluateRuns, hasRelevantInTop, recallAt, rocAuc } from "./metrics.js";
import { percentiles } from "./percentiles.js";

const COLLECTION = "eval";
const RUN_DEPTH = 100;
const TOP = 10;

export interface RankingMetrics {
  ndcg10: number;
  map100: number;
  recall100: number;
  miss10: number;
}

export interface HintOutcome {
  /** Weak queries that had this kind of hint and were re-searched with it. */
  requeried: number;
  /** Of those, queries with no relevant hit in the top 10 that gained one from the re-query. */
  rescued: number;
  /** Recall of the original top 10 over all relevant documents, averaged over `requeried`. */
  recallBefore: number;
  /** Recall of the merged list (original top 10 + new hits), averaged over `requeried`. */
  recallAfter: number;
}

/** The stable `eval --json` shape (docs/evaluation.md). Extra keys may be added, never renamed. */
export interface EvaluationReport extends RankingMetrics {
  docs: number;
  queries: number;
  indexMs: number;
  queryMs: { p50: number; p95: number; p99: number };
  bands: Record<Band, { hits: number; precision: number | null }>;
  weak: { flagged: number; auc: number; precision: number | null; recall: number | null };
  corrective: HintOutcome & { byHint: { broader: HintOutcome; narrower: HintOutcome } };
  /** The same queries through the first pass only (brief mode's ranking: no rerank). */
  firstPass: RankingMetrics;
  /**
   * Model-grader calls per 100 searches at retry budget 1 (the default): `haiku` asks once per
   * search (never after the last re-query); `auto` only when the signal is borderline.
   */
  grader: { haikuCallsPer100: number; autoCallsPer100: number };
}

export type EvaluationProgress = (event: { collection: string; done: number; total: number }) => void;

/**
 * Indexes a judged collection in-process and measures what docs/design.md §3 and the engine issue ask:
 * ranking quality of the default (full-mode, reranked) search and of the first pass, band
 * precision over all top-10 hits, how well the weak flag predicts "no relevant hit in the top
 * 10", and whether the corrective re-query raises recall on the weak queries.
 */
export function runEvaluation(
  dataset: EvalDataset,
  options: { onProgress?: EvaluationProgress } = {},
): EvaluationReport {
  const indexStarted = performance.now();
  const engine = KnowledgeEngine.fromDocuments({ [COLLECTION]: toIndexableDocuments(dataset.docs) });
  const indexMs = performance.now() - indexStarted;

  const runs = new Map<string, string[]>();
  const firstPassRuns = new Map<string, string[]>();
  const timings: number[] = [];
  const bandCounts = {
    high: { hits: 0, relevant: 0 },
    medium: { hits: 0, relevant: 0 },
    low: { hits: 0, relevant: 0 },
  };
  const weakScores: number[] = [];
  const missLabels: boolean[] = [];
  const weakQueries: { id: string; response: SearchResponse }[] = [];
  let borderline = 0;

  dataset.queries.forEach((query, i) => {
    const judged = dataset.qrels.get(query.id) ?? new Map<string, number>();
    const started = performance.now();
    const response = engine.searchSync({ query: query.text, limit: RUN_DEPTH });
    timings.push(performance.now() - started);
    const ranking = response.results.map((h) => h.id);
    runs.set(query.id, ranking);
    firstPassRuns.set(
      query.id,
      engine.searchSync({ query: query.text, limit: RUN_DEPTH, rerank: false }).results.map((h) => h.id),
    );
    for (const hit of response.results.slice(0, TOP)) {
      bandCounts[hit.band].hits++;
      if (judged.has(hit.id)) bandCounts[hit.band].relevant++;
    }
    weakScores.push(1 - response.bestScore);
    missLabels.push(!hasRelevantInTop(ranking, judged, TOP));
    if (isWeak(response)) {
      weakQueries.push({ id: query.id, response });
    }
    // The orchestrator's own rule on the evidence it reads from an in-process response (the
    // limit changes neither the top hit nor the words no document contains).
    if (isBorderline(responseEvidence(response))) borderline++;
    options.onProgress?.({ collection: "queries", done: i + 1, total: dataset.queries.length });
  });

  const metrics = evaluateRuns(dataset.qrels, runs);
  const first = evaluateRuns(dataset.qrels, firstPassRuns);
  const [p50, p95, p99] = percentiles(timings, [50, 95, 99]);
  const flagged = weakQueries.length;
  const misses = missLabels.filter(Boolean).length;
  const flaggedMisses = weakQueries.filter(
    (w) => !hasRelevantInTop(runs.get(w.id)!, dataset.qrels.get(w.id)!, TOP),
  ).length;

  const broader = measureHint(engine, dataset, runs, weakQueries, "broader");
  const narrower = measureHint(engine, dataset, runs, weakQueries, "narrower");
  return {
    docs: dataset.docs.length,
    queries: dataset.queries.length,
    ndcg10: round(metrics.ndcg10),
    map100: round(metrics.map100),
    recall100: round(metrics.recall100),
    miss10: round(metrics.miss10),
    indexMs: Math.round(indexMs),
    queryMs: { p50: round(p50!, 3), p95: round(p95!, 3), p99: round(p99!, 3) },
    bands: Object.fromEntries(
      Object.entries(bandCounts).map(([band, c]) => [
        band,
        { hits: c.hits, precision: c.hits ? round(c.relevant / c.hits) : null },
      ]),
    ) as EvaluationReport["bands"],
    weak: {
      flagged,
      auc: round(rocAuc(weakScores, missLabels)),
      precision: flagged ? round(flaggedMisses / flagged) : null,
      recall: misses ? round(flaggedMisses / misses) : null,
    },
    corrective: { ...measureHint(engine, dataset, runs, weakQueries, "best"), byHint: { broader, narrower } },
    firstPass: {
      ndcg10: round(first.ndcg10),
      map100: round(first.map100),
      recall100: round(first.recall100),
      miss10: round(first.miss10),
    },
    grader: {
      haikuCallsPer100: dataset.queries.length ? 100 : 0,
      autoCallsPer100: dataset.queries.length ? round((100 * borderline) / dataset.queries.length, 1) : 0,
    },
  };
}

/**
 * Re-search each weak query once with its hint (`best`: the orchestrator's pick, broader before
 * narrower) and rerank, merge the new hits under the original top 10, and compare recall.
 */
function measureHint(
  engine: KnowledgeEngine,
  dataset: EvalDataset,
  runs: ReadonlyMap<string, string[]>,
  weakQueries: readonly { id: string; response: SearchResponse }[],
  which: "best" | "broader" | "narrower",
): HintOutcome {
  let requeried = 0;
  let rescued = 0;
  let before = 0;
  let after = 0;
  for (const { id, response } of weakQueries) {
    const hints = response.retryHints;
    const hint =
      which === "broader"
        ? hints?.broaderQuery
        : which === "narrower"
          ? hints?.narrowerQuery
          : (hints?.broaderQuery ?? hints?.narrowerQuery);
    if (!hint) continue;
    const judged = dataset.qrels.get(id)!;
    const original = runs.get(id)!.slice(0, TOP);
    const seen = new Set(original);
    const fresh = engine
      .searchSync({ query: hint, limit: TOP, rerank: true })
      .results.map((h) => h.id)
      .filter((doc) => !seen.has(doc));
    const merged = [...original, ...fresh];
    requeried++;
    before += recallAt(original, judged, TOP);
    after += recallAt(merged, judged, merged.length);
    if (!hasRelevantInTop(original, judged, TOP) && hasRelevantInTop(merged, judged, merged.length))
      rescued++;
  }
  return {
    requeried,
    rescued,
    recallBefore: requeried ? round(before / requeried) : 0,
    recallAfter: requeried ? round(after / requeried) : 0,
  };
}

function round(x: number, digits = 4): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
