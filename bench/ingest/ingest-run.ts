// One measured ingest, in a process of its own (so its peak RSS is its own): forked by
// bench/ingest.bench.ts with the corpus folder and the format to use; replies with its figures.
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { CollectionIndex } from "../../src/knowledge/index/collection-index.js";
import { IndexStore } from "../../src/knowledge/index/index-store.js";
import { refreshCollection } from "../../src/knowledge/index/refresh.js";
import { previousIngest, previousLoad, previousSave } from "./previous-format.js";

export interface IngestFigures {
  documents: number;
  ingestMs: number;
  /** Cold load of the saved index (a later start), documents rebuilt in memory. */
  loadMs: number;
  indexBytes: number;
  peakRssMb: number;
  error?: string;
}

const [corpus, format] = process.argv.slice(2) as [string, "current" | "previous"];
const indexDir = join(corpus, `.index-${format}`);

async function directoryBytes(dir: string): Promise<number> {
  let total = 0;
  for (const name of await readdir(dir)) total += (await stat(join(dir, name))).size;
  return total;
}

async function measure(): Promise<IngestFigures> {
  const started = performance.now();
  let documents = 0;
  let ingestMs = 0;
  try {
    if (format === "current") {
      const store = new IndexStore(indexDir);
      const { documents: docs } = await refreshCollection(
        corpus,
        { name: "docs", paths: ["docs/**/*"] },
        store,
      );
      documents = docs.length;
      new CollectionIndex("docs", docs);
      ingestMs = performance.now() - started;
      const loadStarted = performance.now();
      const loaded = await new IndexStore(indexDir).load("docs");
      new CollectionIndex("docs", loaded ?? []);
      return {
        documents,
        ingestMs: Math.round(ingestMs),
        loadMs: Math.round(performance.now() - loadStarted),
        indexBytes: await directoryBytes(indexDir),
        peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      };
    }
    const docs = await previousIngest(corpus, "docs/**/*");
    documents = docs.length;
    new CollectionIndex("docs", docs);
    await previousSave(indexDir, "docs", docs);
    ingestMs = performance.now() - started;
    const loadStarted = performance.now();
    new CollectionIndex("docs", await previousLoad(indexDir, "docs"));
    return {
      documents,
      ingestMs: Math.round(ingestMs),
      loadMs: Math.round(performance.now() - loadStarted),
      indexBytes: await directoryBytes(indexDir),
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    };
  } catch (error) {
    return {
      documents,
      ingestMs: Math.round(performance.now() - started),
      loadMs: 0,
      indexBytes: 0,
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      error: error instanceof Error ? error.message : String(error),
    };
  }
}

process.send!(await measure());
process.exit(0);
