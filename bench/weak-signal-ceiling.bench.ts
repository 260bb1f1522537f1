// How well can any lexical, post-retrieval signal tell "an answer is in the top 5" from "not",
// on every judged collection? The weak flag reads one number (bestScore, the calibrated
// relevance of the best hit); this suite measures, for the questions of each collection, the AUC
// of that number beside other scale-free predictors from the query-performance-prediction
// literature (coverage of the query by the hits, score dispersion, query specificity, stability
// under dropping a word), and two ceilings for a model combining all of them: fitted on the
// other collections (what a shipped default can do) and fitted inside the collection itself by
// 10-fold cross-validation (an optimistic bound: no shipped model sees the bot's own judgements).
// If the in-collection ceiling is far below a target, no re-weighting of these signals meets it.

import { ANSWER_DEPTH, weakFlagFigures } from "../src/evaluation/calibration-fit.js";
import { fitLogistic, predict } from "../src/evaluation/logistic.js";
import { rocAuc } from "../src/evaluation/metrics.js";
import { analyzerFor } from "../src/knowledge/analysis/registry.js";
import type { CollectionIndex } from "../src/knowledge/index/collection-index.js";
import { rankCollection } from "../src/knowledge/index/ranker.js";
import { calibratedRelevance, DEFAULT_CALIBRATION } from "../src/knowledge/relevance.js";
import { relevanceFeatures } from "../src/knowledge/relevance-features.js";
import { WEAK_BEST_SCORE } from "../src/weakness.js";
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
  /** A question the documents do not answer (documentation bots judge some so). */
  unanswerable: boolean;
}

