// `kill -9` in the middle of `second-look index` on a postgres bot: the run is a real process,
// killed once the database holds some but not all of its documents. What it committed stays
// whole (one transaction per file), nothing is stored twice, the statistics still equal what the
// sections say, and its advisory lock went with its connection: the next run (or the one that
// was waiting for the lock) finishes the work instead of waiting forever.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openEmbeddedEngine } from "../../../src/backends/embedded/open-embedded.js";
import { PostgresBackend } from "../../../src/backends/postgres/postgres-backend.js";
import { type CliProcessRun, runCliProcess, startCli } from "../../support/cli-process.js";
import {
  type PostgresServer,
  postgresUnavailableReason,
  startPostgres,
} from "../../support/postgres/postgres-server.js";
import { storeInvariants } from "../../support/postgres/store-invariants.js";

const skipReason = postgresUnavailableReason();
if (skipReason) console.warn(`[skipped] kill -9 during a postgres index run: ${skipReason}`);

const URL_ENV = "SL_TEST_DATABASE_URL";
/** Enough files that an index run is still going when the first of them are committed. */
const FILES = 800;
/** Documents committed before the kill: well past the first, well short of the last. */
const KILL_AFTER = 60;
const COLLECTIONS = { reports: { paths: ["docs/**/*.md"] } };
const TOPICS = ["invoice", "turbine", "glacier", "harbour", "ledger", "orchard", "quarry", "satellite"];
const WAITING = "waiting for another second-look index run on collection reports";

function report(i: number): string {
  const topic = TOPICS[i % TOPICS.length]!;
  const other = TOPICS[(i * 7 + 3) % TOPICS.length]!;
  return [
    `# Report ${i} on the ${topic}`,
    "",
    `## Overview`,
    "",
    `Item ${i} concerns the ${topic} and its ${other}. Code word k${i}x.`,
    "",
    `## Details`,
    "",
    `The ${other} team inspected the ${topic} ${i % 13} times this quarter; ${"findings were recorded. ".repeat(1 + (i % 5))}`,
    "",
  ].join("\n");
}

async function makeBot(root: string, name: string, schema: string): Promise<string> {
  const dir = join(root, name);
  for (let block = 0; block < FILES; block += 100) {
    const folder = join(dir, "docs", `block-${String(block / 100).padStart(2, "0")}`);
    await mkdir(folder, { recursive: true });
    await Promise.all(
      Array.from({ length: Math.min(100, FILES - block) }, (_, k) =>
        writeFile(join(folder, `report-${block + k}.md`), report(block + k)),
      ),
    );
  }
  await writeFile(
    join(dir, "config.json"),
    JSON.stringify({
      description: "Generated reports, indexed into PostgreSQL.",
      knowledge: { backend: "postgres", postgres: { urlEnv: URL_ENV, schema }, collections: COLLECTIONS },
    }),
  );
  return dir;
}

