// One measured step, in a process of its own (so its peak RSS is its own and nothing of an
// earlier step is still in memory): forked by bench/ingest.bench.ts with the corpus folder, the
// format, the step and the source tree to run (this checkout's src/, or an earlier commit's
// extracted by the bench); replies with its figures.
//   ingest: parse + analyse every file, build the in-memory index, save it.
//   load:   a later start — read the saved index, build the in-memory index, answer queries.
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { previousIngest, previousLoad, previousSave } from "./previous-format.js";

export type IngestFormat = "previous" | "before" | "current";
export type IngestStep = "ingest" | "load";

export interface StepFigures {
  documents: number;
  /** Wall-clock of the step (ingest: parse to saved; load: read to index built). */
  ms: number;
  indexBytes: number;
  peakRssMb: number;
  /** Median and slowest latency of the bench's queries (load step only). */
  searchMs?: { p50: number; max: number };
  error?: string;
}

const [corpus, format, step, srcRoot] = process.argv.slice(2) as [string, IngestFormat, IngestStep, string];
const indexDir = join(corpus, `.index-${format}`);
/** Words of the generated corpora (bench/ingest.bench.ts), frequent to rare, and one absent. */
const QUERIES = ["w1 w2", "w5 w1k", "w2s w9 w3", "w7f3", "w10 w200 w3000", "zeppelin", "w1 w1z w1c3"];

const source = (path: string) => import(pathToFileURL(join(srcRoot, path)).href);
const { CollectionIndex } = await source("knowledge/index/collection-index.ts");
// A `before` tree older than the backends' own folders holds the engine at knowledge/engine.ts.
const { KnowledgeEngine } = await source("backends/embedded/embedded-engine.ts").catch(() =>
  source("knowledge/engine.ts"),
);
const { IndexStore } = await source("knowledge/index/index-store.ts");
const { refreshCollection } = await source("knowledge/index/refresh.ts");
const { ingestLimits } = await source("knowledge/index/ingest-limits.ts");
/** Set by the bench (BENCH_INGEST_FILE_TIMEOUT_MS), so a busy machine does not turn files away. */
const fileTimeoutMs = Number(process.env.BENCH_INGEST_FILE_TIMEOUT_MS) || undefined;

async function directoryBytes(dir: string): Promise<number> {
  let total = 0;
  for (const name of await readdir(dir)) total += (await stat(join(dir, name))).size;
  return total;
}

const peakRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);

async function ingest(): Promise<number> {
  if (format === "previous") {
    const docs = await previousIngest(corpus, "docs/**/*", srcRoot);
    new CollectionIndex("docs", docs);
    await previousSave(indexDir, "docs", docs);
    return docs.length;
  }
  const store = new IndexStore(indexDir);
  const limits = ingestLimits(fileTimeoutMs ? { fileTimeoutMs } : {});
  const { documents, report } = await refreshCollection(
    corpus,
    { name: "docs", paths: ["docs/**/*"] },
    store,
    { limits },
  );
  if (report.skipped.length > 0)
    throw new Error(`${report.skipped.length} files skipped: ${report.skipped[0].reason}`);
  new CollectionIndex("docs", documents);
  return documents.length;
}

async function load(): Promise<{ documents: number; engine: { searchSync(r: unknown): unknown } }> {
  const documents =
    format === "previous"
      ? await previousLoad(indexDir, "docs")
      : ((await new IndexStore(indexDir).load("docs")) ?? []);
  const index = new CollectionIndex("docs", documents);
  return { documents: index.documentCount, engine: new KnowledgeEngine([index]) };
}

async function measure(): Promise<StepFigures> {
  const started = performance.now();
  let documents = 0;
  try {
    if (step === "ingest") {
      documents = await ingest();
      const ms = Math.round(performance.now() - started);
      return { documents, ms, indexBytes: await directoryBytes(indexDir), peakRssMb: peakRssMb() };
    }
    const loaded = await load();
    documents = loaded.documents;
    const ms = Math.round(performance.now() - started);
    loaded.engine.searchSync({ query: "warm up" });
    const latencies = QUERIES.map((query) => {
      const t = performance.now();
      loaded.engine.searchSync({ query });
      return performance.now() - t;
    }).sort((a, b) => a - b);
    return {
      documents,
      ms,
      indexBytes: await directoryBytes(indexDir),
      peakRssMb: peakRssMb(),
      searchMs: {
        p50: Number(latencies[Math.floor(latencies.length / 2)]!.toFixed(1)),
        max: Number(latencies.at(-1)!.toFixed(1)),
      },
    };
  } catch (error) {
    return {
      documents,
      ms: Math.round(performance.now() - started),
      indexBytes: 0,
      peakRssMb: peakRssMb(),
      error: error instanceof Error ? error.message : String(error),
    };
  }
}

process.send!(await measure());
process.exit(0);
