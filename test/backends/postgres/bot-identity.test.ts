// Two bots whose folders share a name (`a/kb`, `b/kb`) in one PostgreSQL database (issue 24,
// H1): the second one's index run must not delete the first one's documents, neither may read
// the other's, and each keeps its own calibration row — also in a database indexed by the
// previous schema version (4) before the bot folder was recorded.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BotFolderConflictError } from "../../../src/backends/postgres/pg-bot-folder.js";
import { migrate, SCHEMA_VERSION } from "../../../src/backends/postgres/pg-schema.js";
import type { PostgresBackend } from "../../../src/backends/postgres/postgres-backend.js";
import { KnowledgeSchema } from "../../../src/bots/config-schema.js";
import { openBotBackend } from "../../../src/connectors/open-bot-backend.js";
import { runCliProcess } from "../../support/cli-process.js";
import {
  type PostgresServer,
  postgresUnavailableReason,
  startPostgres,
} from "../../support/postgres/postgres-server.js";
import { storeInvariants } from "../../support/postgres/store-invariants.js";

const skipReason = postgresUnavailableReason();
if (skipReason) console.warn(`[skipped] PostgreSQL bot identity tests: ${skipReason}`);

const A_DOCUMENTS = 14;
const CALIBRATION = (bias: number) => ({
  version: 1 as const,
  model: { features: ["normalizedScore" as const], weights: [1], bias },
});

/** The same config.json in both folders, as in the reproduction. */
function knowledge(schema: string, botId?: string) {
  return KnowledgeSchema.parse({
    backend: "postgres",
    postgres: { urlEnv: "TEST_DATABASE_URL", schema, ...(botId ? { botId } : {}) },
    collections: { docs: { paths: ["docs/**/*.md"] } },
  });
}

async function writeBot(dir: string, files: Record<string, string>): Promise<void> {
  await mkdir(join(dir, "docs"), { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, "docs", name), text);
}

const aFiles = Object.fromEntries(
  Array.from({ length: A_DOCUMENTS }, (_, i) => [
    `a-${i}.md`,
    `# Alpha policy ${i}\n\nThe alpha team's rule number ${i} about quokka migration.\n`,
  ]),
);
const bFiles = { "b-only.md": "# Bravo secret\n\nThe bravo team's zanzibar acquisition plan.\n" };

