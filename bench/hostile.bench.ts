/**
 * The slow cases of the hostile-input suite (test/hostile/ holds the fast ones), measured as a
 * user meets them, each as a real `second-look` process:
 *
 * - L9 (issue 24): benign files at the size caps — a 9.9 MB prose Markdown file (the cap is
 *   10 MB, src/knowledge/documents/load-document.ts) and a 4,999-page PDF (the cap is 5,000
 *   pages, src/knowledge/documents/pdf-loader.ts) — must be admitted by the default per-file
 *   time bound (src/knowledge/index/ingest-limits.ts), with room to spare on a busy 2-core
 *   machine: each is indexed with the default bounds, and parsed once more with no time bound
 *   to measure its parse time against the default.
 * - L2 (issue 24): two `index` runs of one bot at once, then a third: no segment file is left
 *   that the manifest does not name.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_FILE_TIMEOUT_MS } from "../src/knowledge/index/ingest-limits.js";
import { IngestPool } from "../src/knowledge/index/ingest-pool.js";
import { runCliProcess } from "../test/support/cli-process.js";
import { manyPagePdf } from "../test/support/hostile-files.js";

export const name = "hostile";
export const timeoutMs = 900_000;

const MB = 1024 * 1024;
const WORDS =
  "the policy says every employee may carry over five days of annual leave into the next year when the manager agrees before the end of march".split(
    " ",
  );

/** Seeded prose in sections: what a long handbook or a manual exported to Markdown looks like. */
function prose(bytes: number): string {
  let seed = 7;
  const random = () => {
    seed = (seed * 48271) % 2147483647;
    return seed / 2147483647;
  };
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < bytes; i++) {
    let paragraph = i % 20 === 0 ? `## Section ${i / 20 + 1}\n\n` : "";
    for (let k = 0; k < 60; k++)
      paragraph += `${WORDS[Math.floor(random() * WORDS.length)]}${k % 12 === 11 ? ". " : " "}`;
    paragraph += "\n\n";
    parts.push(paragraph);
    length += paragraph.length;
  }
  return parts.join("").slice(0, bytes);
}

interface CapCase {
  label: string;
  file: string;
  make: () => Buffer | string;
}

const CAP_CASES: CapCase[] = [
  { label: "9.9 MB prose Markdown", file: "big.md", make: () => prose(Math.floor(9.9 * MB)) },
  { label: "4,999-page PDF", file: "big.pdf", make: () => manyPagePdf(4_999) },
];

async function botWith(files: Record<string, Buffer | string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "second-look-bench-hostile-"));
  await mkdir(join(dir, "docs"));
  await writeFile(
    join(dir, "config.json"),
    JSON.stringify({ knowledge: { collections: { docs: { paths: ["docs/**/*"] } } } }),
  );
  for (const [file, bytes] of Object.entries(files)) await writeFile(join(dir, "docs", file), bytes);
  return dir;
}

export async function run() {
  const caps: Record<string, unknown>[] = [];
  for (const c of CAP_CASES) {
    const bytes = c.make();
    const dir = await botWith({ [c.file]: bytes });
    try {
      process.stderr.write(`hostile: ${c.label}: index with the default bounds …\n`);
      const indexed = await runCliProcess(["index", dir, "--json"]);
      const report = JSON.parse(indexed.stdout || "{}").collections?.[0] ?? {};
      // The parse alone, with no time bound, in one parser thread: what the default must admit.
      const pool = new IngestPool({ fileTimeoutMs: 600_000, fileMemoryMb: 512, workers: 1 });
      let parseMs = 0;
      try {
        const started = performance.now();
        const result = await pool.ingest({ absPath: join(dir, "docs", c.file), id: `docs/${c.file}` });
        parseMs = Math.round(performance.now() - started);
        if (!result.ok) throw new Error(`${c.label}: not parsed even without a time bound: ${result.reason}`);
      } finally {
        await pool.close();
      }
      caps.push({
        case: c.label,
        bytes: Buffer.byteLength(bytes),
        indexExit: indexed.exitCode,
        indexed: report.added === 1,
        skipped: report.skipped ?? [],
        indexMs: indexed.ms,
        indexPeakRssMb: indexed.maxRssMb,
        parseMs,
        defaultBoundMs: DEFAULT_FILE_TIMEOUT_MS,
        headroom: Number((DEFAULT_FILE_TIMEOUT_MS / parseMs).toFixed(2)),
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  process.stderr.write("hostile: two index runs at once, then a third …\n");
  const files: Record<string, string> = {};
  for (let i = 0; i < 200; i++) files[`doc-${i}.md`] = `# Document ${i}\n\n${prose(20_000)}`;
  const dir = await botWith(files);
  let concurrent: Record<string, unknown>;
  try {
    const [a, b] = await Promise.all([runCliProcess(["index", dir]), runCliProcess(["index", dir])]);
    const third = await runCliProcess(["index", dir]);
    const indexDir = join(dir, ".second-look", "index");
    const manifest = JSON.parse(await readFile(join(indexDir, "docs.manifest.json"), "utf8")) as {
      segments: { file: string }[];
    };
    const named = new Set(manifest.segments.map((s) => s.file));
    const strays = (await readdir(indexDir)).filter((f) => f.endsWith(".seg") && !named.has(f));
    concurrent = {
      exits: [a.exitCode, b.exitCode, third.exitCode],
      segments: named.size,
      straysAfterThirdRun: strays,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }

  const rows = caps
    .map(
      (c) =>
        `| ${c.case} | ${c.indexed ? "yes" : `no (${JSON.stringify(c.skipped)})`} | ${c.indexMs} | ${c.parseMs} | ${c.defaultBoundMs} | ${c.headroom}× |`,
    )
    .join("\n");
  const markdown = [
    "Files at the size caps, indexed with the default per-file bounds (one `second-look index` process each):",
    "",
    "| file | indexed | index run, ms | parse alone, ms | default bound, ms | headroom |",
    "| --- | --- | --- | --- | --- | --- |",
    rows,
    "",
    `Two \`index\` runs at once, then a third: exit codes ${JSON.stringify(concurrent.exits)}, segment files the manifest does not name after the third run: ${(concurrent.straysAfterThirdRun as string[]).length}.`,
  ].join("\n");
  return { title: "Hostile inputs: the slow cases", figures: { caps, concurrent }, markdown };
}
