// How far lexical rescue can go, on every judged collection: for the answerable questions whose
// first search missed every answering document (in its 10 hits) and was flagged weak, how many
// the signal's corrective pass brings back (src/corrective/corrective-pass.ts run on the engine, the
// answer counted when a document of it is in the corrected text), against two ceilings: some candidate's own 10 hits hold an answer, and some
// single query word or pair of words does (an oracle no lexical rule can pick without the
// judgements). The end-to-end pydocs figures come from `npm run bench -- rescue`.
import { pino } from "pino";
import { runCorrectiveRetrieval } from "../src/corrective/corrective-pass.js";
import { docIdsIn } from "../src/evaluation/evaluate-bot.js";
import { analyzerFor } from "../src/knowledge/analysis/registry.js";
import { renderSearchResponse } from "../src/knowledge-tool/render.js";
import type { Hit, SearchResponse } from "../src/types.js";
import { isWeak } from "../src/weakness.js";
import { loadCollections } from "./docbots/collections.js";

/** The benchmark's collections are English. */
const english = analyzerFor("en");
const termOf = (word: string) => english.termOf(word);
const words = (text: string) => english.words(text);

export const name = "rescue-candidates";
export const timeoutMs = 900_000;

const silent = pino({ level: "silent" });
/** Words per query the pair oracle examines: bounds its quadratic cost on long questions. */
const ORACLE_WORDS = 24;

interface Row {
  collection: string;
  flaggedMisses: number;
  rescued: number;
  notCovered: number;
  someCandidate: number;
  someWordOrPair: number;
  candidatesPerSearch: number;
  correctiveMsP50: number;
  byStrategy: Record<string, number>;
}

export async function run(): Promise<{ title: string; figures: Record<string, unknown>; markdown: string }> {
  const { collections, skipped } = await loadCollections(["pydocs", "cranfield", "cisi", "cacm"]);
  const rows: Row[] = [];
  for (const c of collections) {
    const search = (query: string) => c.engine.search({ query, rerank: true });
    const row: Row = {
      collection: c.name,
      flaggedMisses: 0,
      rescued: 0,
      notCovered: 0,
      someCandidate: 0,
      someWordOrPair: 0,
      candidatesPerSearch: 0,
      correctiveMsP50: 0,
      byStrategy: {},
    };
    const roundMs: number[] = [];
    let candidates = 0;
    for (const q of c.questions) {
      if (!q.answerable) continue;
      const answers = (hits: readonly Hit[]) => hits.some((h) => q.relevant.has(h.id));
      const first = await search(q.text);
      if (answers(first.results) || !isWeak(first)) continue;
      row.flaggedMisses++;
      const rescue = first.retryHints?.rescueQueries ?? [];
      candidates += rescue.length;
      const started = performance.now();
      const corrected = await runCorrectiveRetrieval({
        question: q.text,
        originalQuery: q.text,
        originalText: renderSearchResponse(first, { brief: false }),
        originalResponse: first,
        allowedCollections: c.engine.collections(),
        grader: "signal",
        backend: c.engine,
        log: silent,
      });
      roundMs.push(performance.now() - started);
      if (corrected.metadata.notCovered) row.notCovered++;
      if (docIdsIn(corrected.text).some((id) => q.relevant.has(id))) row.rescued++;
      const found: SearchResponse[] = await Promise.all(rescue.map((r) => search(r.query)));
      let some = false;
      found.forEach((r, i) => {
        if (!answers(r.results)) return;
        some = true;
        const strategy = rescue[i]!.strategy;
        row.byStrategy[strategy] = (row.byStrategy[strategy] ?? 0) + 1;
      });
      if (some) row.someCandidate++;
      if (await someWordOrPair(q.text, (query) => search(query).then((r) => answers(r.results)))) {
        row.someWordOrPair++;
      }
    }
    row.candidatesPerSearch = row.flaggedMisses ? Math.round((candidates / row.flaggedMisses) * 10) / 10 : 0;
    row.correctiveMsP50 = Math.round(median(roundMs) * 10) / 10;
    rows.push(row);
  }
  const pct = (n: number, of: number) => (of ? `${Math.round((100 * n) / of)}%` : "–");
  const markdown = [
    "Answerable questions whose first search (10 hits) missed every answering document and was flagged weak; " +
      "rescued: an answering document is in the text the signal's corrective pass returns " +
      "(src/corrective/corrective-pass.ts over the engine). Ceilings: some candidate's 10 hits hold an answer; some " +
      "single query word or pair of words does (an oracle).",
    "",
    "| collection | flagged misses | rescued | said not covered | ceiling: some candidate | ceiling: some word or pair | candidates / search | corrective pass p50 ms |",
    "|---|---|---|---|---|---|---|---|",
    ...rows.map(
      (r) =>
        `| ${r.collection} | ${r.flaggedMisses} | ${r.rescued} (${pct(r.rescued, r.flaggedMisses)}) | ${r.notCovered} | ${r.someCandidate} (${pct(r.someCandidate, r.flaggedMisses)}) | ${r.someWordOrPair} (${pct(r.someWordOrPair, r.flaggedMisses)}) | ${r.candidatesPerSearch} | ${r.correctiveMsP50} |`,
    ),
    ...(skipped.length ? ["", `Skipped: ${skipped.join("; ")}.`] : []),
  ].join("\n");
  return {
    title: "Lexical rescue candidates: rescued misses and ceilings",
    figures: { rows, skipped },
    markdown,
  };
}

async function someWordOrPair(
  question: string,
  answers: (query: string) => Promise<boolean>,
): Promise<boolean> {
  const distinct = [...new Set(words(question).filter((w) => termOf(w) !== undefined))].slice(
    0,
    ORACLE_WORDS,
  );
  for (const word of distinct) if (await answers(word)) return true;
  for (let i = 0; i < distinct.length; i++) {
    for (let j = i + 1; j < distinct.length; j++)
      if (await answers(`${distinct[i]} ${distinct[j]}`)) return true;
  }
  return false;
}

function median(values: number[]): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