describe.skipIf(skipReason !== undefined)("kill -9 during second-look index on PostgreSQL", () => {
  let server: PostgresServer;
  let root: string;
  let admin: pg.Client;
  const env = () => ({ [URL_ENV]: server.url });

  /** Documents of the schema's one collection: every stored path (with repeats, if any). */
  const storedPaths = async (schema: string): Promise<string[]> => {
    const rows = await admin
      .query<{ path: string }>(`SELECT path FROM "${schema}".documents ORDER BY path`)
      .catch((error: { code?: string }) => {
        if (error.code === "42P01") return { rows: [] }; // the run has not created the schema yet
        throw error;
      });
    return rows.rows.map((r) => r.path);
  };
  const documentCount = async (schema: string) => (await storedPaths(schema)).length;

  /** Polls until the schema holds at least `count` documents; fails if the run ends first. */
  const waitForDocuments = async (schema: string, count: number, run: Promise<CliProcessRun>) => {
    let ended: CliProcessRun | undefined;
    void run.then((r) => {
      ended = r;
    });
    const deadline = Date.now() + 120_000;
    for (;;) {
      const n = await documentCount(schema);
      if (n >= count) return n;
      if (ended) throw new Error(`the index run ended before ${count} documents: ${ended.stderr}`);
      if (Date.now() > deadline) throw new Error(`fewer than ${count} documents after 120 s`);
      await new Promise((done) => setTimeout(done, 20));
    }
  };

  const expectEveryFileOnce = async (schema: string) => {
    const paths = await storedPaths(schema);
    expect(paths).toHaveLength(FILES);
    expect(new Set(paths).size).toBe(FILES);
    expect(await storeInvariants(server.url, schema)).toEqual([]);
  };

  beforeAll(async () => {
    server = await startPostgres();
    admin = new pg.Client(server.url);
    await admin.connect();
    root = await mkdtemp(join(tmpdir(), "second-look-pg-kill-"));
  }, 120_000);

  afterAll(async () => {
    await admin?.end();
    await server?.stop();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it("keeps what a killed run committed, whole and once; the next run finishes it without waiting", async () => {
    const bot = await makeBot(root, "killed", "killed");
    const first = startCli(["index", bot, "--json"], env());
    await waitForDocuments("killed", KILL_AFTER, first.done);
    first.child.kill("SIGKILL");
    const killed = await first.done;
    expect(killed.signal).toBe("SIGKILL");

    const committed = await documentCount("killed");
    console.info(`killed run: ${committed} of ${FILES} documents committed`);
    expect(committed).toBeGreaterThanOrEqual(KILL_AFTER);
    expect(committed).toBeLessThan(FILES);
    expect(await storeInvariants(server.url, "killed")).toEqual([]);

    const second = await runCliProcess(["index", bot, "--json"], env());
    expect(second.exitCode, second.stderr).toBe(0);
    // The killed run's session lock went with its connection: nobody waited for it.
    expect(second.stderr).not.toContain(WAITING);
    const [again] = JSON.parse(second.stdout).collections;
    expect(again).toMatchObject({ files: FILES, added: FILES - committed, unchanged: committed, removed: 0 });
    await expectEveryFileOnce("killed");

    // And the database answers as the embedded engine does over the same files.
    const backend = await PostgresBackend.open({
      bot: "killed",
      urlEnv: URL_ENV,
      schema: "killed",
      collections: COLLECTIONS,
      env: env(),
    });
    try {
      const { engine } = await openEmbeddedEngine(bot, COLLECTIONS);
      for (const query of ["glacier turbine inspection", "code word k1234x", "report 7 on the ledger"]) {
        expect(await backend.search({ query }), query).toEqual(await engine.search({ query }));
      }
    } finally {
      await backend.close();
    }
  }, 300_000);

  it("lets the run waiting on the lock take over when the run holding it is killed", async () => {
    const bot = await makeBot(root, "waiting", "waiting");
    const holder = startCli(["index", bot, "--json"], env());
    await waitForDocuments("waiting", KILL_AFTER, holder.done);

    const waiter = startCli(["index", bot, "--json"], env());
    let waiterLog = "";
    waiter.child.stderr!.on("data", (chunk) => {
      waiterLog += String(chunk);
    });
    const deadline = Date.now() + 60_000;
    while (!waiterLog.includes(WAITING)) {
      if (Date.now() > deadline) throw new Error(`the second run never waited for the lock: ${waiterLog}`);
      await new Promise((done) => setTimeout(done, 20));
    }
    holder.child.kill("SIGKILL");
    expect((await holder.done).signal).toBe("SIGKILL");

    const took = await waiter.done;
    expect(took.exitCode, took.stderr).toBe(0);
    const [report] = JSON.parse(took.stdout).collections;
    // The waiter read the stored files once it had the lock: what the killed run committed is
    // unchanged for it, and it added exactly the rest.
    const committed = report.unchanged;
    expect(committed).toBeGreaterThanOrEqual(KILL_AFTER);
    expect(committed).toBeLessThan(FILES);
    expect(report).toMatchObject({ files: FILES, added: FILES - committed, removed: 0, skipped: [] });
    await expectEveryFileOnce("waiting");
    console.info(
      `killed holder: ${committed} of ${FILES} committed; the waiter indexed the rest in ${took.ms} ms`,
    );
  }, 300_000);

  it("ends a run whose connection the server drops with one line, leaving what it committed sound", async () => {
    const bot = await makeBot(root, "dropped", "dropped");
    const run = startCli(["index", bot], env());
    await waitForDocuments("dropped", KILL_AFTER, run.done);
    // What an administrator's pg_terminate_backend, or a server restart, does to the run.
    await admin.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'second-look dropped'",
    );
    const ended = await run.done;
    expect(ended.exitCode).toBe(1);
    expect(ended.stdout).toBe("");
    const errorLines = ended.stderr.split("\n").filter((l) => l.startsWith("second-look index:"));
    expect(errorLines, ended.stderr).toHaveLength(1);
    expect(errorLines[0]).toMatch(
      /^second-look index: bot dropped: PostgreSQL at 127\.0\.0\.1:\d+\/postgres (is unreachable \(ECONNRESET\)|closed the connection|is shutting down)/,
    );
    expect(ended.stderr).not.toMatch(/\n\s+at /); // no stack
    console.info(`dropped run: ${errorLines[0]}`);
    expect(await storeInvariants(server.url, "dropped")).toEqual([]);

    const again = await runCliProcess(["index", bot, "--json"], env());
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).not.toContain(WAITING);
    await expectEveryFileOnce("dropped");
  }, 300_000);
});
