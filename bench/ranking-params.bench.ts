/**
 * ranking-params: the BM25F defaults (src/knowledge/index/bm25.ts DEFAULT_BM25) held against a grid
 * of other values on every visible collection together, leave one collection out.
 *
 * Collections: pydocs, nodejs-api, lohelp in its 11 languages, the Debian handbook in its 9, and
 * Cranfield, CISI and CACM. Each is opened as its bench opens it (the multilingual sets' bots with
 * `language` set to the documents' tag) and indexed once; every grid point scores the same index
 * (CollectionIndex.withParams) through the ranker itself (rankCollection with the default
 * search's feedback pass, as the engine ranks). Figures: hit@5 on the documentation collections'
 * answerable questions, nDCG@10 with binary relevance on Cranfield, CISI and CACM. A multilingual
 * set counts as one collection (the mean over its languages), so eleven translations of one help
 * do not outvote the rest.
 *
 * Left out: for each collection, the grid point with the largest mean gain over the default on
 * the others (ties to the default), and its gain on the one left out. A default changes only
 * when the grid point chosen on every collection gains left out on each.
 */
import { queryTermsFor } from "../src/backends/embedded/embedded-engine.js";
import { readJudgedQuestions } from "../src/evaluation/judged-questions.js";
import { type Bm25Params, DEFAULT_BM25 } from "../src/knowledge/index/bm25.js";
import type { CollectionIndex } from "../src/knowledge/index/collection-index.js";
import { rankCollection } from "../src/knowledge/index/ranker.js";
import { HANDBOOK } from "./debian-handbook/set.js";
import { fromEngine, type JudgedCollection, loadCollections } from "./docbots/collections.js";
import { LOHELP } from "./lohelp/languages.js";
import { type MultilingualSet, openSetBot, questionsFile, setBotDir } from "./multilingual/set.js";

export const name = "ranking-params";
export const timeoutMs = 60 * 60_000;

const K1 = [0.9, 1.2, 1.6, 2.0];
const B_BODY = [0.5, 0.75, 0.9];
const B_TITLE = [0.3, 0.5, 0.8];
const TITLE_WEIGHT = [1.5, 2, 3];
const GRADED = new Set(["cranfield", "cisi", "cacm"]);
const DEPTH = 10;

interface Measured {
  group: string;
  name: string;
  index: CollectionIndex;
  questions: JudgedCollection["questions"];
  /** The engine's own search at the defaults, the same figure: the ranker here ranks as it does. */
  engineFigure: number;
}

const key = (p: Bm25Params) =>
  `k1 ${p.k1} · b ${p.bBody} · b title ${p.bTitle} · title weight ${p.titleWeight}`;
const isDefault = (p: Bm25Params) =>
  p.k1 === DEFAULT_BM25.k1 &&
  p.bBody === DEFAULT_BM25.bBody &&
  p.bTitle === DEFAULT_BM25.bTitle &&
  p.titleWeight === DEFAULT_BM25.titleWeight;

function figure(
  graded: boolean,
  questions: Measured["questions"],
  ranked: (text: string) => string[],
): number {
  let sum = 0;
  let n = 0;
  for (const q of questions) {
    if (!q.answerable || q.relevant.size === 0) continue;
    n++;
    const ids = ranked(q.text).slice(0, DEPTH);
    if (!graded) {
      if (ids.slice(0, 5).some((id) => q.relevant.has(id))) sum++;
      continue;
    }
    let dcg = 0;
    ids.forEach((id, i) => {
      if (q.relevant.has(id)) dcg += 1 / Math.log2(i + 2);
    });
    let ideal = 0;
    for (let i = 0; i < Math.min(DEPTH, q.relevant.size); i++) ideal += 1 / Math.log2(i + 2);
    sum += dcg / ideal;
  }
  return n ? (graded ? sum / n : (100 * sum) / n) : 0;
}

const rankedBy = (index: CollectionIndex) => (text: string) =>
  rankCollection(index, queryTermsFor(text, index), { rerank: true, limit: DEPTH }).documents.map(
    (d) => index.documents[d.document]!.id,
  );

function measured(group: string, c: JudgedCollection): Measured {
  const index = c.engine.collectionIndex(c.engine.collections()[0]!)!;
  const graded = GRADED.has(group);
  const engineFigure = figure(graded, c.questions, (text) =>
    c.engine.searchSync({ query: text, limit: DEPTH }).results.map((h) => h.id),
  );
  return { group, name: c.name, index, questions: c.questions, engineFigure };
}

async function multilingual(set: MultilingualSet): Promise<Measured[]> {
  const out: Measured[] = [];
  for (const language of set.languages) {
    const opened = await openSetBot(await setBotDir(set, language, "tag"));
    const judged = await readJudgedQuestions(questionsFile(set, language.code));
    out.push(measured(set.name, fromEngine(`${set.name} ${language.code}`, opened.engine, judged)));
  }
  return out;
}

