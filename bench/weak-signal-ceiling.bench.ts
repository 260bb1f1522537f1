// How well can any lexical, post-retrieval signal tell "an answer is in the top 5" from "not",
// on every judged collection? The weak flag reads one number (bestScore, the calibrated
// relevance of the best hit); this suite measures, for the questions of each collection, the AUC
// of that number beside other scale-free predictors from the query-performance-prediction
// literature (coverage of the query by the hits, score dispersion, query specificity, stability
// under dropping a word), and two ceilings for a model combining all of them: fitted on the
// other collections (what a shipped default can do) and fitted inside the collection itself by
// 10-fold cross-validation (an optimistic bound: no shipped model sees the bot's own judgements).
// If the in-collection ceiling is far below a target, no re-weighting of these signals meets it.

import { ANSWER_DEPTH } from "../src/evaluation/calibration-fit.js";
import { fitLogistic, predict } from "../src/evaluation/logistic.js";
import { rocAuc } from "../src/evaluation/metrics.js";
import { analyzerFor } from "../src/knowledge/analysis/registry.js";
import type { CollectionIndex } from "../src/knowledge/index/collection-index.js";
import { rankCollection } from "../src/knowledge/index/ranker.js";
import { calibratedRelevance, DEFAULT_CALIBRATION } from "../src/knowledge/relevance.js";
import { relevanceFeatures } from "../src/knowledge/relevance-features.js";
import { loadCollections } from "./docbots/collections.js";

/** The benchmark's collections are English. */
const english = analyzerFor("en");
const analyze = (text: string) => english.analyze(text);

export const name = "weak-signal-ceiling";
export const timeoutMs = 900_000;

/** Hits per search, as a bot shows them. */
const DEPTH = 10;
/** Query words the drop-one stability predictor tries (bounds its cost on long queries). */
const DROP_VARIANTS = 8;
const FOLDS = 10;

const PREDICTORS = {
  bestScore: "calibrated relevance of the best hit (the weak flag's input)",
  normalizedScore: "best hit's score over what the whole query could score",
  keyTermScore: "best hit's score over what the 3 rarest words could score",
  coverage: "share of the query's idf weight present in the best hit's section",
  titleCoverage: "share of the query's idf weight in the best hit's title or heading",
  bestCoverageTop5: "highest such coverage among the first 5 hits",
  unknownShare: "share of the query's idf weight on words no document contains",
  meanScoreTop5: "mean normalized score of the first 5 hits",
  dispersion: "standard deviation over mean of the 10 hits' scores (NQC-like)",
  specificity: "mean idf of the query's known words over the largest idf",
  dropStability: "share of drop-one-word queries keeping the best hit in their top 5",
} as const;
export type Predictor = keyof typeof PREDICTORS;
export const NAMES = Object.keys(PREDICTORS) as Predictor[];

export interface Sample {
  values: Record<Predictor, number>;
  answered: boolean;
}

export async function run(): Promise<{ title: string; figures: Record<string, unknown>; markdown: string }> {
  const { collections, skipped } = await loadCollections();
  const samples = new Map<string, Sample[]>();
  for (const c of collections) {
    process.stderr.write(`weak-signal-ceiling: ${c.name} (${c.questions.length} questions) …\n`);
    const index = c.engine.collectionIndex(c.engine.collections()[0]!)!;
    samples.set(
      c.name,
      c.questions.map((q) => sample(index, q.text, (id) => q.answerable && q.relevant.has(id))),
    );
  }
  const names = [...samples.keys()];
  const rows = names.map((set) => {
    const mine = samples.get(set)!;
    const labels = mine.map((s) => s.answered);
    const single = Object.fromEntries(
      NAMES.map((p) => [
        p,
        auc(
          mine.map((s) => s.values[p]),
          labels,
        ),
      ]),
    );
    const others = names.filter((n) => n !== set).flatMap((n) => balanced(samples.get(n)!, names.length - 1));
    const heldOut = others.length ? scoreWith(fitAll(others), mine) : [];
    const crossValidated = new Array<number>(mine.length).fill(0);
    for (let fold = 0; fold < FOLDS; fold++) {
      const train = mine.filter((_s, i) => i % FOLDS !== fold).map((s) => ({ s, w: 1 }));
      if (new Set(train.map((t) => t.s.answered)).size < 2) continue;
      const model = fitAll(train);
      mine.forEach((s, i) => {
        if (i % FOLDS === fold)
          crossValidated[i] = predict(
            model,
            NAMES.map((p) => s.values[p]),
          );
      });
    }
    return {
      collection: set,
      questions: mine.length,
      answered: labels.filter(Boolean).length,
      single,
      allOtherCollections: heldOut.length ? auc(heldOut, labels) : null,
      allInCollectionCv: auc(crossValidated, labels),
    };
  });
  const fmt = (x: number | null) => (x === null ? "–" : x.toFixed(3));
  const markdown = [
    `AUC for "an answer is in the top ${ANSWER_DEPTH}" (unanswerable questions count as not answered), ` +
      `one row per collection. Single predictors first; then a logistic model on all ${NAMES.length} fitted on the other ` +
      `collections (each weighing the same), and fitted inside the collection by ${FOLDS}-fold cross-validation ` +
      "(optimistic: it learns the collection's own judgements).",
    "",
    `| collection | questions | answered | ${NAMES.join(" | ")} | all, fitted on other collections | all, ${FOLDS}-fold inside |`,
    `|---|--:|--:|${NAMES.map(() => "--:").join("|")}|--:|--:|`,
    ...rows.map(
      (r) =>
        `| ${r.collection} | ${r.questions} | ${r.answered} | ${NAMES.map((p) => fmt(r.single[p] ?? null)).join(" | ")} | ${fmt(r.allOtherCollections)} | ${fmt(r.allInCollectionCv)} |`,
    ),
    "",
    ...NAMES.map((p) => `- \`${p}\`: ${PREDICTORS[p]}.`),
    ...(skipped.length ? ["", `Skipped: ${skipped.join("; ")}.`] : []),
  ].join("\n");
  return {
    title: "How far a lexical weak signal can go: AUC ceilings",
    figures: { rows, skipped },
    markdown,
  };
}

