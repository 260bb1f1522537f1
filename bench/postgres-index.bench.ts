/**
 * `second-look index` on the pydocs bot (381 HTML pages at PYDOCS_BOT, default /tmp/pydocs-bot)
 * as a user runs it, a process per run, side by side in one run on one throwaway PostgreSQL 15:
 * the embedded index (the peer: same loaders, same parser threads), the postgres backend, its
 * re-run with nothing changed, and — when BENCH_PG_BEFORE names another checkout of this
 * repository (e.g. the main branch before a change) — that checkout's postgres index too.
 * Wall time, files per second and peak RSS of the whole process (parser threads included).
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { postgresUnavailableReason, startPostgres } from "../test/support/postgres/postgres-server.js";

export const name = "postgres-index";
export const timeoutMs = 30 * 60_000;

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const PYDOCS_BOT = process.env.PYDOCS_BOT ?? "/tmp/pydocs-bot";
const BEFORE = process.env.BENCH_PG_BEFORE;
const URL_ENV = "BENCH_DATABASE_URL";

interface IndexRun {
  label: string;
  ms: number;
  maxRssMb: number | null;
  report: { files: number; added: number; unchanged: number; skipped: unknown[] };
}

/** `second-look index <bot> --json` from a checkout, as a process (its cli-entry reports peak RSS). */
function indexRun(checkout: string, bot: string, env: NodeJS.ProcessEnv): Promise<Omit<IndexRun, "label">> {
  return new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn(
      process.execPath,
      ["--import", "tsx", join(checkout, "test/support/cli-entry.ts"), "index", bot, "--json"],
      { cwd: checkout, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => {
      stdout += String(c);
    });
    child.stderr.on("data", (c) => {
      stderr += String(c);
    });
    child.on("close", (code) => {
      const ms = Math.round(performance.now() - started);
      if (code !== 0) return fail(new Error(`index from ${checkout} exited ${code}: ${stderr.slice(-2000)}`));
      const rss = /\{"maxRssKb":(\d+)\}\s*$/.exec(stderr);
      done({
        ms,
        maxRssMb: rss ? Math.round(Number(rss[1]) / 1024) : null,
        report: JSON.parse(stdout).collections[0],
      });
    });
  });
}

async function bot(root: string, name: string, knowledge: object): Promise<string> {
  const dir = join(root, name);
  await cp(join(PYDOCS_BOT, "docs"), join(dir, "docs"), { recursive: true });
  await writeFile(join(dir, "config.json"), JSON.stringify({ knowledge }));
  return dir;
}

export async function run(): Promise<{ title: string; figures: Record<string, unknown>; markdown: string }> {
  const reason = postgresUnavailableReason();
  if (reason) throw new Error(reason);
  if (!existsSync(join(PYDOCS_BOT, "docs")))
    throw new Error(`no pydocs bot at ${PYDOCS_BOT} (../shared/data/pydocs/build-bot.sh <dir>)`);
  const server = await startPostgres();
  const root = await mkdtemp(join(tmpdir(), "second-look-pg-index-bench-"));
  const env = { [URL_ENV]: server.url };
  const collections = { docs: { paths: ["docs/**/*.html"] } };
  const postgres = (schema: string) => ({
    backend: "postgres",
    postgres: { urlEnv: URL_ENV, schema },
    collections,
  });
  try {
    const runs: IndexRun[] = [];
    const embeddedBot = await bot(root, "embedded", { backend: "embedded", collections });
    runs.push({ label: "embedded index (peer)", ...(await indexRun(repo, embeddedBot, env)) });
    const afterBot = await bot(root, "after", postgres("after"));
    runs.push({ label: "postgres, this checkout", ...(await indexRun(repo, afterBot, env)) });
    runs.push({
      label: "postgres, this checkout, re-run (nothing changed)",
      ...(await indexRun(repo, afterBot, env)),
    });
    if (BEFORE) {
      const beforeBot = await bot(root, "before", postgres("before"));
      runs.push({
        label: `postgres, ${checkoutLabel(resolve(BEFORE))}`,
        ...(await indexRun(resolve(BEFORE), beforeBot, env)),
      });
    }
    const rows = runs.map((r) => {
      const perSecond = r.report.added ? (r.report.added / (r.ms / 1000)).toFixed(1) : "–";
      return `| ${r.label} | ${r.report.files} | ${r.report.added} | ${r.report.unchanged} | ${r.report.skipped.length} | ${(r.ms / 1000).toFixed(1)} | ${perSecond} | ${r.maxRssMb ?? "–"} |`;
    });
    const markdown = [
      "## `second-look index` on the pydocs bot: PostgreSQL vs embedded",
      "",
      "Each run a process of its own (tsx; wall time includes its start), on one throwaway PostgreSQL 15.",
      "",
      "| run | files | added | unchanged | skipped | wall (s) | added files/s | peak RSS (MB) |",
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
      ...rows,
    ].join("\n");
    return {
      title: "second-look index on PostgreSQL vs embedded (pydocs)",
      figures: { runs },
      markdown,
    };
  } finally {
    await server.stop();
    await rm(root, { recursive: true, force: true });
  }
}

/** A checkout named by its commit, never by where it sits on this machine. */
function checkoutLabel(dir: string): string {
  try {
    return `commit ${execFileSync("git", ["-C", dir, "rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim()}`;
  } catch {
    return "the checkout named by BENCH_PG_BEFORE";
  }
}
