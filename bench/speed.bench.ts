/**
 * Index and query speed and memory at 50k documents: Cranfield replicated BENCH_COPIES times
 * (default 36 → 50,400 docs). Every copy keeps the text unchanged and suffixes the ids
 * (`123#7` is document 123 of copy 7), so term statistics scale but the vocabulary does not.
 * Our engine (default search and first pass), SQLite FTS5 and MiniSearch are built one after
 * the other in one process, then queried taking turns (timed-run.ts says why): all 225 Cranfield
 * queries, PASSES timed passes after a warm-up, top 100, the whole query text, OR semantics.
 * Run by bench/run.ts (node --expose-gc, for the memory figures).
 */
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { readCranfield } from "../src/evaluation/cranfield.js";
import type { EvalDoc } from "../src/evaluation/dataset.js";
import { Fts5Peer } from "./peers/fts5.js";
import { MiniSearchPeer } from "./peers/minisearch.js";
import type { Peer } from "./peers/peer.js";
import { SecondLookPeer } from "./peers/second-look.js";
import { type QueryTimings, timeBuild, timeQueries } from "./peers/timed-run.js";

export const name = "speed";
/** Three 50k-document builds and ~2,900 timed queries: about three minutes on 2 idle cores. */
export const timeoutMs = 600_000;

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const dataDir = resolve(process.env.BENCH_DATA_DIR ?? resolve(repo, "../shared/data"), "cranfield");
const COPIES = positiveInteger(process.env.BENCH_COPIES, 36);
const PASSES = 3;
/** Warm-up queries per system: enough for the JIT; a full pass would add minutes of MiniSearch. */
const WARMUP = 50;
const DEPTH = 100;
const MB = 1024 * 1024;

interface Memory {
  /** V8 heap in use after the build minus before it, after full collections (bytes). */
  heapBytes: number | null;
  /** Memory outside the heap that V8 tracks (typed-array backing stores, buffers) (bytes). */
  externalBytes: number | null;
  /** What the system itself reports holding outside V8 (FTS5: the in-memory database's pages). */
  nativeBytes: number | null;
}

interface SystemFigures {
  system: string;
  indexMs: number;
  memory: Memory;
  queryMs: { p50: number; p95: number; p99: number; samples: number };
}

