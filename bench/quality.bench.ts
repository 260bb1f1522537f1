/**
 * Ranking quality on Cranfield (1,400 documents, 225 judged queries, SMART layout), our engine
 * and the peers side by side in one process: our default search (full mode, reranked), our
 * first pass (rerank: false), SQLite FTS5 and MiniSearch. Each system returns its top 100 per
 * query; metrics are BEIR's (graded nDCG@10, MAP@100, recall@100) plus miss@10. Also the signal
 * on the same queries exactly as `second-look eval <cranfield> --format cranfield` measures it
 * (bands, weak flag, the hint re-query), so the README quotes it from a committed result. Run by
 * bench/run.ts.
 */
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { readCranfield } from "../src/evaluation/cranfield.js";
import { evaluateRuns } from "../src/evaluation/metrics.js";
import { runEvaluation } from "../src/evaluation/run-evaluation.js";
import { Fts5Peer } from "./peers/fts5.js";
import { MiniSearchPeer } from "./peers/minisearch.js";
import type { Peer } from "./peers/peer.js";
import { SecondLookPeer } from "./peers/second-look.js";
import { timeBuild, timeQueries } from "./peers/timed-run.js";

export const name = "quality";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
/** The shared data sits beside the repository; BENCH_DATA_DIR points elsewhere. */
const dataDir = resolve(process.env.BENCH_DATA_DIR ?? resolve(repo, "../shared/data"), "cranfield");
const DEPTH = 100;
/** Timed passes over the queries after the warm-up; the latency column is their median. */
const PASSES = 3;

interface Row {
  system: string;
  ndcg10: number;
  map100: number;
  recall100: number;
  miss10: number;
  indexMs: number;
  queryP50Ms: number;
}

export async function run(): Promise<{ title: string; figures: Record<string, unknown>; markdown: string }> {
  const dataset = await readCranfield(dataDir);
  const rows: Row[] = [];

  const ours = new SecondLookPeer({ rerank: true });
  const oursIndexMs = timeBuild(ours, dataset.docs);
  const systems: { peer: Peer; indexMs: number }[] = [
    { peer: ours, indexMs: oursIndexMs },
    { peer: ours.withMode(false), indexMs: oursIndexMs },
  ];
  for (const peer of [new Fts5Peer(), new MiniSearchPeer()]) {
    systems.push({ peer, indexMs: timeBuild(peer, dataset.docs) });
  }

  const timings = timeQueries(
    systems.map((s) => s.peer),
    dataset.queries,
    { k: DEPTH, passes: PASSES, warmup: dataset.queries.length },
  );
  systems.forEach(({ peer, indexMs }, i) => {
    const timed = timings[i]!;
    const m = evaluateRuns(dataset.qrels, timed.runs);
    rows.push({
      system: peer.label,
      ndcg10: round(m.ndcg10, 3),
      map100: round(m.map100, 3),
      recall100: round(m.recall100, 3),
      miss10: round(m.miss10, 3),
      indexMs: Math.round(indexMs),
      queryP50Ms: round(timed.p50, 3),
    });
  });
  for (const { peer } of systems) peer.close();
  const { bands, weak, corrective } = runEvaluation(dataset);
  const pct = (x: number | null) => (x === null ? "–" : `${(x * 100).toFixed(1)} %`);

  const markdown = [
    `Cranfield: ${dataset.docs.length} docs, ${dataset.queries.length} judged queries, top ${DEPTH} per query, OR semantics.`,
    `Query p50 over ${PASSES} timed passes after one warm-up pass, the systems taking turns query by query. ` +
      "Our two rows share one index build.",
    "",
    "| system | nDCG@10 | MAP@100 | R@100 | miss@10 | index ms | query p50 ms |",
    "|---|---:|---:|---:|---:|---:|---:|",
    ...rows.map(
      (r) =>
        `| ${r.system} | ${r.ndcg10.toFixed(3)} | ${r.map100.toFixed(3)} | ${r.recall100.toFixed(3)} | ` +
        `${r.miss10.toFixed(3)} | ${r.indexMs} | ${r.queryP50Ms.toFixed(3)} |`,
    ),
    "",
    "Signal (as `eval --format cranfield`): band precision over all top-10 hits " +
      (["high", "medium", "low"] as const)
        .map((b) => `${b} ${pct(bands[b].precision)} (${bands[b].hits} hits)`)
        .join(", ") +
      `; weak flag on ${weak.flagged} of ${dataset.queries.length} queries, AUC ${weak.auc.toFixed(3)} for "no relevant hit in the top 10"; ` +
      `hint re-query on ${corrective.requeried} weak queries: recall ${corrective.recallBefore.toFixed(3)} → ${corrective.recallAfter.toFixed(3)}, ${corrective.rescued} rescued ` +
      `(broader ${corrective.byHint.broader.rescued} rescued, recall ${corrective.byHint.broader.recallAfter.toFixed(3)}; ` +
      `narrower ${corrective.byHint.narrower.rescued} rescued, ${corrective.byHint.narrower.recallAfter.toFixed(3)}).`,
  ].join("\n");
  return {
    title: "Ranking quality on Cranfield",
    figures: {
      docs: dataset.docs.length,
      queries: dataset.queries.length,
      depth: DEPTH,
      passes: PASSES,
      rows,
      signal: { bands, weak, corrective },
    },
    markdown,
  };
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