export async function run(): Promise<{ title: string; figures: Record<string, unknown>; markdown: string }> {
  const { collections, skipped } = await loadCollections([
    "pydocs",
    "nodejs-api",
    "cranfield",
    "cisi",
    "cacm",
  ]);
  if (skipped.length) throw new Error(`ranking-params needs every visible collection: ${skipped.join("; ")}`);
  const all: Measured[] = [
    ...collections.map((c) => measured(c.name, c)),
    ...(await multilingual(LOHELP)),
    ...(await multilingual(HANDBOOK)),
  ];
  const groups = [...new Set(all.map((m) => m.group))];

  const grid: Bm25Params[] = [];
  for (const k1 of K1)
    for (const bBody of B_BODY)
      for (const bTitle of B_TITLE)
        for (const titleWeight of TITLE_WEIGHT) grid.push({ k1, bBody, bTitle, titleWeight });
  if (!grid.some(isDefault)) throw new Error("the grid must hold the defaults");

  // value[grid point][collection]
  const values = grid.map((p, i) => {
    process.stderr.write(`ranking-params: ${i + 1}/${grid.length} ${key(p)}\n`);
    return all.map((m) =>
      figure(GRADED.has(m.group), m.questions, rankedBy(isDefault(p) ? m.index : m.index.withParams(p))),
    );
  });
  const at = grid.findIndex(isDefault);
  const defaults = values[at]!;
  const mismatched = all.filter((m, j) => Math.abs(m.engineFigure - defaults[j]!) > 1e-9).map((m) => m.name);
  if (mismatched.length)
    throw new Error(`the ranker here does not rank as the engine on ${mismatched.join(", ")}`);

  // A collection's gain: its languages' mean gain over the default (points of hit@5, or nDCG@10 × 100).
  const scale = (group: string) => (GRADED.has(group) ? 100 : 1);
  const gain = (g: number, group: string) => {
    const js = all.flatMap((m, j) => (m.group === group ? [j] : []));
    return (js.reduce((s, j) => s + values[g]![j]! - defaults[j]!, 0) / js.length) * scale(group);
  };
  const meanGain = (g: number, over: readonly string[]) =>
    over.reduce((s, c) => s + gain(g, c), 0) / over.length;
  const bestOn = (over: readonly string[]) =>
    grid.reduce((best, _, g) => (meanGain(g, over) > meanGain(best, over) + 1e-9 ? g : best), at);

  const onAll = bestOn(groups);
  const leftOut = groups.map((group) => {
    const chosen = bestOn(groups.filter((c) => c !== group));
    return { collection: group, chosen: key(grid[chosen]!), gain: round(gain(chosen, group)) };
  });
  const change = onAll !== at && leftOut.every((l) => l.gain > 0);
  const defaultFigure = (group: string) => {
    const js = all.flatMap((m, j) => (m.group === group ? [j] : []));
    return round(js.reduce((s, j) => s + defaults[j]!, 0) / js.length, GRADED.has(group) ? 3 : 1);
  };

  const figures = {
    defaults: key(DEFAULT_BM25),
    gridPoints: grid.length,
    collections: groups.map((group) => ({
      collection: group,
      metric: GRADED.has(group) ? "nDCG@10 (binary)" : "hit@5",
      atDefaults: defaultFigure(group),
      bestOnAllGain: round(gain(onAll, group)),
    })),
    bestOnAll: key(grid[onAll]!),
    bestOnAllMeanGain: round(meanGain(onAll, groups)),
    leftOut,
    change,
  };
  const markdown = [
    `${grid.length} grid points (k1 ${K1.join(", ")}; b ${B_BODY.join(", ")}; b title ${B_TITLE.join(", ")}; title weight ${TITLE_WEIGHT.join(", ")}) on ${all.length} indexes of ${groups.length} collections, each index built once. Shipped: ${key(DEFAULT_BM25)}. Gains in points of hit@5 (nDCG@10 × 100 for Cranfield, CISI, CACM); a multilingual set's is the mean over its languages. At the defaults the ranker here gives the engine's own figures on every index.`,
    "",
    `| collection | metric | at the defaults | gain of the best grid point on all (${key(grid[onAll]!)}) |`,
    "|---|---|--:|--:|",
    ...figures.collections.map(
      (c) => `| ${c.collection} | ${c.metric} | ${c.atDefaults} | ${signed(c.bestOnAllGain)} |`,
    ),
    "",
    "Left out one collection at a time: the grid point with the largest mean gain on the others, and its gain on the one left out.",
    "",
    "| left out | chosen on the others | gain left out |",
    "|---|---|--:|",
    ...leftOut.map((l) => `| ${l.collection} | ${l.chosen} | ${signed(l.gain)} |`),
    "",
    change
      ? `Every collection gains left out: the defaults should move to ${key(grid[onAll]!)}.`
      : `The defaults stay: ${onAll === at ? "no grid point gains on all collections together" : `the best grid point on all (mean ${signed(figures.bestOnAllMeanGain)}) does not gain on every collection left out`}.`,
  ].join("\n");
  return {
    title: "ranking-params: the BM25F defaults against a grid, every visible collection, leave one out",
    figures,
    markdown,
  };
}

function round(x: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

function signed(x: number): string {
  return x > 0 ? `+${x}` : `${x}`;
}