describe.skipIf(skipReason !== undefined)(
  "two bots with the same folder name in one PostgreSQL database",
  () => {
    let server: PostgresServer;
    let root: string;
    const env = () => ({ TEST_DATABASE_URL: server.url });
    const open = (dir: string, schema: string, options: { index?: boolean; botId?: string } = {}) =>
      openBotBackend(
        { dir, config: { knowledge: knowledge(schema, options.botId) } },
        { env: env(), ...(options.index ? { index: true } : {}) },
      );
    /** Document ids a search over everything returns. */
    const ids = async (backend: PostgresBackend, query: string) =>
      (await backend.search({ query, limit: 50 })).results.map((hit) => hit.id);
    const documentCount = async (schema: string, bot: string) => {
      const client = new pg.Client(server.url);
      await client.connect();
      try {
        const rows = await client.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM ${schema}.documents d JOIN ${schema}.collections c ON c.id = d.collection_id WHERE c.bot = $1`,
          [bot],
        );
        return rows.rows[0]!.n;
      } finally {
        await client.end();
      }
    };

    beforeAll(async () => {
      server = await startPostgres();
      root = await mkdtemp(join(tmpdir(), "second-look-pg-identity-"));
      await writeBot(join(root, "a", "kb"), aFiles);
      await writeBot(join(root, "b", "kb"), bFiles);
    }, 120_000);

    afterAll(async () => {
      await server?.stop();
      if (root) await rm(root, { recursive: true, force: true });
    });

    it("refuses the second folder's index run in one line, keeps the first one's documents, and each bot sees only its own", async () => {
      const a = join(root, "a", "kb");
      const b = join(root, "b", "kb");
      const first = await open(a, "fresh", { index: true });
      expect(first.reports[0]).toMatchObject({ added: A_DOCUMENTS, removed: 0 });
      await first.close();

      const refused = await open(b, "fresh", { index: true }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(BotFolderConflictError);
      const message = (refused as Error).message;
      expect(message).not.toContain("\n");
      expect(message).toContain(`would delete ${A_DOCUMENTS} of its ${A_DOCUMENTS} documents`);
      expect(message).toContain("knowledge.postgres.botId");
      expect(await documentCount("fresh", "kb")).toBe(A_DOCUMENTS);

      // B's searches do not reach A's documents either.
      const bReads = await open(b, "fresh");
      await expect(bReads.backend.search({ query: "quokka migration" })).rejects.toThrow(
        BotFolderConflictError,
      );
      await expect((bReads.backend as PostgresBackend).getDocument("docs", "docs/a-0.md")).rejects.toThrow(
        BotFolderConflictError,
      );
      await bReads.close();

      // The fix the line names: B gets its own botId; then both keep and see only their own.
      const bOwn = await open(b, "fresh", { index: true, botId: "kb-bravo" });
      expect(bOwn.reports[0]).toMatchObject({ added: 1, removed: 0 });
      const aAgain = await open(a, "fresh", { index: true });
      expect(aAgain.reports[0]).toMatchObject({ added: 0, removed: 0, unchanged: A_DOCUMENTS });
      const aBackend = aAgain.backend as PostgresBackend;
      const bBackend = bOwn.backend as PostgresBackend;
      expect(await ids(bBackend, "zanzibar acquisition")).toEqual(["docs/b-only.md"]);
      expect(await ids(bBackend, "quokka migration")).toEqual([]);
      expect(await ids(aBackend, "zanzibar acquisition")).toEqual([]);
      expect((await ids(aBackend, "quokka migration")).length).toBe(A_DOCUMENTS);

      // Calibration rows are keyed the same way: each bot reads the one it stored.
      await aBackend.storeCalibration(CALIBRATION(-1));
      await bBackend.storeCalibration(CALIBRATION(2));
      expect((await aBackend.storedCalibration())?.bias).toBe(-1);
      expect((await bBackend.storedCalibration())?.bias).toBe(2);
      expect(await storeInvariants(server.url, "fresh")).toEqual([]);
      await aAgain.close();
      await bOwn.close();
    }, 120_000);

    it("the issue's reproduction with the command: `index a/kb` then `index b/kb` refuses in one line, and `search a/kb` finds only A's", async () => {
      const config = (dir: string) =>
        writeFile(
          join(dir, "config.json"),
          JSON.stringify({
            knowledge: {
              backend: "postgres",
              postgres: { urlEnv: "TEST_DATABASE_URL", schema: "cli" },
              collections: { docs: { paths: ["docs/**/*.md"] } },
            },
          }),
        );
      const a = join(root, "a", "kb");
      const b = join(root, "b", "kb");
      await config(a);
      await config(b);
      try {
        const first = await runCliProcess(["index", a, "--json"], env());
        expect(first.exitCode, first.stderr).toBe(0);
        expect(JSON.parse(first.stdout).collections[0]).toMatchObject({ added: A_DOCUMENTS });
        const second = await runCliProcess(["index", b], env());
        expect(second.exitCode).toBe(1);
        const lines = second.stderr
          .trim()
          .split("\n")
          .filter((line) => line.startsWith("second-look index:"));
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatch(
          /was indexed from .*a\/kb, not .*b\/kb; indexing would delete 14 of its 14 documents: refused — give each bot its own knowledge\.postgres\.botId/,
        );
        const search = await runCliProcess(["search", a, "zanzibar acquisition quokka", "--json"], env());
        expect(search.exitCode, search.stderr).toBe(0);
        const ids = JSON.parse(search.stdout).response.results.map((hit: { id: string }) => hit.id);
        expect(ids.length).toBeGreaterThan(0);
        expect(ids).not.toContain("docs/b-only.md");
      } finally {
        await rm(join(a, "config.json"));
        await rm(join(b, "config.json"));
      }
    }, 120_000);

    it("after a migration from schema version 4 with both bots already indexed, neither loses or sees the other's documents", async () => {
      const a = join(root, "a", "kb");
      const b = join(root, "b", "kb");
      // Today's schema (4), as the previous second-look left it: A indexed under "kb", and bot
      // "kb-bravo" (a folder of another name then) indexed beside it, with a calibration each.
      const stage = await open(a, "stage", { index: true });
      await (stage.backend as PostgresBackend).storeCalibration(CALIBRATION(-1));
      await stage.close();
      const stageB = await open(b, "stage", { index: true, botId: "kb-bravo" });
      await (stageB.backend as PostgresBackend).storeCalibration(CALIBRATION(2));
      await stageB.close();
      const client = new pg.Client(server.url);
      await client.connect();
      try {
        await copyIntoVersion4(client, "stage", "legacy");
        const version = await client.query("SELECT value FROM legacy.meta WHERE key = 'version'");
        expect(version.rows[0].value).toBe("4");

        // B's folder under the name-derived key would delete A's 14 rows, which have no folder yet.
        const refused = await open(b, "legacy", { index: true }).then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(refused).toBeInstanceOf(BotFolderConflictError);
        expect((refused as Error).message).toMatch(/holds 14 documents .* that .* does not have/);
        const migrated = await client.query("SELECT value FROM legacy.meta WHERE key = 'version'");
        expect(migrated.rows[0].value).toBe(String(SCHEMA_VERSION));
        expect(await documentCount("legacy", "kb")).toBe(A_DOCUMENTS);

        // A claims its rows without re-indexing them; B under its botId keeps its own.
        const aOpened = await open(a, "legacy", { index: true });
        expect(aOpened.reports[0]).toMatchObject({
          added: 0,
          updated: 0,
          removed: 0,
          unchanged: A_DOCUMENTS,
        });
        const bOpened = await open(b, "legacy", { index: true, botId: "kb-bravo" });
        expect(bOpened.reports[0]).toMatchObject({ added: 0, removed: 0, unchanged: 1 });
        const aBackend = aOpened.backend as PostgresBackend;
        const bBackend = bOpened.backend as PostgresBackend;
        expect(await ids(aBackend, "zanzibar acquisition")).toEqual([]);
        expect((await ids(aBackend, "quokka migration")).length).toBe(A_DOCUMENTS);
        expect(await ids(bBackend, "zanzibar acquisition")).toEqual(["docs/b-only.md"]);
        expect(await ids(bBackend, "quokka migration")).toEqual([]);
        expect((await aBackend.storedCalibration())?.bias).toBe(-1);
        expect((await bBackend.storedCalibration())?.bias).toBe(2);
        // Now that A's folder is recorded, B's folder under "kb" is refused for searches too.
        const bUnder = await open(b, "legacy");
        await expect(bUnder.backend.search({ query: "quokka" })).rejects.toThrow(/was indexed from .*a\/kb/);
        await bUnder.close();
        expect(await storeInvariants(server.url, "legacy")).toEqual([]);
        await aOpened.close();
        await bOpened.close();
      } finally {
        await client.end();
      }
    }, 120_000);
  },
);

/** The rows of schema `from` in a new schema `to` at version 4 (no bot folder column). */
async function copyIntoVersion4(client: pg.Client, from: string, to: string): Promise<void> {
  await migrate(client as unknown as pg.PoolClient, to, 4);
  const columns: Record<string, string> = {
    collections: "id, bot, name, unit_count, title_length_sum, body_length_sum, analyzer",
    documents: "id, collection_id, path, title, url, modified_time, size, mtime_ms, content_hash",
    sections:
      "id, document_id, collection_id, ord, heading_path, heading, level, content, page_start, page_end, title_length, body_length, title_terms, body_terms",
    terms: "collection_id, term, df",
    postings: "collection_id, term, impact, section_id, title_tf, body_tf, title_length, body_length",
    calibrations: "bot, calibration, stored_at",
    skipped_files: "collection_id, path, size, mtime_ms, reason, bounds",
  };
  for (const [table, list] of Object.entries(columns)) {
    await client.query(`INSERT INTO ${to}.${table} (${list}) SELECT ${list} FROM ${from}.${table}`);
  }
  for (const table of ["collections", "documents", "sections"]) {
    await client.query(
      `SELECT setval('${to}.${table}_id_seq', (SELECT coalesce(max(id), 1) FROM ${to}.${table}))`,
    );
  }
}
