// `second-look index` and `second-look search` as a person runs them on a bot whose knowledge is
// in PostgreSQL (`knowledge.backend: "postgres"`): real processes against a real PostgreSQL 15.
// Covers the output lines, the incremental re-run, a removed file, a hostile file refused by the
// parser threads' bounds while the rest is indexed, and the one line printed when the server is down.
import { cp, mkdir, mkdtemp, rm, stat, unlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openEmbeddedEngine } from "../../src/backends/embedded/open-embedded.js";
import { runCliProcess } from "../support/cli-process.js";
import { hostileText } from "../support/hostile-files.js";
import {
  type PostgresServer,
  postgresUnavailableReason,
  startPostgres,
} from "../support/postgres/postgres-server.js";
import { storeInvariants } from "../support/postgres/store-invariants.js";

const skipReason = postgresUnavailableReason();
if (skipReason) console.warn(`[skipped] second-look index/search on PostgreSQL: ${skipReason}`);

const HANDBOOK_DOCS = join(import.meta.dirname, "../../bots/handbook/docs");
const URL_ENV = "SL_TEST_DATABASE_URL";
/** Per-file parse bound of the test bot: ample for a handbook page, far short of the hostile file. */
const FILE_TIMEOUT_MS = 4_000;
const HOSTILE = "docs/hostile/brackets.md";
const HOSTILE_MTIME = 1_700_000_000;

