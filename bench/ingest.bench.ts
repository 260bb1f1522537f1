/**
 * Ingest at scale: documents/s, peak RSS, index size and cold-load time for 10k and 100k small
 * Markdown files, 26 text files of 9.9 MB (258 MB: past the one JSON string the previous format
 * needed) and a 1 GB text corpus — the current ingest (parser threads, segmented checked store)
 * side by side with the previous one (parsing in the main thread, one JSON file), in the same run.
 * Every measurement is a fresh process (bench/ingest/ingest-run.ts), so each peak RSS is its own.
 * Corpora are generated (seeded pseudo-words with a skewed frequency), never committed.
 * BENCH_INGEST_SCALE (default 1) scales every corpus, for a quick check of the bench itself;
 * BENCH_INGEST_ONLY=files|large runs only the many-small-files or the large-file corpora.
 */
import { fork } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { IngestFigures } from "./ingest/ingest-run.js";

export const name = "ingest";
/** About 20 minutes on 2 cores (the 1 GB corpus is most of it). */
export const timeoutMs = 3_600_000;

const SCALE = Number(process.env.BENCH_INGEST_SCALE ?? 1) || 1;
const RUNNER = fileURLToPath(new URL("./ingest/ingest-run.ts", import.meta.url));
const MB = 1024 * 1024;

interface Corpus {
  label: string;
  files: number;
  bytesPerFile: number;
  extension: "md" | "txt";
  /** The previous format is not run on it (and why). */
  previousSkipped?: string;
}

const CORPORA: Corpus[] = [
  {
    label: "10k Markdown files (~2 KB)",
    files: Math.round(10_000 * SCALE),
    bytesPerFile: 2_000,
    extension: "md",
  },
  {
    label: "100k Markdown files (~1 KB)",
    files: Math.round(100_000 * SCALE),
    bytesPerFile: 1_000,
    extension: "md",
  },
  {
    label: "26 text files of 9.9 MB",
    files: 26,
    bytesPerFile: Math.round(9.9 * MB * SCALE),
    extension: "txt",
  },
  {
    label: "1 GB text corpus (104 × 9.9 MB)",
    files: 104,
    bytesPerFile: Math.round(9.9 * MB * SCALE),
    extension: "txt",
    previousSkipped: "not run: the previous format already fails on the 258 MB corpus above",
  },
];

/** A small seeded generator (mulberry32): the same corpus on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Words from a 60,000-word vocabulary, frequent ones far more often (roughly Zipfian). */
function textOf(bytes: number, next: () => number): string {
  const words: string[] = [];
  let length = 0;
  let sentence = 0;
  while (length < bytes) {
    const rank = Math.floor(60_000 ** next());
    const word = `w${rank.toString(36)}`;
    words.push(word);
    length += word.length + 1;
    if (++sentence % 14 === 0) words.push(sentence % 98 === 0 ? ".\n\n" : ".");
  }
  // Cut to size: a file over the loader's 10 MB limit would be skipped, not ingested.
  return words.join(" ").slice(0, bytes);
}

async function generate(dir: string, corpus: Corpus): Promise<void> {
  await mkdir(join(dir, "docs"), { recursive: true });
  const next = random(corpus.files * 7 + corpus.bytesPerFile);
  // Large files share one body (generating 1 GB of words would dominate the run); small ones differ.
  const sharedBody = corpus.bytesPerFile > MB ? textOf(corpus.bytesPerFile, next) : undefined;
  for (let i = 0; i < corpus.files; i++) {
    const folder = join(dir, "docs", String(Math.floor(i / 1000)));
    if (i % 1000 === 0) await mkdir(folder, { recursive: true });
    const body = sharedBody ?? textOf(corpus.bytesPerFile, next);
    const text =
      corpus.extension === "md"
        ? `# Document ${i}\n\n## Part one\n\n${body}\n`
        : `Document ${i}\n\n${body}\n`;
    await writeFile(join(folder, `doc-${i}.${corpus.extension}`), text);
  }
}

