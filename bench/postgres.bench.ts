/**
 * The PostgreSQL backend against the embedded engine, in one run on one machine, with a
 * throwaway PostgreSQL 15 started here (test/support/postgres/postgres-server.ts):
 *
 * 1. pydocs (the 381-page Python docs bot at PYDOCS_BOT, default /tmp/pydocs-bot, built by
 *    ../shared/data/pydocs/build-bot.sh): `second-look index`'s per-file path, then the 100 judged
 *    questions on both backends — hit@5, weak-flag rates, responses identical — and the same
 *    questions from four processes searching the one database at once.
 * 2. lohelp de, ja, ru and fi (LibreOffice's help, ../shared/data/lohelp/; pages from the lohelp
 *    bench's builder, BENCH_LOHELP_DIR reuses prebuilt ones): the same pages indexed by the
 *    embedded engine and by PostgreSQL with the collection's `language` set to the language's tag,
 *    the 80 judged questions on both — responses identical (whole SearchResponse) and hit@5 on
 *    both. Russian and Finnish are stemmed by prefix: their questions' word forms no page writes
 *    are searched as the forms the collection holds (ranking-core/unseen-forms.ts).
 *
 * POSTGRES_BENCH_PARTS=pydocs,lohelp (the default: both) chooses the parts.
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
import { openEmbeddedEngine } from "../src/backends/embedded/open-embedded.js";
import { PostgresBackend } from "../src/backends/postgres/postgres-backend.js";
import type { SearchResponse } from "../src/types.js";
import { isWeak } from "../src/weakness.js";
import { postgresUnavailableReason, startPostgres } from "../test/support/postgres/postgres-server.js";
import { lohelpDocsDir } from "./lohelp/bot.js";
import { LOHELP_LANGUAGES, type LohelpLanguage } from "./lohelp/languages.js";

export const name = "postgres";
export const timeoutMs = 3 * 60 * 60_000;

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const sharedData = resolve(process.env.BENCH_DATA_DIR ?? resolve(repo, "../shared/data"));
const PYDOCS_BOT = process.env.PYDOCS_BOT ?? "/tmp/pydocs-bot";
const URL_ENV = "BENCH_DATABASE_URL";
const PARTS = ["pydocs", "lohelp"] as const;
/** The lohelp languages compared across backends: compounds, a segmenter, prefix stems. */
const LOHELP_CODES = ["de", "ja", "ru", "fi"] as const;
const r1 = (v: number) => Math.round(v * 10) / 10;

interface Judged {
  id: string;
  text: string;
  kind: string;
  relevant: string[];
}

/** POSTGRES_BENCH_PARTS (comma-separated), or every part. */
function selectedParts(list: string | undefined = process.env.POSTGRES_BENCH_PARTS): Set<string> {
  const wanted = (list ?? "")
    .split(",")
    .map((p) => p.trim().toLowerCase())
    .filter(Boolean);
  const unknown = wanted.filter((p) => !(PARTS as readonly string[]).includes(p));
  if (unknown.length)
    throw new Error(`POSTGRES_BENCH_PARTS: unknown part(s) ${unknown.join(", ")}; use ${PARTS.join(", ")}`);
  return new Set(wanted.length ? wanted : PARTS);
}