export function sample(index: CollectionIndex, query: string, isAnswer: (id: string) => boolean): Sample {
  const lexical = index.lexical;
  const terms = analyze(query);
  const ranking = rankCollection(index, terms, { rerank: true, limit: DEPTH });
  const features = relevanceFeatures(ranking);
  const docs = ranking.documents;
  const stats = ranking.stats;
  const weight = stats.map((s) => s.idf * s.queryFrequency);
  const total = weight.reduce((a, b) => a + b, 0) || 1;
  const coverageOf = (position: number, titleOnly: boolean) => {
    const ranked = docs[position];
    if (!ranked) return 0;
    const unit = ranked.units[0]!.unit;
    const present = new Set(
      titleOnly ? lexical.titleStream(unit) : [...lexical.titleStream(unit), ...lexical.bodyStream(unit)],
    );
    return (
      stats.reduce((a, s, i) => a + (s.termId >= 0 && present.has(s.termId) ? weight[i]! : 0), 0) / total
    );
  };
  const scores = docs.map((d) => d.score);
  const mean = scores.reduce((a, b) => a + b, 0) / (scores.length || 1);
  const sd = Math.sqrt(scores.reduce((a, b) => a + (b - mean) ** 2, 0) / (scores.length || 1));
  const known = stats.filter((s) => s.documentFrequency > 0);
  const largestIdf = Math.log(1 + (lexical.unitCount - 0.5) / 1.5);
  let kept = 0;
  let variants = 0;
  const best = docs[0]?.document;
  if (best !== undefined && stats.length > 1) {
    for (const s of stats.slice(0, DROP_VARIANTS)) {
      const variant = rankCollection(
        index,
        terms.filter((t) => t !== s.term),
        { rerank: false, limit: ANSWER_DEPTH },
      );
      variants++;
      if (variant.documents.some((d) => d.document === best)) kept++;
    }
  }
  const values: Record<Predictor, number> = {
    bestScore: features[0] ? calibratedRelevance(features[0], DEFAULT_CALIBRATION) : 0,
    normalizedScore: features[0]?.normalizedScore ?? 0,
    keyTermScore: features[0]?.keyTermScore ?? 0,
    coverage: coverageOf(0, false),
    titleCoverage: coverageOf(0, true),
    bestCoverageTop5: Math.max(0, ...[0, 1, 2, 3, 4].map((p) => coverageOf(p, false))),
    unknownShare: stats.reduce((a, s, i) => a + (s.documentFrequency === 0 ? weight[i]! : 0), 0) / total,
    meanScoreTop5: docs.slice(0, ANSWER_DEPTH).reduce((a, d) => a + d.normalizedScore, 0) / ANSWER_DEPTH,
    dispersion: mean > 0 ? sd / mean : 0,
    specificity:
      known.length && largestIdf > 0 ? known.reduce((a, s) => a + s.idf, 0) / known.length / largestIdf : 0,
    dropStability: variants ? kept / variants : 1,
  };
  const answered = docs.slice(0, ANSWER_DEPTH).some((d) => isAnswer(index.documents[d.document]!.id));
  return { values, answered };
}

/** Each collection weighs the same in a fit on several. */
function balanced(set: readonly Sample[], collections: number): { s: Sample; w: number }[] {
  return set.map((s) => ({ s, w: 1 / (set.length * collections) }));
}

function fitAll(train: readonly { s: Sample; w: number }[]) {
  const scale = train.length / train.reduce((a, t) => a + t.w, 0);
  return fitLogistic(
    train.map((t) => NAMES.map((p) => t.s.values[p])),
    train.map((t) => (t.s.answered ? 1 : 0)),
    { l2: 1e-2, sampleWeights: train.map((t) => t.w * scale) },
  );
}

function scoreWith(model: ReturnType<typeof fitAll>, set: readonly Sample[]): number[] {
  return set.map((s) =>
    predict(
      model,
      NAMES.map((p) => s.values[p]),
    ),
  );
}

function auc(scores: readonly number[], labels: readonly boolean[]): number | null {
  const value = rocAuc(scores, labels);
  return Number.isNaN(value) ? null : Math.round(value * 1000) / 1000;
}
