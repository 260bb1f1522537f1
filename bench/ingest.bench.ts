/**
 * Ingest at scale: documents/s, peak RSS, index size, and a later start's load time, peak RSS and
 * query latency for 10k and 100k small Markdown files, 26 text files of 9.9 MB (258 MB: past the
 * one JSON string the previous format needed) and a 1 GB text corpus — in the same run, for:
 *   previous: parsing in the main thread, terms as string arrays, one JSON file (version 1);
 *   before:   the segmented store and parser threads, terms still as string arrays in memory
 *             (commit BEFORE_COMMIT, extracted from git into a temporary folder);
 *   current:  this checkout.
 * Every step (ingest, then load) is a process of its own (bench/ingest/ingest-run.ts), so each
 * peak RSS is its own and a load never shares memory with the ingest that wrote the index.
 * Corpora are generated (seeded pseudo-words with a skewed frequency), never committed.
 * BENCH_INGEST_SCALE (default 1) scales every corpus, for a quick check of the bench itself;
 * BENCH_INGEST_ONLY=files|large runs only the many-small-files or the large-file corpora (any other
 * value: the corpora whose label contains it, e.g. "10k");
 * BENCH_INGEST_FORMATS (comma-separated, default all three) picks the formats.
 */
import { execFileSync, fork } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { seededRandom } from "../test/support/seeded-random.js";
import type { IngestFormat, IngestStep, StepFigures } from "./ingest/ingest-run.js";

export const name = "ingest";
/** About 20 minutes on 2 cores (the 1 GB corpus is most of it). */
export const timeoutMs = 3_600_000;

const SCALE = Number(process.env.BENCH_INGEST_SCALE ?? 1) || 1;
const RUNNER = fileURLToPath(new URL("./ingest/ingest-run.ts", import.meta.url));
const CHECKOUT = fileURLToPath(new URL("..", import.meta.url));
/** The last commit whose in-memory index held every section's terms as arrays of strings. */
const BEFORE_COMMIT = "caa7069";
const FORMATS: IngestFormat[] = ["previous", "before", "current"];
/**
 * The per-file time bound in the bench: the default 15 s measures the machine's load as much as
 * the ingest (a 9.9 MB text file takes about 2 s of CPU, far longer on a shared, busy machine).
 */
const FILE_TIMEOUT_MS = Number(process.env.BENCH_INGEST_FILE_TIMEOUT_MS) || 120_000;
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
  const next = seededRandom(corpus.files * 7 + corpus.bytesPerFile);
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

function measure(dir: string, format: IngestFormat, step: IngestStep, srcRoot: string): Promise<StepFigures> {
  return new Promise((resolve) => {
    const child = fork(RUNNER, [dir, format, step, srcRoot], {
      stdio: ["ignore", "inherit", "inherit", "ipc"],
      env: { ...process.env, BENCH_INGEST_FILE_TIMEOUT_MS: String(FILE_TIMEOUT_MS) },
    });
    let figures: StepFigures | undefined;
    child.on("message", (message) => {
      figures = message as StepFigures;
    });
    child.on("exit", (code, signal) => {
      resolve(
        figures ?? {
          documents: 0,
          ms: 0,
          indexBytes: 0,
          peakRssMb: 0,
          error: `process ended (${signal ?? `exit ${code}`}) without figures`,
        },
      );
    });
  });
}

/** BEFORE_COMMIT's src/ in a folder of its own, beside this checkout's node_modules. */
async function extractBefore(root: string): Promise<string> {
  const dir = join(root, "before");
  await mkdir(dir, { recursive: true });
  const archive = execFileSync("git", ["-C", CHECKOUT, "archive", BEFORE_COMMIT, "src"], {
    maxBuffer: 256 * 1024 * 1024,
  });
  execFileSync("tar", ["-x", "-C", dir], { input: archive });
  await symlink(join(CHECKOUT, "node_modules"), join(dir, "node_modules"));
  return join(dir, "src");
}

interface FormatFigures {
  ingest: StepFigures;
  load?: StepFigures;
}

const LABEL: Record<IngestFormat, string> = {
  previous: "previous (v1)",
  before: `before (${BEFORE_COMMIT})`,
  current: "current",
};