export async function run(): Promise<{ title: string; figures: Record<string, unknown>; markdown: string }> {
  const reason = postgresUnavailableReason();
  if (reason) throw new Error(reason);
  const parts = selectedParts();
  const server = await startPostgres();
  process.env[URL_ENV] = server.url;
  try {
    const pydocsWanted = parts.has("pydocs");
    const pydocs =
      pydocsWanted && existsSync(join(PYDOCS_BOT, "docs")) ? await pydocsComparison() : undefined;
    if (pydocsWanted && !pydocs)
      console.error(`postgres bench: no pydocs bot at ${PYDOCS_BOT}; part 1 left out`);
    const lohelp = [];
    if (parts.has("lohelp")) {
      for (const code of LOHELP_CODES) {
        lohelp.push(await lohelpComparison(LOHELP_LANGUAGES.find((l) => l.code === code)!));
      }
    }
    const markdown = [
      "## PostgreSQL backend vs embedded engine",
      "",
      pydocs
        ? pydocs.markdown
        : pydocsWanted
          ? `pydocs part left out: no bot at ${PYDOCS_BOT}.`
          : "pydocs part not run (POSTGRES_BENCH_PARTS).",
      "",
      ...(lohelp.length ? [lohelpMarkdown(lohelp), ""] : ["lohelp part not run (POSTGRES_BENCH_PARTS).", ""]),
      "The backend at a million sections: bench/results/postgres-scale.md.",
    ].join("\n");
    return {
      title: "PostgreSQL backend vs embedded engine",
      figures: { pydocs: pydocs?.figures ?? null, lohelp: lohelp.length ? lohelp : null },
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
    const questions = await judgedQuestions(join(sharedData, "pydocs/queries.jsonl"));
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
      const units = await unitCount("pydocs");
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

interface LohelpComparison {
  code: string;
  language: string;
  files: number;
  sections: number;
  questions: number;
  identicalResponses: number;
  embedded: Awaited<ReturnType<typeof answers>>["metrics"];
  postgres: Awaited<ReturnType<typeof answers>>["metrics"];
  /** The first question whose responses differ, with both backends' hit ids; null when none does. */
  firstDifference: {
    question: string;
    embedded: string[];
    postgres: string[];
    /** Where the two responses first part (a JSON path) and each side's value there. */
    field: { path: string; embedded: unknown; postgres: unknown } | null;
  } | null;
}

/** The first path (depth first) at which two JSON values differ, with both values; null when equal. */
function firstDifferingField(
  a: unknown,
  b: unknown,
  path = "$",
): { path: string; embedded: unknown; postgres: unknown } | null {
  if (JSON.stringify(a) === JSON.stringify(b)) return null;
  if (a && b && typeof a === "object" && typeof b === "object") {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    for (const key of keys) {
      const found = firstDifferingField(
        (a as Record<string, unknown>)[key],
        (b as Record<string, unknown>)[key],
        `${path}.${key}`,
      );
      if (found) return found;
    }
  }
  return { path, embedded: a, postgres: b };
}

/**
 * One lohelp language on both backends: the same pages (copied into one bot folder), the
 * collection's `language` set to the language's tag, the 80 judged questions on each.
 */
async function lohelpComparison(language: LohelpLanguage): Promise<LohelpComparison> {
  const root = await mkdtemp(join(tmpdir(), `second-look-pg-lohelp-${language.code}-`));
  const botDir = join(root, "lohelp");
  const collections = { docs: { paths: ["docs/**/*.html"], language: language.tag } };
  const bot = `lohelp-${language.code}`;
  try {
    await cp(await lohelpDocsDir(language), join(botDir, "docs"), { recursive: true });
    const questions = await judgedQuestions(join(sharedData, "lohelp", `queries.${language.code}.jsonl`));
    console.error(`postgres bench: lohelp ${language.code}: embedded index …`);
    const { engine } = await openEmbeddedEngine(botDir, collections);
    const backend = await PostgresBackend.open({ bot, urlEnv: URL_ENV, schema: "second_look", collections });
    try {
      console.error(`postgres bench: lohelp ${language.code}: PostgreSQL index …`);
      const [report] = await backend.refresh(botDir);
      const sections = await unitCount(bot);
      console.error(`postgres bench: lohelp ${language.code}: ${questions.length} questions on both …`);
      const embedded = await answers(questions, (q) => engine.search({ query: q }));
      const postgres = await answers(questions, (q) => backend.search({ query: q }));
      const same = questions.map(
        (_, i) => JSON.stringify(embedded.responses[i]) === JSON.stringify(postgres.responses[i]),
      );
      const first = same.indexOf(false);
      const ids = (r: SearchResponse) => r.results.map((h) => `${h.id} ${h.relevance}`);
      const firstDifference =
        first < 0
          ? null
          : {
              question: questions[first]!.text,
              embedded: ids(embedded.responses[first]!),
              postgres: ids(postgres.responses[first]!),
              field: firstDifferingField(embedded.responses[first], postgres.responses[first]),
            };
      for (const [i, equal] of same.entries()) {
        if (equal) continue;
        const field = firstDifferingField(embedded.responses[i], postgres.responses[i]);
        console.error(
          `postgres bench: lohelp ${language.code}: ${questions[i]!.id} differs at`,
          JSON.stringify(field),
        );
      }
      return {
        code: language.code,
        language: language.tag,
        files: report!.files,
        sections,
        questions: questions.length,
        identicalResponses: same.filter(Boolean).length,
        embedded: embedded.metrics,
        postgres: postgres.metrics,
        firstDifference,
      };
    } finally {
      await backend.close();
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

function lohelpMarkdown(results: readonly LohelpComparison[]): string {
  const rows = results.map(
    (r) =>
      `| ${r.code} (\`"language": "${r.language}"\`) | ${r.files} | ${r.sections} | ${r.identicalResponses} of ${r.questions} | ${r.embedded.hitAt5} | ${r.postgres.hitAt5} |`,
  );
  const differences = results
    .filter((r) => r.firstDifference)
    .map(
      (r) =>
        `First differing ${r.code} question: "${r.firstDifference!.question}" — embedded ${JSON.stringify(r.firstDifference!.embedded)}, postgres ${JSON.stringify(r.firstDifference!.postgres)}.`,
    );
  return [
    "### lohelp (LibreOffice help; the 80 judged questions of each language)",
    "",
    "| language | pages | sections | responses identical (whole SearchResponse) | hit@5 embedded (answerable, %) | hit@5 postgres (answerable, %) |",
    "| --- | --- | --- | --- | --- | --- |",
    ...rows,
    ...(differences.length ? ["", ...differences] : []),
  ].join("\n");
}

async function judgedQuestions(file: string): Promise<Judged[]> {
  return (await readFile(file, "utf8"))
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Judged);
}

/** The sections PostgreSQL holds for a bot (its one collection). */
async function unitCount(bot: string): Promise<number> {
  const client = new pg.Client(process.env[URL_ENV]);
  await client.connect();
  try {
    const rows = (await client.query("SELECT unit_count FROM second_look.collections WHERE bot = $1", [bot]))
      .rows;
    return Number(rows[0].unit_count);
  } finally {
    await client.end();
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
    `import { PostgresBackend } from ${JSON.stringify(join(repo, "src/backends/postgres/postgres-backend.ts"))};
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
