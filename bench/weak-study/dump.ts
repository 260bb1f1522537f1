// Per-question and per-collection features for the weak-flag study (not a suite of `npm run bench`):
//   OUT=/tmp/weak.jsonl SETS=docbots,lohelp,debian-handbook npx tsx bench/weak-study/dump.ts
// One JSON line per collection: each judged question's product bestScore and lexical features,
// and pseudo-queries drawn from the collection itself (a section's salient terms; the same number
// of salient terms of unrelated sections; half of each) with their top hit's features.
import { appendFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { KnowledgeEngine } from "../../src/backends/embedded/embedded-engine.js";
import { queryTermsFor } from "../../src/backends/embedded/embedded-engine.js";
import { readJudgedQuestions } from "../../src/evaluation/judged-questions.js";
import type { CollectionIndex } from "../../src/knowledge/index/collection-index.js";
import { rankCollection } from "../../src/knowledge/index/ranker.js";
import { calibratedRelevance, DEFAULT_CALIBRATION, relevanceShift } from "../../src/knowledge/relevance.js";
import { relevanceFeatures } from "../../src/knowledge/relevance-features.js";
import { seededRandom } from "../../test/support/seeded-random.js";
import { HANDBOOK } from "../debian-handbook/set.js";
import { fromEngine, loadCollections } from "../docbots/collections.js";
import { LOHELP } from "../lohelp/languages.js";
import { openSetBot, questionsFile, setBotDir } from "../multilingual/set.js";
import { queryRarity } from "./rarity.js";

const OUT = process.env.OUT ?? "/tmp/weak.jsonl";
const SETS = (process.env.SETS ?? "docbots,lohelp,debian-handbook").split(",");
const PSEUDO = Number(process.env.PSEUDO ?? 200);
const root = process.env.QUICK_DIR ?? join(tmpdir(), "second-look-quick");

interface Q {
  text: string;
  answerable: boolean;
  relevant: ReadonlySet<string>;
}

function topFeatures(index: CollectionIndex, terms: readonly string[], shift: number) {
  const ranking = rankCollection(index, terms, { rerank: true, limit: 10 });
  const features = relevanceFeatures(ranking);
  const lexical = index.lexical;
  const weights = ranking.stats.map((s) => s.idf * s.queryFrequency);
  const total = weights.reduce((a, b) => a + b, 0) || 1;
  const coverage = (position: number) => {
    const ranked = ranking.documents[position];
    if (!ranked) return 0;
    const unit = ranked.units[0]!.unit;
    const present = new Set([...lexical.titleStream(unit), ...lexical.bodyStream(unit)]);
    return (
      ranking.stats.reduce((a, s, i) => a + (s.termId >= 0 && present.has(s.termId) ? weights[i]! : 0), 0) /
      total
    );
  };
  const rel = features.map((f) => calibratedRelevance(f, DEFAULT_CALIBRATION, shift));
  const rel0 = features.map((f) => calibratedRelevance(f, DEFAULT_CALIBRATION, 0));
  return {
    ranking,
    row: {
      rel: rel.slice(0, 10),
      rel0: rel0.slice(0, 10),
      ns: features.slice(0, 10).map((f) => f.normalizedScore),
      kts: features.slice(0, 10).map((f) => f.keyTermScore),
      raw: ranking.documents.slice(0, 10).map((d) => d.score),
      cov: [0, 1, 2, 3, 4].map(coverage),
      nTerms: ranking.stats.length,
      nKnown: ranking.stats.filter((s) => s.documentFrequency > 0).length,
      unknownShare:
        ranking.stats.reduce((a, s, i) => a + (s.documentFrequency === 0 ? weights[i]! : 0), 0) / total,
      idf: ranking.stats.map((s) => s.idf),
      rarity: queryRarity(ranking.stats, lexical.unitCount),
      maxIdf: Math.log(1 + (lexical.unitCount - 0.5) / 1.5),
    },
  };
}

function salient(index: CollectionIndex, unit: number, count: number, pick: () => number): string[] {
  const lexical = index.lexical;
  const tf = new Map<number, number>();
  for (const t of lexical.titleStream(unit)) tf.set(t, (tf.get(t) ?? 0) + 2);
  for (const t of lexical.bodyStream(unit)) tf.set(t, (tf.get(t) ?? 0) + 1);
  const scored = [...tf]
    .filter(([id]) => lexical.documentFrequency(id) >= 2 && !index.analyzer.isStopwordTerm(lexical.term(id)))
    .map(([id, n]) => ({ id, w: Math.log1p(n) * lexical.idf(id) }))
    .sort((a, b) => b.w - a.w || a.id - b.id)
    .slice(0, Math.max(count * 2, 6));
  const out: string[] = [];
  while (out.length < count && scored.length) {
    const [taken] = scored.splice(Math.floor(pick() * scored.length), 1);
    out.push(lexical.term(taken!.id));
  }
  return out;
}

function pseudo(index: CollectionIndex, shift: number) {
  const lexical = index.lexical;
  const pick = seededRandom(7);
  const units: number[] = [];
  for (let u = 0; u < lexical.unitCount; u++) if (lexical.bodyStream(u).length >= 20) units.push(u);
  const rows: unknown[] = [];
  for (let n = 0; n < PSEUDO && units.length > 10; n++) {
    const unit = units[Math.floor(pick() * units.length)]!;
    const doc = index.unitDocument[unit]!;
    const k = 2 + Math.floor(pick() * 5);
    const own = salient(index, unit, k, pick);
    if (own.length < 2) continue;
    const foreign: string[] = [];
    for (let i = 0; i < own.length * 3 && foreign.length < own.length; i++) {
      const other = units[Math.floor(pick() * units.length)]!;
      if (index.unitDocument[other] === doc) continue;
      const [term] = salient(index, other, 1, pick);
      if (term && !own.includes(term) && !foreign.includes(term)) foreign.push(term);
    }
    const half = Math.ceil(own.length / 2);
    const mixed = [...own.slice(0, half), ...foreign.slice(half)];
    for (const [kind, terms] of [
      ["a", own],
      ["u", foreign],
      ["m", mixed],
    ] as const) {
      const { ranking, row } = topFeatures(index, terms, shift);
      const at = ranking.documents.findIndex((d) => d.document === doc);
      rows.push({
        kind,
        k: terms.length,
        at,
        ...row,
        ns: row.ns.slice(0, 3),
        kts: row.kts.slice(0, 3),
        raw: row.raw.slice(0, 3),
        rel: row.rel.slice(0, 3),
        rel0: row.rel0.slice(0, 3),
        idf: undefined,
      });
    }
  }
  return rows;
}

function dumpCollection(set: string, code: string, engine: KnowledgeEngine, questions: readonly Q[]) {
  const name = engine.collections()[0]!;
  const index = engine.collectionIndex(name)!;
  const started = Date.now();
  const qs = questions.map((q) => {
    const response = engine.searchSync({ query: q.text });
    const analyzer = index.queryAnalyzerFor(q.text);
    const shift = relevanceShift(DEFAULT_CALIBRATION, analyzer.language);
    const terms = queryTermsFor(q.text, index, analyzer);
    const { ranking, row } = topFeatures(index, terms, shift);
    const ids = ranking.documents.map((d) => index.documents[d.document]!.id);
    const at = ids.findIndex((id) => q.relevant.has(id));
    const rankAt = response.results.findIndex((h) => q.relevant.has(h.id));
    return {
      answerable: q.answerable,
      answered: q.answerable && rankAt >= 0 && rankAt < 5,
      at,
      bestScore: response.bestScore,
      weakProduct: response.retryHints !== undefined || response.results.length === 0,
      ...row,
    };
  });
  const shift = relevanceShift(DEFAULT_CALIBRATION, index.analyzer.language);
  const p = pseudo(index, shift);
  const row = {
    set,
    code,
    language: index.analyzer.language,
    shift,
    units: index.lexical.unitCount,
    docs: index.documents.length,
    vocab: index.lexical.vocabularySize,
    avgBody: index.lexical.averageBodyLength,
    questions: qs,
    pseudo: p,
    ms: Date.now() - started,
  };
  appendFileSync(OUT, `${JSON.stringify(row)}\n`);
  process.stderr.write(`${set} ${code}: ${qs.length} questions, ${p.length} pseudo, ${row.ms} ms\n`);
}

if (SETS.includes("docbots")) {
  const { collections, skipped } = await loadCollections();
  if (skipped.length) process.stderr.write(`skipped: ${skipped.join("; ")}\n`);
  for (const c of collections) dumpCollection("docbots", c.name, c.engine, c.questions);
}
for (const set of [LOHELP, HANDBOOK]) {
  if (!SETS.includes(set.name)) continue;
  for (const language of set.languages) {
    const dir = await setBotDir(set, language, "tag", join(root, `${set.name}-${language.code}-tag`));
    const judged = await readJudgedQuestions(questionsFile(set, language.code));
    const opened = await openSetBot(dir);
    try {
      const c = fromEngine(language.code, opened.engine, judged);
      dumpCollection(set.name, language.code, opened.engine, c.questions);
    } finally {
      await opened.close();
    }
  }
}
