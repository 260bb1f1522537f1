/**
 * The PostgreSQL backend at scale, side by side with the embedded engine, in one run on one
 * machine. A throwaway PostgreSQL 15 is started here (test/support/postgres/postgres-server.ts)
 * with the memory settings in SERVER_SETTINGS, its data folder under the system temp folder,
 * deleted afterwards.
 *
 * 1. Ingest: Cranfield's 1,400 abstracts replicated to BENCH_PG_SECTIONS sections (default
 *    1,001,000; each copy's ids suffixed `#copy`), every one written through the backend's
 *    writer (replaceDocuments: sections, term statistics and impact-ordered postings, every
 *    index maintained) in transactions of WRITE_BATCH documents: the product's ingest rate, over
 *    the whole run and per RATE_STEP sections, to show how it holds as the tables and their
 *    indexes grow. The files are not read from disk: the loaders' share of `second-look index`
 *    is measured by the ingest and postgres benchmarks.
 * 2. Queries: Cranfield's 225 queries, default search (reranked, top 10), one pass after a
 *    warm-up of 20: p50/p95 on Postgres.
 * 3. The embedded engine, built in memory from the same replicated documents in a child process
 *    (heap limit EMBEDDED_HEAP_MB), at the Postgres size or, when that child fails, at the next
 *    smaller of EMBEDDED_FALLBACK_FRACTIONS: the same 225 queries, p50/p95, and how often its
 *    first hit is a copy of the same Cranfield document as the Postgres backend's (a measure of
 *    what bounded posting reads cost in ranking, where both ran at the same size).
 */
import { fork } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { POSTINGS_BUDGET } from "../src/backends/postgres/pg-reads.js";
import { tablesIn } from "../src/backends/postgres/pg-schema.js";
import {
  type DocumentToWrite,
  ensureCollection,
  replaceDocuments,
} from "../src/backends/postgres/pg-writer.js";
import { PostgresBackend } from "../src/backends/postgres/postgres-backend.js";
import { readCranfield } from "../src/evaluation/cranfield.js";
import { toIndexableDocuments } from "../src/evaluation/eval-documents.js";
import { percentiles } from "../src/evaluation/percentiles.js";
import { CollectionAnalysis } from "../src/knowledge/analysis/collection-analysis.js";
import { analyzeDocument } from "../src/knowledge/index/collection-index.js";
import { postgresUnavailableReason, startPostgres } from "../test/support/postgres/postgres-server.js";

/** Cranfield is English: the analysis id of a collection that names no language. */
const ENGLISH = CollectionAnalysis.of(undefined).id;

export const name = "postgres-scale";
export const timeoutMs = 4 * 60 * 60_000;

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const sharedData = resolve(process.env.BENCH_DATA_DIR ?? resolve(repo, "../shared/data"));
const SECTIONS = Number(process.env.BENCH_PG_SECTIONS ?? 1_001_000);
const WRITE_BATCH = 1_000;
/** The writer's rate is reported per this many sections written. */
const RATE_STEP = 100_000;
const URL_ENV = "BENCH_DATABASE_URL";
const EMBEDDED_HEAP_MB = 12_288;
const EMBEDDED_FALLBACK_FRACTIONS = [1, 0.5, 0.2, 0.1];
/** For a 24 GB machine shared with other work: a quarter of it as PostgreSQL's buffer cache. */
const SERVER_SETTINGS = {
  shared_buffers: "6GB",
  effective_cache_size: "12GB",
  work_mem: "64MB",
  maintenance_work_mem: "1GB",
  max_wal_size: "16GB",
  checkpoint_timeout: "30min",
  wal_compression: "on",
};
const r1 = (v: number) => Math.round(v * 10) / 10;
const perSecond = (part: { sections: number; ms: number }) =>
  part.ms > 0 ? Math.round(part.sections / (part.ms / 1000)) : 0;
const mib = (bytes: number) => Math.round(bytes / 1024 / 1024).toLocaleString("en");

interface Timing {
  p50: number;
  p95: number;
  samples: number;
  /** 1-minute load average before and after the timed queries (measured in this process only). */
  load?: [number, number];
}

interface EmbeddedRun extends Timing {
  sections: number;
  buildMs: number;
  heapMiB: number;
  /** Per query: the Cranfield id (copy suffix dropped) of the first hit, or "". */
  firstBase: string[];
}

