/**
 * The PostgreSQL backend against the embedded engine, in one run on one machine, with a
 * throwaway PostgreSQL 15 started here (test/support/postgres/postgres-server.ts):
 *
 * 1. pydocs (the 381-page Python docs bot at PYDOCS_BOT, default /tmp/pydocs-bot, built by
 *    ../shared/data/pydocs/build-bot.sh): `second-look index`'s per-file path, then the 100 judged
 *    questions on both backends — hit@5, weak-flag rates, responses identical — and the same
 *    questions from four processes searching the one database at once.
 *
 * The backend at a million sections is measured by bench/postgres-scale.bench.ts.
 */
import { fork } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { openEmbeddedEngine } from "../src/knowledge/open-embedded.js";
import { PostgresBackend } from "../src/knowledge/postgres/postgres-backend.js";
import { isWeak } from "../src/protocol/weakness.js";
import type { SearchResponse } from "../src/types.js";
import { postgresUnavailableReason, startPostgres } from "../test/support/postgres/postgres-server.js";

export const name = "postgres";
export const timeoutMs = 3 * 60 * 60_000;

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const sharedData = resolve(process.env.BENCH_DATA_DIR ?? resolve(repo, "../shared/data"));
const PYDOCS_BOT = process.env.PYDOCS_BOT ?? "/tmp/pydocs-bot";
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
    const markdown = [
      "## PostgreSQL backend vs embedded engine",
      "",
      pydocs ? pydocs.markdown : `pydocs part left out: no bot at ${PYDOCS_BOT}.`,
      "",
      "The backend at a million sections: bench/results/postgres-scale.md.",
    ].join("\n");
    return {
      title: "PostgreSQL backend vs embedded engine",
      figures: { pydocs: pydocs?.figures ?? null },
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
