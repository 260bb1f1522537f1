/**
 * The PostgreSQL backend against the embedded engine, in one run on one machine, with a
 * throwaway PostgreSQL 15 started here (test/support/postgres/postgres-server.ts):
 *
 * 1. pydocs (the 381-page Python docs bot at PYDOCS_BOT, default /tmp/pydocs-bot, built by
 *    ../shared/data/pydocs/build-bot.sh): `second-look index`'s per-file path, then the 100 judged
 *    questions on both backends — hit@5, weak-flag rates, responses identical — and the same
 *    questions from four processes searching the one database at once.
 * 2. Scale: Cranfield replicated to BENCH_PG_SECTIONS sections (default 1,001,000; ids suffixed
 *    per copy), written in transactions of WRITE_BATCH documents through the backend's writer,
 *    then the 225 Cranfield queries (default search, top 10): p50/p95 on Postgres, and on the
 *    embedded engine built in memory from the same documents in the same run.
 */
import { fork } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { readCranfield } from "../src/evaluation/cranfield.js";
import { toIndexableDocuments } from "../src/evaluation/eval-documents.js";
import { percentiles } from "../src/evaluation/percentiles.js";
import { KnowledgeEngine } from "../src/knowledge/engine.js";
import { analyzeDocument } from "../src/knowledge/index/collection-index.js";
import { openEmbeddedEngine } from "../src/knowledge/open-embedded.js";
import { tablesIn } from "../src/knowledge/postgres/pg-schema.js";
import { ensureCollection, replaceDocuments } from "../src/knowledge/postgres/pg-writer.js";
import { PostgresBackend } from "../src/knowledge/postgres/postgres-backend.js";
import { isWeak } from "../src/protocol/weakness.js";
import type { SearchResponse } from "../src/types.js";
import { postgresUnavailableReason, startPostgres } from "../test/support/postgres/postgres-server.js";

export const name = "postgres";
export const timeoutMs = 3 * 60 * 60_000;

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const sharedData = resolve(process.env.BENCH_DATA_DIR ?? resolve(repo, "../shared/data"));
const PYDOCS_BOT = process.env.PYDOCS_BOT ?? "/tmp/pydocs-bot";
const SECTIONS = Number(process.env.BENCH_PG_SECTIONS ?? 1_001_000);
const WRITE_BATCH = 1_000;
const URL_ENV = "BENCH_DATABASE_URL";
const r1 = (v: number) => Math.round(v * 10) / 10;

interface Judged {
  id: string;
  text: string;
  kind: string;
  relevant: string[];
}

export async function run(): Promise<{ title: string; figures: Record<string, unknown>; markdown: string }> {
  const reason = postgresUnavailableReason();
  if (reason) throw new Error(reason);
  const server = await startPostgres();
  process.env[URL_ENV] = server.url;
  try {
    const pydocs = existsSync(join(PYDOCS_BOT, "docs")) ? await pydocsComparison() : undefined;
    if (!pydocs) console.error(`postgres bench: no pydocs bot at ${PYDOCS_BOT}; part 1 left out`);
    // BENCH_PG_SECTIONS=0 runs the pydocs part alone.
    const scale =
      SECTIONS > 0
        ? await scaleComparison(server.url)
        : { figures: null, markdown: "Scale part not run (BENCH_PG_SECTIONS=0)." };
    const markdown = [
      "## PostgreSQL backend vs embedded engine",
      "",
      pydocs ? pydocs.markdown : `pydocs part left out: no bot at ${PYDOCS_BOT}.`,
      "",
      scale.markdown,
    ].join("\n");
    return {
      title: "PostgreSQL backend vs embedded engine",
      figures: { pydocs: pydocs?.figures ?? null, scale: scale.figures },
      markdown,
    };
  } finally {
    await server.stop();
  }
}