export async function run(): Promise<{ title: string; figures: Record<string, unknown>; markdown: string }> {
  const { collections, skipped } = await loadCollections();
  const samples = new Map<string, Sample[]>();
  for (const c of collections) {
    process.stderr.write(`weak-signal-ceiling: ${c.name} (${c.questions.length} questions) …\n`);
    const index = c.engine.collectionIndex(c.engine.collections()[0]!)!;
    samples.set(
      c.name,
      c.questions.map((q) => ({
        ...sample(index, q.text, (id) => q.answerable && q.relevant.has(id)),
        unanswerable: !q.answerable,
      })),
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
  const flagStudy = unanswerableStudy(samples);
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
    "",
    ...flagStudy.markdown,
    ...(skipped.length ? ["", `Skipped: ${skipped.join("; ")}.`] : []),
  ].join("\n");
  return {
    title: "How far a lexical weak signal can go: AUC ceilings",
    figures: { rows, unanswerable: flagStudy.figures, skipped },
    markdown,
  };
}

export function sample(
  index: CollectionIndex,
  query: string,
  isAnswer: (id: string) => boolean,
): Omit<Sample, "unanswerable"> {
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

/** The issue's bar for the weak flag on the documentation bots: false alarms at most this share… */
const MAX_FALSE_ALARMS = 0.2;
/** …while flagging at least this share of the questions the documents do not answer. */
const UNANSWERABLE_TARGET = 0.85;

/** One way of flagging: the share of unanswerable questions and of found answers it flags. */
interface FlagFigures {
  unanswerableFlagged: number;
  falseAlarms: number;
}

/**
 * The weak flag's other job, on the collections with unanswerable questions (the documentation
 * bots): flag those questions (target ≥ 85 %) while flagging few searches whose top 5 holds an
 * answer (false alarms ≤ 20 %). Answerable questions whose answer is not in the top 5 are neither.
 * For each predictor alone, the most unanswerable questions flagged by any threshold inside the
 * collection that keeps false alarms ≤ 20 % (optimistic: the threshold sees the collection's own
 * judgements); then a logistic model on all eleven, (a) fitted on every such collection with one
 * threshold for all, (b) fitted and thresholded on the others, measured on the one left out.
 */
export function unanswerableStudy(samples: ReadonlyMap<string, readonly Sample[]>): {
  figures: Record<string, unknown>;
  markdown: string[];
} {
  const sets = [...samples.entries()]
    .map(([name, all]) => ({
      name,
      unanswerable: all.filter((s) => s.unanswerable),
      found: all.filter((s) => !s.unanswerable && s.answered),
    }))
    .filter((set) => set.unanswerable.length > 0 && set.found.length > 0);
  if (sets.length === 0) return { figures: {}, markdown: [] };
  const single = sets.map((set) => ({
    collection: set.name,
    unanswerable: set.unanswerable.length,
    found: set.found.length,
    byPredictor: Object.fromEntries(
      NAMES.map((p) => {
        const sign = orientation(set, p);
        const score = (s: Sample) => sign * s.values[p];
        return [p, bestFlagInside(set.unanswerable.map(score), set.found.map(score))];
      }),
    ),
  }));
  const pooled = flagWithModel(sets, sets);
  const leftOut =
    sets.length > 1
      ? sets.map((set) => ({
          collection: set.name,
          ...flagWithModel(
            sets.filter((other) => other !== set),
            [set],
          ).perCollection[0]!,
        }))
      : [];
  const shipped = sets.map((set) => ({
    collection: set.name,
    ...flagFigures(
      set.unanswerable.map((s) => s.values.bestScore),
      set.found.map((s) => s.values.bestScore),
      WEAK_BEST_SCORE,
    ),
  }));
  const pct = (x: number) => `${(100 * x).toFixed(0)} %`;
  const cell = (f: FlagFigures) => `${pct(f.unanswerableFlagged)} / ${pct(f.falseAlarms)}`;
  const markdown = [
    "### The weak flag on unanswerable questions (documentation bots)",
    "",
    `Target: unanswerable questions flagged ≥ ${pct(UNANSWERABLE_TARGET)} with false alarms (flagged, an answer in the top ${ANSWER_DEPTH}) ≤ ${pct(MAX_FALSE_ALARMS)}. ` +
      "Each cell: unanswerable flagged / false alarms, at the threshold that flags the most unanswerable questions " +
      `while false alarms stay ≤ ${pct(MAX_FALSE_ALARMS)}, chosen inside the collection (optimistic).`,
    "",
    `| collection | unanswerable | found in top ${ANSWER_DEPTH} | ${NAMES.join(" | ")} |`,
    `|---|--:|--:|${NAMES.map(() => "--:").join("|")}|`,
    ...single.map(
      (r) =>
        `| ${r.collection} | ${r.unanswerable} | ${r.found} | ${NAMES.map((p) => cell(r.byPredictor[p]!)).join(" | ")} |`,
    ),
    "",
    `The shipped weak line (bestScore < ${WEAK_BEST_SCORE}): ${shipped.map((r) => `${r.collection} ${cell(r)}`).join(", ")}.`,
    "",
    `A logistic model on all ${NAMES.length} (unanswerable against found, each collection weighing the same):`,
    "",
    "| collection | fitted on every collection, one threshold keeping false alarms ≤ 20 % on each | fitted and thresholded on the others, this one left out |",
    "|---|--:|--:|",
    ...sets.map((set, i) => {
      const out = leftOut.find((r) => r.collection === set.name);
      return `| ${set.name} | ${cell(pooled.perCollection[i]!)} | ${out ? cell(out) : "–"} |`;
    }),
  ];
  return {
    figures: {
      target: UNANSWERABLE_TARGET,
      maxFalseAlarms: MAX_FALSE_ALARMS,
      shipped,
      single,
      pooled: {
        threshold: pooled.threshold,
        perCollection: sets.map((set, i) => ({ collection: set.name, ...pooled.perCollection[i]! })),
      },
      leftOut,
    },
    markdown,
  };
}

/** +1 when a higher value means "answered" for this predictor in this collection, else −1. */
function orientation(
  set: { unanswerable: readonly Sample[]; found: readonly Sample[] },
  p: Predictor,
): number {
  const value = rocAuc(
    [...set.found, ...set.unanswerable].map((s) => s.values[p]),
    [...set.found.map(() => true), ...set.unanswerable.map(() => false)],
  );
  return Number.isNaN(value) || value >= 0.5 ? 1 : -1;
}

/** Flag a search when its score is below a threshold: the most unanswerable flagged at capped false alarms. */
function bestFlagInside(unanswerable: readonly number[], found: readonly number[]): FlagFigures {
  let best: FlagFigures = { unanswerableFlagged: 0, falseAlarms: 0 };
  for (const threshold of thresholds([...unanswerable, ...found])) {
    const figures = flagFigures(unanswerable, found, threshold);
    if (figures.falseAlarms <= MAX_FALSE_ALARMS && figures.unanswerableFlagged > best.unanswerableFlagged)
      best = figures;
  }
  return best;
}

function thresholds(values: readonly number[]): number[] {
  return [...new Set(values), Number.POSITIVE_INFINITY].sort((a, b) => a - b);
}

/** The product's weak-flag figures (calibration-fit.ts) with `threshold` on these scores. */
function flagFigures(
  unanswerable: readonly number[],
  found: readonly number[],
  threshold: number,
): FlagFigures {
  const figures = weakFlagFigures(
    [
      ...unanswerable.map((bestScore) => ({ bestScore, answerable: false, answered: false })),
      ...found.map((bestScore) => ({ bestScore, answerable: true, answered: true })),
    ],
    threshold,
  );
  return { unanswerableFlagged: figures.unanswerableFlagged ?? 0, falseAlarms: figures.falseAlarms ?? 0 };
}

/**
 * A model fitted on `train` (found = 1, unanswerable = 0, each collection weighing the same), its
 * threshold the highest keeping false alarms ≤ 20 % on every training collection, applied to `test`.
 */
function flagWithModel(
  train: readonly { unanswerable: readonly Sample[]; found: readonly Sample[] }[],
  test: readonly { unanswerable: readonly Sample[]; found: readonly Sample[] }[],
): { threshold: number; perCollection: FlagFigures[] } {
  const rows = train.flatMap((set) => {
    const all = [...set.found, ...set.unanswerable];
    return all.map((s) => ({
      x: NAMES.map((p) => s.values[p]),
      y: s.unanswerable ? 0 : 1,
      w: 1 / (2 * (s.unanswerable ? set.unanswerable.length : set.found.length) * train.length),
    }));
  });
  const scale = rows.length / rows.reduce((a, r) => a + r.w, 0);
  const model = fitLogistic(
    rows.map((r) => r.x),
    rows.map((r) => r.y),
    { l2: 1e-2, sampleWeights: rows.map((r) => r.w * scale) },
  );
  const score = (s: Sample) =>
    predict(
      model,
      NAMES.map((p) => s.values[p]),
    );
  const scored = (set: { unanswerable: readonly Sample[]; found: readonly Sample[] }) => ({
    unanswerable: set.unanswerable.map(score),
    found: set.found.map(score),
  });
  const trained = train.map(scored);
  let threshold = Number.NEGATIVE_INFINITY;
  for (const t of thresholds(trained.flatMap((set) => [...set.unanswerable, ...set.found]))) {
    if (trained.every((set) => flagFigures(set.unanswerable, set.found, t).falseAlarms <= MAX_FALSE_ALARMS))
      threshold = t;
  }
  return {
    threshold,
    perCollection: test.map(scored).map((set) => flagFigures(set.unanswerable, set.found, threshold)),
  };
}