function row(corpus: Corpus, format: IngestFormat, f: FormatFigures | string, sizeMb: number): string {
  const cells = [corpus.label, LABEL[format]];
  if (typeof f === "string")
    return `| ${[...cells, "—", "—", "—", "—", "—", "—", "—", "—", f].join(" | ")} |`;
  const { ingest, load } = f;
  const seconds = (ms: number) => (ms / 1000).toFixed(1);
  const mb = (n: number) => n.toLocaleString("en");
  if (ingest.error) {
    cells.push("—", "—", mb(ingest.peakRssMb), "—", "—", "—", "—", "—", `ingest fails: ${ingest.error}`);
  } else {
    cells.push(
      Math.round((ingest.documents / Math.max(1, ingest.ms)) * 1000).toLocaleString("en"),
      seconds(ingest.ms),
      mb(ingest.peakRssMb),
      (ingest.peakRssMb / sizeMb).toFixed(1),
    );
    if (!load || load.error) {
      cells.push("—", load ? mb(load.peakRssMb) : "—", "—", "—", `load fails: ${load?.error ?? "not run"}`);
    } else {
      cells.push(
        seconds(load.ms),
        mb(load.peakRssMb),
        (load.peakRssMb / sizeMb).toFixed(1),
        `${load.searchMs!.p50} / ${load.searchMs!.max}`,
        `${mb(load.documents)} docs, index ${(ingest.indexBytes / MB).toFixed(0)} MB`,
      );
    }
  }
  return `| ${cells.join(" | ")} |`;
}

const ONLY = process.env.BENCH_INGEST_ONLY;

export async function run() {
  const started = performance.now();
  const root = await mkdtemp(join(tmpdir(), "second-look-ingest-bench-"));
  const formats = (process.env.BENCH_INGEST_FORMATS?.split(",") ?? FORMATS).filter((f): f is IngestFormat =>
    FORMATS.includes(f as IngestFormat),
  );
  const figures: Record<string, unknown> = { scale: SCALE, only: ONLY ?? "all", formats };
  const rows: string[] = [];
  try {
    const currentSrc = join(CHECKOUT, "src");
    const beforeSrc = formats.some((f) => f !== "current") ? await extractBefore(root) : currentSrc;
    const selected = CORPORA.filter(
      (c) =>
        !ONLY ||
        (ONLY === "large"
          ? c.extension === "txt"
          : ONLY === "files"
            ? c.extension === "md"
            : c.label.includes(ONLY)),
    );
    for (const corpus of selected) {
      const dir = join(root, corpus.label.replace(/[^a-z0-9]+/gi, "-"));
      process.stderr.write(`ingest bench: generating ${corpus.label}\n`);
      await generate(dir, corpus);
      const sizeMb = (corpus.files * corpus.bytesPerFile) / MB;
      const measured: Record<string, FormatFigures | string> = {};
      for (const format of formats) {
        if (format === "previous" && corpus.previousSkipped) {
          measured[format] = corpus.previousSkipped;
        } else {
          const srcRoot = format === "current" ? currentSrc : beforeSrc;
          const ingest = await measure(dir, format, "ingest", srcRoot);
          const load = ingest.error ? undefined : await measure(dir, format, "load", srcRoot);
          measured[format] = load ? { ingest, load } : { ingest };
        }
        process.stderr.write(`ingest bench: ${corpus.label} ${format} ${JSON.stringify(measured[format])}\n`);
        rows.push(row(corpus, format, measured[format]!, sizeMb));
      }
      figures[corpus.label] = { sizeMb: Math.round(sizeMb), ...measured };
      await rm(dir, { recursive: true, force: true });
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
  const minutes = ((performance.now() - started) / 60_000).toFixed(1);
  figures.runMinutes = Number(minutes);
  const markdown = [
    "Ingest at scale, measured in one run; every step is a fresh process (its peak RSS is its own).",
    "previous (v1): files parsed in the main thread, terms as string arrays, one JSON file;",
    `before (${BEFORE_COMMIT}): parser threads (${FILE_TIMEOUT_MS / 1000} s, 512 MB per file, 2 threads), segmented checksummed store,`,
    "terms still held as string arrays beside the index's term ids; current: terms held once, as term ids.",
    "Ingest = parse + analyse + in-memory index + save. Load = a later start in a new process: read the",
    "saved index and build the in-memory index; search = one query on that index (median / slowest of 7).",
    "",
    "| corpus | format | docs/s | ingest (s) | ingest peak RSS (MB) | RSS / input MB | load (s) | load peak RSS (MB) | load RSS / input MB | search p50 / max (ms) | result |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ...rows,
    "",
    `Bench run time: ${minutes} min (corpus generation included); load average at the end ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores.`,
  ].join("\n");
  return { title: "Ingest at scale", figures, markdown };
}