async function pydocsComparison() {
  const root = await mkdtemp(join(tmpdir(), "second-look-pg-pydocs-"));
  const botDir = join(root, "pydocs");
  const collections = { docs: { paths: ["docs/**/*.html"] } };
  try {
    await cp(join(PYDOCS_BOT, "docs"), join(botDir, "docs"), { recursive: true });
    const questions = (await readFile(join(sharedData, "pydocs/queries.jsonl"), "utf8"))
      .split("\n")
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as Judged);
    const { engine } = await openEmbeddedEngine(botDir, collections);
    const backend = await PostgresBackend.open({
      bot: "pydocs",
      urlEnv: URL_ENV,
      schema: "second_look",
      collections,
    });
    try {
      const started = performance.now();
      const [report] = await backend.refresh(botDir);
      const indexMs = performance.now() - started;
      const pool = new pg.Client(process.env[URL_ENV]);
      await pool.connect();
      const units = Number(
        (await pool.query("SELECT unit_count FROM second_look.collections WHERE bot = 'pydocs'")).rows[0]
          .unit_count,
      );
      await pool.end();
      const embedded = await answers(questions, (q) => engine.search({ query: q }));
      const postgres = await answers(questions, (q) => backend.search({ query: q }));
      const identical = questions.filter(
        (_, i) => JSON.stringify(embedded.responses[i]) === JSON.stringify(postgres.responses[i]),
      ).length;
      const processes = await fourProcesses(
        botDir,
        questions.map((q) => q.text),
      );
      const single = questions.map((_, i) => JSON.stringify(postgres.responses[i]));
      const sameAsSingle = processes.every(
        (p) => p.length === single.length && p.every((r, i) => r === single[i]),
      );
      const figures = {
        files: report!.files,
        sections: units,
        indexMs: Math.round(indexMs),
        filesPerSecond: r1(report!.files / (indexMs / 1000)),
        embedded: embedded.metrics,
        postgres: postgres.metrics,
        identicalResponses: identical,
        questions: questions.length,
        fourProcessesIdenticalToSingle: sameAsSingle,
      };
      const row = (label: string, m: typeof embedded.metrics) =>
        `| ${label} | ${m.hitAt5} | ${m.weakAnswerable} | ${m.weakUnanswerable} |`;
      const markdown = [
        `### pydocs (${questions.length} judged questions, ${report!.files} pages, ${units} sections)`,
        "",
        "| backend | hit@5 (answerable, %) | weak flag on answerable (%) | weak flag on unanswerable (%) |",
        "| --- | --- | --- | --- |",
        row("embedded", embedded.metrics),
        row("postgres", postgres.metrics),
        "",
        `Responses identical (whole SearchResponse): ${identical} of ${questions.length}. ` +
          `Four processes searching the one database at once: ${sameAsSingle ? "every response identical to the single process" : "DIFFERENT from the single process"}. ` +
          `\`second-look index\` path (one transaction per file): ${report!.files} files in ${r1(indexMs / 1000)} s (${figures.filesPerSecond} files/s).`,
      ].join("\n");
      return { figures, markdown };
    } finally {
      await backend.close();
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

async function answers(questions: readonly Judged[], search: (q: string) => Promise<SearchResponse>) {
  const responses: SearchResponse[] = [];
  for (const q of questions) responses.push(await search(q.text));
  const answerable = questions
    .map((q, i) => [q, responses[i]!] as const)
    .filter(([q]) => q.kind === "answerable");
  const unanswerable = questions
    .map((q, i) => [q, responses[i]!] as const)
    .filter(([q]) => q.kind !== "answerable");
  const pct = (n: number, d: number) => (d ? r1((100 * n) / d) : 0);
  const hit = answerable.filter(([q, r]) =>
    r.results
      .slice(0, 5)
      .some((h) => q.relevant.some((rel) => h.id === `docs/${rel}` || h.id.endsWith(`/${rel}`))),
  ).length;
  return {
    responses,
    metrics: {
      hitAt5: pct(hit, answerable.length),
      weakAnswerable: pct(answerable.filter(([, r]) => isWeak(r)).length, answerable.length),
      weakUnanswerable: pct(unanswerable.filter(([, r]) => isWeak(r)).length, unanswerable.length),
    },
  };
}

/** Four child processes search the same questions at once; each returns its responses as JSON lines. */
async function fourProcesses(botDir: string, queries: readonly string[]): Promise<string[][]> {
  const script = join(botDir, "..", "search-child.mts");
  await writeFile(
    script,
    `import { PostgresBackend } from ${JSON.stringify(join(repo, "src/knowledge/postgres/postgres-backend.ts"))};
const queries = JSON.parse(process.argv[2]);
const backend = await PostgresBackend.open({ bot: "pydocs", urlEnv: ${JSON.stringify(URL_ENV)}, schema: "second_look", collections: { docs: { paths: ["docs/**/*.html"] } } });
const out = [];
for (const q of queries) out.push(JSON.stringify(await backend.search({ query: q })));
await backend.close();
process.send(out, () => process.exit(0));
`,
  );
  const children = Array.from(
    { length: 4 },
    () =>
      new Promise<string[]>((done, fail) => {
        const child = fork(script, [JSON.stringify(queries)], {
          execArgv: ["--import", "tsx"],
          stdio: "inherit",
        });
        child.once("message", (m) => done(m as string[]));
        child.once("exit", (code) => code !== 0 && fail(new Error(`search child exited ${code}`)));
      }),
  );
  return Promise.all(children);
}

async function scaleComparison(url: string) {
  const dataset = await readCranfield(join(sharedData, "cranfield"));
  const base = toIndexableDocuments(dataset.docs).map(analyzeDocument);
  const perCopy = base.reduce((n, d) => n + d.sections.length, 0);
  const copies = Math.ceil(SECTIONS / perCopy);
  const client = new pg.Client(url);
  await client.connect();
  const t = tablesIn("scale");
  const backend = await PostgresBackend.open({
    bot: "cranfield",
    urlEnv: URL_ENV,
    schema: "scale",
    collections: { cranfield: { paths: ["none"] } },
  });
  try {
    const { id } = await ensureCollection(client as unknown as pg.PoolClient, t, "cranfield", "cranfield");
    const started = performance.now();
    let batch = [];
    let written = 0;
    for (let copy = 0; copy < copies; copy++) {
      for (const d of base) {
        batch.push({
          path: `${d.id}#${copy}`,
          size: 0,
          mtimeMs: 0,
          contentHash: "",
          document: { ...d, id: `${d.id}#${copy}` },
        });
        if (batch.length === WRITE_BATCH) {
          await replaceDocuments(client as unknown as pg.PoolClient, t, id, batch);
          written += batch.length;
          batch = [];
          if (written % 50_000 === 0) console.error(`postgres bench: ${written} documents written`);
        }
      }
    }
    if (batch.length) await replaceDocuments(client as unknown as pg.PoolClient, t, id, batch);
    const ingestMs = performance.now() - started;
    await client.query("VACUUM ANALYZE scale.sections");
    const sections = copies * perCopy;
    const size = (await client.query("SELECT pg_database_size(current_database()) AS b")).rows[0].b;
    const queries = dataset.queries.map((q) => q.text);
    const timePg = await timeAll(queries, (q) => backend.search({ query: q }));

    // The embedded engine at the same size, if this machine holds it; else the largest that builds.
    let embedded: { sections: number; buildMs: number; p50: number; p95: number } | { error: string };
    try {
      const docs = [];
      for (let copy = 0; copy < copies; copy++)
        for (const d of base) docs.push({ ...d, id: `${d.id}#${copy}` });
      const buildStarted = performance.now();
      const engine = KnowledgeEngine.fromDocuments({ cranfield: docs });
      const buildMs = performance.now() - buildStarted;
      const timing = await timeAll(queries, (q) => engine.search({ query: q }));
      embedded = { sections, buildMs: Math.round(buildMs), ...timing };
    } catch (error) {
      embedded = { error: String(error) };
    }
    const figures = {
      sections,
      copies,
      ingestMs: Math.round(ingestMs),
      sectionsPerSecond: Math.round(sections / (ingestMs / 1000)),
      databaseBytes: Number(size),
      postgres: timePg,
      embedded,
    };
    const e = embedded;
    const markdown = [
      `### Scale: Cranfield × ${copies} = ${sections.toLocaleString("en")} sections`,
      "",
      `Ingest into PostgreSQL (transactions of ${WRITE_BATCH} documents, GIN index maintained): ${r1(ingestMs / 1000)} s, ${figures.sectionsPerSecond.toLocaleString("en")} sections/s; database ${Math.round(Number(size) / 1024 / 1024)} MiB.`,
      "",
      "| backend | sections | build/ingest | query p50 (ms) | query p95 (ms) |",
      "| --- | --- | --- | --- | --- |",
      `| postgres | ${sections.toLocaleString("en")} | ${r1(ingestMs / 1000)} s | ${timePg.p50} | ${timePg.p95} |`,
      "error" in e
        ? `| embedded | ${sections.toLocaleString("en")} | failed: ${e.error} | — | — |`
        : `| embedded (in memory) | ${e.sections.toLocaleString("en")} | ${r1(e.buildMs / 1000)} s | ${e.p50} | ${e.p95} |`,
      "",
      `${queries.length} Cranfield queries, default search (reranked), limit 10, one pass after a warm-up of 20.`,
    ].join("\n");
    return { figures, markdown };
  } finally {
    await backend.close();
    await client.end();
  }
}

async function timeAll(queries: readonly string[], search: (q: string) => Promise<unknown>) {
  for (const q of queries.slice(0, 20)) await search(q);
  const samples: number[] = [];
  for (const q of queries) {
    const started = performance.now();
    await search(q);
    samples.push(performance.now() - started);
  }
  const [p50, p95] = percentiles(samples, [50, 95]);
  return { p50: r1(p50!), p95: r1(p95!), samples: samples.length };
}