export async function run(): Promise<{ title: string; figures: Record<string, unknown>; markdown: string }> {
  const reason = postgresUnavailableReason();
  if (reason) throw new Error(reason);
  const dataset = await readCranfield(join(sharedData, "cranfield"));
  const base = toIndexableDocuments(dataset.docs).map((doc) => analyzeDocument(doc));
  const perCopy = base.reduce((n, d) => n + d.sections.length, 0);
  const copies = Math.ceil(SECTIONS / perCopy);
  const queries = dataset.queries.map((q) => q.text);

  const server = await startPostgres(SERVER_SETTINGS);
  process.env[URL_ENV] = server.url;
  let postgres: Awaited<ReturnType<typeof postgresSide>>;
  try {
    postgres = await postgresSide(server.url, base, copies, queries);
  } finally {
    await server.stop();
  }
  const embedded = await embeddedSide(copies);
  const sameFirst =
    embedded && embedded.sections === postgres.sections
      ? postgres.firstBase.filter((id, i) => id === embedded.firstBase[i]).length
      : undefined;

  const figures = {
    sections: postgres.sections,
    copies,
    writeBatchDocuments: WRITE_BATCH,
    postingsBudget: POSTINGS_BUDGET,
    serverSettings: SERVER_SETTINGS,
    writer: { ...postgres.writer, sectionsPerSecond: perSecond(postgres.writer) },
    writerSteps: postgres.writerSteps.map((step) => ({ ...step, sectionsPerSecond: perSecond(step) })),
    vacuumAnalyzeMs: postgres.vacuumMs,
    postings: postgres.postings,
    bytes: postgres.bytes,
    postgres: postgres.timing,
    embedded: embedded
      ? {
          sections: embedded.sections,
          buildMs: embedded.buildMs,
          heapMiB: embedded.heapMiB,
          p50: embedded.p50,
          p95: embedded.p95,
          samples: embedded.samples,
        }
      : null,
    firstHitSameDocumentAsEmbedded: sameFirst ?? null,
    queries: queries.length,
  };
  const b = postgres.bytes;
  const e = embedded;
  const markdown = [
    `### Cranfield × ${copies} = ${postgres.sections.toLocaleString("en")} sections`,
    "",
    "| backend | sections | ingest / build | sections/s | query p50 (ms) | query p95 (ms) | size |",
    "| --- | --- | --- | --- | --- | --- | --- |",
    `| postgres | ${postgres.sections.toLocaleString("en")} | writer ${postgres.writer.sections.toLocaleString("en")} in ${r1(postgres.writer.ms / 1000)} s | ${figures.writer.sectionsPerSecond.toLocaleString("en")} | ${postgres.timing.p50} | ${postgres.timing.p95} | database ${mib(b.database)} MiB |`,
    e
      ? `| embedded (in memory) | ${e.sections.toLocaleString("en")} | ${r1(e.buildMs / 1000)} s | ${Math.round(e.sections / (e.buildMs / 1000)).toLocaleString("en")} | ${e.p50} | ${e.p95} | heap ${e.heapMiB.toLocaleString("en")} MiB |`
      : `| embedded (in memory) | — | failed at every size tried (${EMBEDDED_FALLBACK_FRACTIONS.map((f) => Math.round(copies * f) * perCopy).join(", ")} sections) | — | — | — | — |`,
    "",
    "The writer's rate as the tables grow (each row: the sections written since the row before, and their rate):",
    "",
    "| sections written | seconds | sections/s |",
    "| --- | --- | --- |",
    ...figures.writerSteps.map(
      (step) =>
        `| ${(step.upTo - step.sections).toLocaleString("en")}–${step.upTo.toLocaleString("en")} | ${r1(step.ms / 1000)} | ${step.sectionsPerSecond.toLocaleString("en")} |`,
    ),
    "",
    `Postgres storage: sections ${mib(b.sections)} MiB (table and indexes), postings ${mib(b.postingsTable)} MiB table + ${mib(b.postingsByImpact)} MiB impact index + ${mib(b.postingsBySection)} MiB section index (${postgres.postings.toLocaleString("en")} postings), VACUUM ANALYZE after the load ${r1(postgres.vacuumMs / 1000)} s (not in the ingest time).`,
    "",
    `Ingest: every section through the backend's writer (replaceDocuments: sections, term statistics and postings with every index maintained), ${WRITE_BATCH} documents per transaction, from Cranfield documents analysed once in memory and replicated (the loaders and analyser are not in this figure). ` +
      `Server settings for this run: ${Object.entries(SERVER_SETTINGS)
        .map(([k, v]) => `${k}=${v}`)
        .join(", ")}; fsync off (a throwaway server).`,
    "",
    `Queries: Cranfield's ${queries.length}, default search (reranked, top 10), one pass after a warm-up of 20, one process, sequential (1-minute load average ${postgres.timing.load?.[0]} before the timed queries, ${postgres.timing.load?.[1]} after, on 2 cores); the database reads at most ${POSTINGS_BUDGET.toLocaleString("en")} postings per search pass.` +
      (sameFirst !== undefined
        ? ` First hit a copy of the same Cranfield document on both backends: ${sameFirst} of ${queries.length} queries` +
          ` (each document is here ${copies} times, so a term's strongest ${POSTINGS_BUDGET.toLocaleString("en")} postings hold only its strongest ${Math.max(1, Math.round(POSTINGS_BUDGET / copies))} or so distinct documents: bounded reads meet their worst case on copies; the pydocs bot, read whole, agrees 100 of 100 — bench/results/postgres.md).`
        : e
          ? ` The embedded engine ran at a smaller size than Postgres, so first hits are not compared.`
          : ""),
  ].join("\n");
  return { title: "PostgreSQL backend at scale vs embedded engine", figures, markdown };
}