describe.skipIf(skipReason !== undefined)("second-look index and search on a postgres bot", () => {
  let server: PostgresServer;
  let root: string;
  let bot: string;
  const env = () => ({ [URL_ENV]: server.url });

  beforeAll(async () => {
    server = await startPostgres();
    root = await mkdtemp(join(tmpdir(), "second-look-pg-cli-"));
    bot = join(root, "handbook-pg");
    await cp(HANDBOOK_DOCS, join(bot, "docs"), { recursive: true });
    await writeFile(
      join(bot, "docs", "quokka.md"),
      "# Quokka hotline\n\nCall the quokka hotline before nine.\n",
    );
    await mkdir(join(bot, "docs", "hostile"));
    // Unclosed link openers: the Markdown parser reads some tens of thousands a second.
    await writeFile(join(bot, HOSTILE), hostileText.brackets(1_000_000));
    // A whole-second time, so the test can put the same one back after changing the bytes.
    await utimes(join(bot, HOSTILE), HOSTILE_MTIME, HOSTILE_MTIME);
    await writeFile(
      join(bot, "config.json"),
      JSON.stringify({
        description: "The handbook, its knowledge in PostgreSQL.",
        knowledge: {
          backend: "postgres",
          postgres: { urlEnv: URL_ENV, schema: "cli_test" },
          collections: { handbook: { paths: ["docs/**/*.md"] } },
          ingest: { fileTimeoutMs: FILE_TIMEOUT_MS, workers: 2 },
        },
      }),
    );
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it("indexes every file into the database, refusing the hostile one with its file and bound", async () => {
    const run = await runCliProcess(["index", bot], env());
    expect(run.exitCode, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split("\n");
    // 14 handbook pages + quokka.md indexed; the hostile page refused at its per-file bound.
    expect(lines[0]).toMatch(
      /^handbook: 16 files · 15 added, 0 updated, 0 removed, 0 unchanged, 1 skipped · \d+ ms$/,
    );
    expect(lines[1]).toMatch(
      new RegExp(
        `^ {2}skipped ${HOSTILE}: parsing (took longer than the (4 s|20 s wall-clock)|needed more than the \\d+ MB memory) limit per file( \\(.*\\))?$`,
      ),
    );
    // Then the line saying this bot's corrective pass is off, with the key that turns it on.
    expect(lines[2]).toMatch(/^bot handbook-pg: correctiveRetrieval is off \(the default\)/);
    expect(lines).toHaveLength(3);
    // The log line names the file and the bound too.
    expect(run.stderr).toContain(`skipped ${HOSTILE}: parsing`);
    expect(await storeInvariants(server.url, "cli_test")).toEqual([]);
  }, 120_000);

  it("searches the database with the same response as the embedded engine, as JSON", async () => {
    const query = "how many weeks of parental leave";
    const run = await runCliProcess(["search", bot, query, "--json"], env());
    expect(run.exitCode, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.response.results[0].id).toBe("docs/time-off/parental-leave.md");
    // The same files indexed by the embedded engine (hostile page aside) answer identically.
    const embedded = join(root, "embedded");
    await cp(join(bot, "docs"), join(embedded, "docs"), {
      recursive: true,
      filter: (source) => !source.includes("hostile"),
    });
    const { engine } = await openEmbeddedEngine(embedded, { handbook: { paths: ["docs/**/*.md"] } });
    expect(result.response).toEqual(await engine.search({ query }));
    // A search never indexes a postgres bot: that is `second-look index`'s job.
    expect(run.stderr).not.toContain("skipped");
  }, 60_000);

  it("has nothing to do on a re-run, refuses the hostile file again without parsing it, then deletes a removed file", async () => {
    const again = await runCliProcess(["index", bot, "--json"], env());
    expect(again.exitCode, again.stderr).toBe(0);
    const [report] = JSON.parse(again.stdout).collections;
    expect(report).toMatchObject({ files: 16, added: 0, updated: 0, removed: 0, unchanged: 15 });
    expect(report.skipped.map((s: { path: string }) => s.path)).toEqual([HOSTILE]);
    const refusal = report.skipped[0].reason;
    expect(refusal).toMatch(/limit per file( \(.*\))?$/);

    // Harmless bytes under the refused file's size and time: a run that parsed it would index it;
    // the refusal is remembered instead, as the embedded index remembers it.
    const hostile = join(bot, HOSTILE);
    const { size } = await stat(hostile);
    const benign = "# Fixed page\n\nThe zebrafish manual, rewritten.\n\n".padEnd(size, "lorem ipsum ");
    await writeFile(hostile, benign);
    await utimes(hostile, HOSTILE_MTIME, HOSTILE_MTIME);
    const remembered = await runCliProcess(["index", bot, "--json"], env());
    expect(remembered.exitCode, remembered.stderr).toBe(0);
    const [kept] = JSON.parse(remembered.stdout).collections;
    expect(kept).toMatchObject({ added: 0, unchanged: 15, skipped: [{ path: HOSTILE, reason: refusal }] });

    // Once it changes (its time moved), it is parsed again: now indexed, no longer refused.
    await utimes(hostile, HOSTILE_MTIME + 60, HOSTILE_MTIME + 60);
    const fixed = await runCliProcess(["index", bot, "--json"], env());
    expect(fixed.exitCode, fixed.stderr).toBe(0);
    expect(JSON.parse(fixed.stdout).collections[0]).toMatchObject({ added: 1, unchanged: 15, skipped: [] });

    await unlink(join(bot, "docs", "quokka.md"));
    const removed = await runCliProcess(["index", bot], env());
    expect(removed.exitCode, removed.stderr).toBe(0);
    expect(removed.stdout).toMatch(
      /^handbook: 15 files · 0 added, 0 updated, 1 removed, 15 unchanged · \d+ ms\nbot handbook-pg: correctiveRetrieval is off [^\n]+\n$/,
    );
    const search = await runCliProcess(
      ["search", bot, "quokka hotline zebrafish", "--json", "--no-correct"],
      env(),
    );
    expect(search.exitCode, search.stderr).toBe(0);
    const ids = JSON.parse(search.stdout).response.results.map((h: { id: string }) => h.id);
    expect(ids).not.toContain("docs/quokka.md");
    expect(ids[0]).toBe(HOSTILE);
    expect(await storeInvariants(server.url, "cli_test")).toEqual([]);
  }, 180_000);

  it("prints one line naming the bot, the host and the variable, exits non-zero, and never the password", async () => {
    const down = { [URL_ENV]: `postgresql://alice:hunter2@127.0.0.1:${server.port + 1}/handbook` };
    const expected = new RegExp(
      `^second-look (index|search): bot handbook-pg: PostgreSQL at 127\\.0\\.0\\.1:${server.port + 1}/handbook is unreachable \\(ECONNREFUSED\\); check that the server runs and that ${URL_ENV} names the right host and port$`,
    );
    for (const args of [
      ["index", bot],
      ["search", bot, "parental leave", "--json"],
    ]) {
      const run = await runCliProcess(args, down);
      expect(run.exitCode, args.join(" ")).not.toBe(0);
      expect(run.stdout).toBe("");
      const lines = run.stderr.trimEnd().split("\n");
      expect(
        lines.filter((l) => expected.test(l)),
        run.stderr,
      ).toHaveLength(1);
      expect(run.stderr).not.toContain("hunter2");
      expect(run.stderr).not.toContain("alice");
      expect(run.stderr).not.toMatch(/\n\s+at /); // no stack
    }
    const unset = await runCliProcess(["search", bot, "parental leave"], { [URL_ENV]: "" });
    expect(unset.exitCode).not.toBe(0);
    expect(unset.stderr).toContain(
      `second-look search: bot handbook-pg: knowledge.postgres.urlEnv names ${URL_ENV}, which is not set`,
    );
  }, 120_000);
});