export async function run(): Promise<{ title: string; figures: Record<string, unknown>; markdown: string }> {
  const dataset = await readCranfield(dataDir);
  const docs = replicate(dataset.docs, COPIES);
  const gc = globalThis.gc;
  if (!gc) console.error("speed: run with node --expose-gc for memory figures; they are left out");
  const collect = () => {
    gc?.();
    gc?.();
  };

  // Built one after the other, each measured against the heap left by the previous ones.
  const built: { peer: Peer; indexMs: number; memory: Memory }[] = [];
  const oursPeer = new SecondLookPeer({ rerank: true });
  const peers: Peer[] = [oursPeer, new Fts5Peer(), new MiniSearchPeer()];
  for (const peer of peers) {
    collect();
    const before = process.memoryUsage();
    const indexMs = timeBuild(peer, docs);
    collect();
    const after = process.memoryUsage();
    built.push({
      peer,
      indexMs,
      memory: {
        heapBytes: gc ? after.heapUsed - before.heapUsed : null,
        externalBytes: gc ? after.external - before.external : null,
        nativeBytes: peer.nativeBytes?.() ?? null,
      },
    });
    console.error(`speed: ${peer.label} built in ${Math.round(indexMs)} ms`);
  }

  const [ours, fts5, minisearch] = built as [(typeof built)[0], (typeof built)[0], (typeof built)[0]];
  const rows = [ours, { ...ours, peer: oursPeer.withMode(false) }, fts5, minisearch];
  const timings = timeQueries(
    rows.map((r) => r.peer),
    dataset.queries,
    { k: DEPTH, passes: PASSES, warmup: WARMUP },
  );
  for (const { peer } of built) peer.close();
  const systems: SystemFigures[] = rows.map((r, i) => ({
    system: r.peer.label,
    indexMs: Math.round(r.indexMs),
    memory: r.memory,
    queryMs: latency(timings[i]!),
  }));

  const [oursDefault, oursFirst, fts, mini] = systems as [
    SystemFigures,
    SystemFigures,
    SystemFigures,
    SystemFigures,
  ];
  const checks = [
    {
      check: "our default-search p50 ≤ both peers' p50",
      passed: oursDefault.queryMs.p50 <= fts.queryMs.p50 && oursDefault.queryMs.p50 <= mini.queryMs.p50,
      detail: `${ms(oursDefault.queryMs.p50)} vs FTS5 ${ms(fts.queryMs.p50)}, MiniSearch ${ms(mini.queryMs.p50)}`,
    },
    {
      check: "our first-pass p50 ≤ both peers' p50 (for information)",
      passed: oursFirst.queryMs.p50 <= fts.queryMs.p50 && oursFirst.queryMs.p50 <= mini.queryMs.p50,
      detail: `${ms(oursFirst.queryMs.p50)} vs FTS5 ${ms(fts.queryMs.p50)}, MiniSearch ${ms(mini.queryMs.p50)}`,
    },
    {
      check: "our index time ≤ 2× FTS5's",
      passed: oursDefault.indexMs <= 2 * fts.indexMs,
      detail: `${oursDefault.indexMs} ms vs 2 × ${fts.indexMs} = ${2 * fts.indexMs} ms`,
    },
  ];

  const markdown = [
    `Corpus: Cranfield × ${COPIES} = ${docs.length} docs (ids suffixed \`#copy\`, text unchanged). ` +
      `Queries: all ${dataset.queries.length} × ${PASSES} timed passes after ${WARMUP} untimed warm-up queries, ` +
      `the systems taking turns query by query; top ${DEPTH}, whole query text, OR.`,
    "",
    "| system | index ms | query p50 ms | p95 ms | p99 ms | heap Δ MB | external Δ MB | SQLite db MB |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
    ...systems.map(
      (s) =>
        `| ${s.system} | ${s.indexMs} | ${s.queryMs.p50.toFixed(2)} | ${s.queryMs.p95.toFixed(2)} | ` +
        `${s.queryMs.p99.toFixed(2)} | ${mb(s.memory.heapBytes)} | ${mb(s.memory.externalBytes)} | ${mb(s.memory.nativeBytes)} |`,
    ),
    "",
    "Index ms: ours = analysis + index build from the documents in memory (both our rows share it); " +
      "FTS5 = inserts in one transaction + 'optimize'; MiniSearch = addAll. " +
      "Heap/external Δ: after the build minus before, full GC before each reading. " +
      "SQLite db MB = page_count × page_size of the in-memory database: the index pages SQLite " +
      "holds in its own allocator, outside V8, which the heap figures do not see.",
    "",
    "| acceptance check | result | figures |",
    "|---|---|---|",
    ...checks.map((c) => `| ${c.check} | ${c.passed ? "PASS" : "FAIL"} | ${c.detail} |`),
  ].join("\n");

  return {
    title: `Speed and memory at ${docs.length} documents`,
    figures: {
      copies: COPIES,
      docs: docs.length,
      queries: dataset.queries.length,
      passes: PASSES,
      warmupQueries: WARMUP,
      depth: DEPTH,
      systems,
      checks,
    },
    markdown,
  };
}

/** `copies` copies of `docs`, every id suffixed with `#<copy>` so ids stay unique. */
function replicate(docs: readonly EvalDoc[], copies: number): EvalDoc[] {
  const out: EvalDoc[] = [];
  for (let copy = 0; copy < copies; copy++) {
    for (const d of docs) out.push({ id: `${d.id}#${copy}`, title: d.title, text: d.text });
  }
  return out;
}

function latency(t: QueryTimings): SystemFigures["queryMs"] {
  const r = (v: number) => Math.round(v * 1000) / 1000;
  return { p50: r(t.p50), p95: r(t.p95), p99: r(t.p99), samples: t.samples.length };
}

function positiveInteger(raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`BENCH_COPIES must be a positive integer, got ${raw}`);
  return value;
}

function ms(value: number): string {
  return `${value.toFixed(2)} ms`;
}

function mb(bytes: number | null): string {
  return bytes === null ? "—" : (bytes / MB).toFixed(1);
}
