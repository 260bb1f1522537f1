/**
 * The PostgreSQL backend at scale, side by side with the embedded engine, in one run on one
 * machine. A throwaway PostgreSQL 15 is started here (test/support/postgres/postgres-server.ts)
 * with the memory settings in SERVER_SETTINGS, its data folder under the system temp folder,
 * deleted afterwards.
 *
 * 1. Ingest: Cranfield's 1,400 abstracts replicated to BENCH_PG_SECTIONS sections (default
 *    1,001,000; each copy's ids suffixed `#copy`). The first BENCH_PG_WRITER_SECTIONS (default
 *    50,400) go through the backend's writer (replaceDocuments: sections, term statistics and
 *    impact-ordered postings, every index maintained) in transactions of WRITE_BATCH documents:
 *    that is the product's ingest rate. The rest are copied inside the database from the first
 *    copy (INSERT … SELECT of documents, sections and postings, indexes maintained; statistics
 *    scaled, which is exact for identical copies; postings' indexes rebuilt after the copy): a
 *    bench-only shortcut, timed and reported
 *    apart, because the writer's rate on this shared 2-core machine would take about an hour for
 *    a million sections. The files are not read from disk: the loaders' share of `second-look
 *    index` is measured by the ingest and postgres benchmarks.
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
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { readCranfield } from "../src/evaluation/cranfield.js";
import { toIndexableDocuments } from "../src/evaluation/eval-documents.js";
import { percentiles } from "../src/evaluation/percentiles.js";
import { analyzeDocument } from "../src/knowledge/index/collection-index.js";
import { tablesIn } from "../src/knowledge/postgres/pg-schema.js";
import {
  type DocumentToWrite,
  ensureCollection,
  replaceDocuments,
} from "../src/knowledge/postgres/pg-writer.js";
import { POSTINGS_BUDGET, PostgresBackend } from "../src/knowledge/postgres/postgres-backend.js";
import { postgresUnavailableReason, startPostgres } from "../test/support/postgres/postgres-server.js";

export const name = "postgres-scale";
export const timeoutMs = 4 * 60 * 60_000;

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const sharedData = resolve(process.env.BENCH_DATA_DIR ?? resolve(repo, "../shared/data"));
const SECTIONS = Number(process.env.BENCH_PG_SECTIONS ?? 1_001_000);
const WRITER_SECTIONS = Number(process.env.BENCH_PG_WRITER_SECTIONS ?? 50_400);
const WRITE_BATCH = 1_000;
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
  const base = toIndexableDocuments(dataset.docs).map(analyzeDocument);
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
    bulk: { ...postgres.bulk, sectionsPerSecond: perSecond(postgres.bulk) },
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
    `| postgres | ${postgres.sections.toLocaleString("en")} | writer ${postgres.writer.sections.toLocaleString("en")} in ${r1(postgres.writer.ms / 1000)} s, bulk copy ${postgres.bulk.sections.toLocaleString("en")} in ${r1(postgres.bulk.ms / 1000)} s | writer ${figures.writer.sectionsPerSecond.toLocaleString("en")}, bulk copy ${figures.bulk.sectionsPerSecond.toLocaleString("en")} | ${postgres.timing.p50} | ${postgres.timing.p95} | database ${mib(b.database)} MiB |`,
    e
      ? `| embedded (in memory) | ${e.sections.toLocaleString("en")} | ${r1(e.buildMs / 1000)} s | ${Math.round(e.sections / (e.buildMs / 1000)).toLocaleString("en")} | ${e.p50} | ${e.p95} | heap ${e.heapMiB.toLocaleString("en")} MiB |`
      : `| embedded (in memory) | — | failed at every size tried (${EMBEDDED_FALLBACK_FRACTIONS.map((f) => Math.round(copies * f) * perCopy).join(", ")} sections) | — | — | — | — |`,
    "",
    `Postgres storage: sections ${mib(b.sections)} MiB (table, tsvectors and indexes), postings ${mib(b.postingsTable)} MiB table + ${mib(b.postingsByImpact)} MiB impact index + ${mib(b.postingsBySection)} MiB section index (${postgres.postings.toLocaleString("en")} postings), VACUUM ANALYZE after the load ${r1(postgres.vacuumMs / 1000)} s (not in the ingest time).`,
    "",
    `Ingest paths: **writer** — the backend's writer (replaceDocuments: sections, term statistics and postings with every index maintained), ${WRITE_BATCH} documents per transaction, from Cranfield documents analysed once in memory and replicated (the loaders and analyser are not in this figure); **bulk copy** — a bench-only shortcut to reach the size: the first copy's documents, sections and postings copied inside the database in one transaction (sections' indexes maintained, postings' two indexes dropped and rebuilt after the copy, their time included), statistics scaled. ` +
      `Server settings for this run: ${Object.entries(SERVER_SETTINGS)
        .map(([k, v]) => `${k}=${v}`)
        .join(", ")}; fsync off (a throwaway server).`,
    "",
    `Queries: Cranfield's ${queries.length}, default search (reranked, top 10), one pass after a warm-up of 20, one process, sequential; the database reads at most ${POSTINGS_BUDGET.toLocaleString("en")} postings per search pass.` +
      (sameFirst !== undefined
        ? ` First hit a copy of the same Cranfield document on both backends: ${sameFirst} of ${queries.length} queries.`
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
    const { id } = await ensureCollection(writer, t, "cranfield", "cranfield");
    const writerCopies = Math.max(1, Math.min(copies, Math.ceil(WRITER_SECTIONS / base.length)));
    const total = writerCopies * base.length;
    const started = performance.now();
    let batch: DocumentToWrite[] = [];
    let written = 0;
    for (let copy = 0; copy < writerCopies; copy++) {
      for (const d of base) {
        const path = `${d.id}#${copy}`;
        batch.push({ path, size: 0, mtimeMs: 0, contentHash: "", document: { ...d, id: path } });
        if (batch.length === WRITE_BATCH) {
          await replaceDocuments(writer, t, id, batch);
          written += batch.length;
          batch = [];
          if (written % 50_000 === 0) {
            const s = (performance.now() - started) / 1000;
            console.error(
              `postgres-scale: ${written.toLocaleString("en")} of ${total.toLocaleString("en")} documents in ${r1(s)} s (${Math.round(written / s)}/s)`,
            );
          }
        }
      }
    }
    if (batch.length) await replaceDocuments(writer, t, id, batch);
    const writerMs = Math.round(performance.now() - started);
    const bulkStarted = performance.now();
    await replicateInDatabase(client, schema, id, writerCopies, copies);
    const bulkMs = Math.round(performance.now() - bulkStarted);
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
      writer: { sections: writerCopies * base.length, ms: writerMs },
      bulk: { sections: (copies - writerCopies) * base.length, ms: bulkMs },
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

/**
 * Copies `#0` (documents, sections, postings) inside the database as copies `from`..`to − 1`
 * in one transaction, then scales the collection's statistics and document frequencies
 * by to / from — exact, since every copy is the same. Bench-only: the product writes through
 * replaceDocuments.
 */