async function postgresSide(
  url: string,
  base: ReturnType<typeof analyzeDocument>[],
  copies: number,
  queries: readonly string[],
) {
  const client = new pg.Client(url);
  await client.connect();
  const schema = "scale";
  const t = tablesIn(schema);
  const backend = await PostgresBackend.open({
    bot: "cranfield",
    urlEnv: URL_ENV,
    schema,
    collections: { cranfield: { paths: ["none"] } },
  });
  try {
    const writer = client as unknown as pg.PoolClient;
    const { id } = await ensureCollection(writer, t, "cranfield", "cranfield", ENGLISH);
    const total = copies * base.reduce((n, d) => n + d.sections.length, 0);
    const started = performance.now();
    const writerSteps: { upTo: number; sections: number; ms: number }[] = [];
    let stepStarted = started;
    let stepSections = 0;
    let batch: DocumentToWrite[] = [];
    let written = 0;
    const write = async () => {
      await replaceDocuments(writer, t, id, batch);
      const sections = batch.reduce((n, d) => n + d.document.sections.length, 0);
      written += sections;
      stepSections += sections;
      batch = [];
      // A step ends at each multiple of RATE_STEP, but a short remainder joins the last step.
      const stepEnds = written % RATE_STEP < sections && total - written >= RATE_STEP / 2;
      if (stepEnds || written === total) {
        const now = performance.now();
        writerSteps.push({ upTo: written, sections: stepSections, ms: Math.round(now - stepStarted) });
        stepStarted = now;
        stepSections = 0;
        const s = (now - started) / 1000;
        console.error(
          `postgres-scale: ${written.toLocaleString("en")} of ${total.toLocaleString("en")} sections in ${r1(s)} s (${Math.round(written / s)}/s)`,
        );
      }
    };
    for (let copy = 0; copy < copies; copy++) {
      for (const d of base) {
        const path = `${d.id}#${copy}`;
        batch.push({ path, size: 0, mtimeMs: 0, contentHash: "", document: { ...d, id: path } });
        if (batch.length === WRITE_BATCH) await write();
      }
    }
    if (batch.length) await write();
    const writerMs = Math.round(performance.now() - started);
    const vacuumStarted = performance.now();
    await client.query(`VACUUM ANALYZE ${t.sections}, ${t.postings}, ${t.terms}, ${t.documents}`);
    const vacuumMs = Math.round(performance.now() - vacuumStarted);
    const count = async (sql: string) => Number((await client.query(sql)).rows[0].n);
    const sections = await count(`SELECT unit_count AS n FROM ${t.collections} WHERE id = ${Number(id)}`);
    const postings = await count(`SELECT count(*) AS n FROM ${t.postings}`);
    const bytes = {
      database: await count("SELECT pg_database_size(current_database()) AS n"),
      sections: await count(`SELECT pg_total_relation_size('${t.sections}') AS n`),
      postingsTable: await count(`SELECT pg_relation_size('${t.postings}') AS n`),
      postingsByImpact: await count(`SELECT pg_relation_size('${schema}.postings_by_impact') AS n`),
      postingsBySection: await count(`SELECT pg_relation_size('${schema}.postings_by_section') AS n`),
    };
    console.error(`postgres-scale: ${sections} sections in the database; querying`);
    const firstBase: string[] = [];
    const timing = await timeAll(
      queries,
      async (q) => {
        const response = await backend.search({ query: q });
        return response.results[0]?.id.replace(/#\d+$/, "") ?? "";
      },
      firstBase,
    );
    return {
      sections,
      postings,
      writer: { sections: written, ms: writerMs },
      writerSteps,
      vacuumMs,
      bytes,
      timing,
      firstBase,
    };
  } finally {
    await backend.close();
    await client.end();
  }
}

/** The embedded engine in a child process with a large heap: the largest size that completes. */
async function embeddedSide(copies: number): Promise<EmbeddedRun | undefined> {
  const dir = await mkdtemp(join(tmpdir(), "second-look-embedded-scale-"));
  const script = join(dir, "embedded-child.mts");
  await writeFile(
    script,
    `import { readCranfield } from ${JSON.stringify(join(repo, "src/evaluation/cranfield.ts"))};
import { toIndexableDocuments } from ${JSON.stringify(join(repo, "src/evaluation/eval-documents.ts"))};
import { analyzeDocument } from ${JSON.stringify(join(repo, "src/knowledge/index/collection-index.ts"))};
import { KnowledgeEngine } from ${JSON.stringify(join(repo, "src/backends/embedded/embedded-engine.ts"))};
import { percentiles } from ${JSON.stringify(join(repo, "src/evaluation/percentiles.ts"))};
const [dataDir, copiesArg] = process.argv.slice(2);
const dataset = await readCranfield(dataDir);
const base = toIndexableDocuments(dataset.docs).map((doc) => analyzeDocument(doc));
const docs = [];
for (let copy = 0; copy < Number(copiesArg); copy++) for (const d of base) docs.push({ ...d, id: d.id + "#" + copy });
const started = performance.now();
const engine = KnowledgeEngine.fromDocuments({ cranfield: docs });
const buildMs = Math.round(performance.now() - started);
const queries = dataset.queries.map((q) => q.text);
for (const q of queries.slice(0, 20)) await engine.search({ query: q });
const samples = [];
const firstBase = [];
for (const q of queries) {
  const t0 = performance.now();
  const r = await engine.search({ query: q });
  samples.push(performance.now() - t0);
  firstBase.push(r.results[0]?.id.replace(/#\\d+$/, "") ?? "");
}
const [p50, p95] = percentiles(samples, [50, 95]);
const r1 = (v) => Math.round(v * 10) / 10;
const heapMiB = Math.round(process.memoryUsage().heapUsed / 1024 / 1024);
const sections = docs.reduce((n, d) => n + d.sections.length, 0);
process.send({ sections, buildMs, heapMiB, p50: r1(p50), p95: r1(p95), samples: samples.length, firstBase }, () => process.exit(0));
`,
  );
  try {
    for (const fraction of EMBEDDED_FALLBACK_FRACTIONS) {
      const n = Math.max(1, Math.round(copies * fraction));
      console.error(`postgres-scale: embedded engine at ${n} copies`);
      const result = await new Promise<EmbeddedRun | undefined>((done) => {
        const child = fork(script, [join(sharedData, "cranfield"), String(n)], {
          execArgv: ["--import", "tsx", `--max-old-space-size=${EMBEDDED_HEAP_MB}`],
          stdio: ["ignore", 2, 2, "ipc"],
        });
        let got: EmbeddedRun | undefined;
        child.once("message", (m) => {
          got = m as EmbeddedRun;
        });
        child.once("exit", (code, signal) => {
          if (!got)
            console.error(`postgres-scale: embedded engine at ${n} copies failed (${signal ?? code})`);
          done(got);
        });
      });
      if (result) return result;
    }
    return undefined;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function timeAll(
  queries: readonly string[],
  search: (q: string) => Promise<string>,
  firstBase: string[],
): Promise<Required<Timing>> {
  for (const q of queries.slice(0, 20)) await search(q);
  // The 1-minute load average around the timed queries: this machine is shared, and a loaded
  // 2-core machine stretches every latency.
  const loadBefore = loadavg()[0]!;
  const samples: number[] = [];
  for (const q of queries) {
    const started = performance.now();
    firstBase.push(await search(q));
    samples.push(performance.now() - started);
  }
  const [p50, p95] = percentiles(samples, [50, 95]);
  return {
    p50: r1(p50!),
    p95: r1(p95!),
    samples: samples.length,
    load: [r1(loadBefore), r1(loadavg()[0]!)],
  };
}