function measure(dir: string, format: "current" | "previous"): Promise<IngestFigures> {
  return new Promise((resolve) => {
    const child = fork(RUNNER, [dir, format], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    let figures: IngestFigures | undefined;
    child.on("message", (message) => {
      figures = message as IngestFigures;
    });
    child.on("exit", (code, signal) => {
      resolve(
        figures ?? {
          documents: 0,
          ingestMs: 0,
          loadMs: 0,
          indexBytes: 0,
          peakRssMb: 0,
          error: `process ended (${signal ?? `exit ${code}`}) without figures`,
        },
      );
    });
  });
}

function row(corpus: Corpus, format: string, f: IngestFigures | string, sizeMb: number): string {
  if (typeof f === "string") return `| ${corpus.label} | ${format} | — | — | — | — | — | ${f} |`;
  const docsPerSecond = f.ingestMs > 0 ? Math.round((f.documents / f.ingestMs) * 1000) : 0;
  const mbPerSecond = f.ingestMs > 0 ? (sizeMb / (f.ingestMs / 1000)).toFixed(1) : "—";
  return `| ${corpus.label} | ${format} | ${f.error ? "—" : docsPerSecond.toLocaleString("en")} | ${f.error ? "—" : mbPerSecond} | ${f.peakRssMb.toLocaleString("en")} | ${f.error ? "—" : (f.ingestMs / 1000).toFixed(1)} | ${f.error ? "—" : (f.loadMs / 1000).toFixed(2)} | ${f.error ? `fails: ${f.error}` : `${f.documents.toLocaleString("en")} docs, index ${(f.indexBytes / MB).toFixed(0)} MB`} |`;
}

const ONLY = process.env.BENCH_INGEST_ONLY;

export async function run() {
  const started = performance.now();
  const root = await mkdtemp(join(tmpdir(), "second-look-ingest-bench-"));
  const figures: Record<string, unknown> = { scale: SCALE, only: ONLY ?? "all" };
  const rows: string[] = [];
  try {
    const selected = CORPORA.filter(
      (c) => !ONLY || (ONLY === "large" ? c.extension === "txt" : c.extension === "md"),
    );
    for (const corpus of selected) {
      const dir = join(root, corpus.label.replace(/[^a-z0-9]+/gi, "-"));
      process.stderr.write(`ingest bench: generating ${corpus.label}\n`);
      await generate(dir, corpus);
      const sizeMb = (corpus.files * corpus.bytesPerFile) / MB;
      const previous = corpus.previousSkipped ?? (await measure(dir, "previous"));
      process.stderr.write(`ingest bench: ${corpus.label} previous ${JSON.stringify(previous)}\n`);
      const current = await measure(dir, "current");
      process.stderr.write(`ingest bench: ${corpus.label} current ${JSON.stringify(current)}\n`);
      figures[corpus.label] = { sizeMb: Math.round(sizeMb), previous, current };
      rows.push(row(corpus, "previous", previous, sizeMb), row(corpus, "current", current, sizeMb));
      await rm(dir, { recursive: true, force: true });
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
  const minutes = ((performance.now() - started) / 60_000).toFixed(1);
  figures.runMinutes = Number(minutes);
  const markdown = [
    "Ingest at scale, previous format vs current, measured in one run (each figure a fresh process).",
    "previous: files parsed in the main thread, index saved as one JSON string; current: parser",
    "threads under per-file bounds (default 15 s, 512 MB, 2 threads), segmented checksummed store.",
    "Ingest = parse + analyse + in-memory index + save; load = cold load of the saved index + in-memory index.",
    "",
    "| corpus | format | docs/s | MB/s | peak RSS (MB) | ingest (s) | load (s) | result |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |",
    ...rows,
    "",
    `Bench run time: ${minutes} min (corpus generation included).`,
  ].join("\n");
  return { title: "Ingest at scale", figures, markdown };
}