async function replicateInDatabase(
  client: pg.Client,
  schema: string,
  collectionId: number,
  from: number,
  to: number,
) {
  const t = tablesIn(schema);
  const started = performance.now();
  // The first copy, read once: its documents by base path, its sections with their document's.
  await client.query(
    `CREATE TEMP TABLE first_documents AS
     SELECT id, left(path, -2) AS base, title, url, modified_time, size, mtime_ms, content_hash
     FROM ${t.documents} WHERE collection_id = $1 AND path LIKE '%#0'`,
    [collectionId],
  );
  await client.query(
    `CREATE TEMP TABLE first_sections AS
     SELECT s.*, d.base FROM first_documents d JOIN ${t.sections} s ON s.document_id = d.id`,
  );
  await client.query(
    `CREATE TEMP TABLE first_postings AS
     SELECT p.* FROM first_sections s JOIN ${t.postings} p ON p.section_id = s.id`,
  );
  // Postings' indexes are dropped for the copy and rebuilt after it from their own definitions
  // (a sorted build, much faster than a million sections' worth of inserts into them).
  const indexes = await client.query<{ indexname: string; indexdef: string }>(
    "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = $1 AND tablename = 'postings'",
    [schema],
  );
  for (const index of indexes.rows) await client.query(`DROP INDEX "${schema}"."${index.indexname}"`);
  await client.query("BEGIN");
  await client.query(
    `CREATE TEMP TABLE new_documents ON COMMIT DROP AS
     WITH ins AS (
       INSERT INTO ${t.documents} (collection_id, path, title, url, modified_time, size, mtime_ms, content_hash)
       SELECT $1, base || '#' || copy::text, title, url, modified_time, size, mtime_ms, content_hash
       FROM generate_series($2::int, $3::int - 1) AS copy CROSS JOIN first_documents
       RETURNING id, path
     )
     SELECT id, path FROM ins`,
    [collectionId, from, to],
  );
  console.error(`postgres-scale: bulk copy: documents in ${r1((performance.now() - started) / 1000)} s`);
  await client.query(
    `CREATE TEMP TABLE section_map ON COMMIT DROP AS
     WITH src AS (
       SELECT s.*, nd.id AS new_document_id
       FROM new_documents nd JOIN first_sections s ON s.base = left(nd.path, -(strpos(reverse(nd.path), '#')))
     ),
     ins AS (
       INSERT INTO ${t.sections} (document_id, collection_id, ord, heading_path, heading, level, content, page_start,
                                  page_end, title_length, body_length, tsv, title_terms, body_terms)
       SELECT new_document_id, collection_id, ord, heading_path, heading, level, content, page_start, page_end,
              title_length, body_length, tsv, title_terms, body_terms
       FROM src
       RETURNING id, document_id, ord
     )
     SELECT src.id AS old_id, ins.id AS new_id
     FROM ins JOIN src ON src.new_document_id = ins.document_id AND src.ord = ins.ord`,
  );
  console.error(`postgres-scale: bulk copy: sections in ${r1((performance.now() - started) / 1000)} s`);
  await client.query(
    `INSERT INTO ${t.postings} (collection_id, term, impact, section_id, title_tf, body_tf, title_length, body_length)
     SELECT p.collection_id, p.term, p.impact, m.new_id, p.title_tf, p.body_tf, p.title_length, p.body_length
     FROM section_map m JOIN first_postings p ON p.section_id = m.old_id`,
  );
  await client.query("COMMIT");
  console.error(`postgres-scale: bulk copy: postings in ${r1((performance.now() - started) / 1000)} s`);
  for (const index of indexes.rows) await client.query(index.indexdef);
  console.error(
    `postgres-scale: bulk copy: postings indexes in ${r1((performance.now() - started) / 1000)} s`,
  );
  await client.query(
    `UPDATE ${t.collections} SET unit_count = unit_count / $2 * $3, title_length_sum = title_length_sum / $2 * $3,
       body_length_sum = body_length_sum / $2 * $3 WHERE id = $1`,
    [collectionId, from, to],
  );
  await client.query(`UPDATE ${t.terms} SET df = df / $2 * $3 WHERE collection_id = $1`, [
    collectionId,
    from,
    to,
  ]);
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
import { KnowledgeEngine } from ${JSON.stringify(join(repo, "src/knowledge/engine.ts"))};
import { percentiles } from ${JSON.stringify(join(repo, "src/evaluation/percentiles.ts"))};
const [dataDir, copiesArg] = process.argv.slice(2);
const dataset = await readCranfield(dataDir);
const base = toIndexableDocuments(dataset.docs).map(analyzeDocument);
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
): Promise<Timing> {
  for (const q of queries.slice(0, 20)) await search(q);
  const samples: number[] = [];
  for (const q of queries) {
    const started = performance.now();
    firstBase.push(await search(q));
    samples.push(performance.now() - started);
  }
  const [p50, p95] = percentiles(samples, [50, 95]);
  return { p50: r1(p50!), p95: r1(p95!), samples: samples.length };
}
