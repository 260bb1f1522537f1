import { cp, mkdtemp, readFile, rm, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UnknownCollectionError } from "../../../src/backends/embedded/embedded-engine.js";
import { openEmbeddedEngine } from "../../../src/backends/embedded/open-embedded.js";
import { PostgresUnavailableError } from "../../../src/backends/postgres/pg-connection.js";
import { PostgresBackend } from "../../../src/backends/postgres/postgres-backend.js";
import {
  type PostgresServer,
  postgresUnavailableReason,
  startPostgres,
} from "../../support/postgres/postgres-server.js";
import { storeInvariants } from "../../support/postgres/store-invariants.js";

const skipReason = postgresUnavailableReason();
if (skipReason) console.warn(`[skipped] PostgreSQL backend tests: ${skipReason}`);

const HANDBOOK = join(import.meta.dirname, "../../../bots/handbook");
const QUESTIONS = join(import.meta.dirname, "../../fixtures/handbook/questions.json");
const COLLECTIONS = { handbook: { paths: ["docs/**/*.md"] } };

describe.skipIf(skipReason !== undefined)("PostgreSQL backend against a real PostgreSQL 15", () => {
  let server: PostgresServer;
  let botDir: string;
  let otherDir: string;
  const env = () => ({ TEST_DATABASE_URL: server.url });
  const open = (
    bot: string,
    collections: Record<string, { paths: string[] }> = COLLECTIONS,
    schema = "second_look",
  ) => PostgresBackend.open({ bot, urlEnv: "TEST_DATABASE_URL", schema, collections, env: env() });

  beforeAll(async () => {
    server = await startPostgres();
    const root = await mkdtemp(join(tmpdir(), "second-look-pg-bots-"));
    botDir = join(root, "handbook");
    otherDir = join(root, "other");
    // A local index cache (bots/handbook/.second-look from a manual search) is not part of the bot.
    await cp(HANDBOOK, botDir, { recursive: true, filter: (source) => !source.includes(".second-look") });
    await cp(join(HANDBOOK, "docs/money"), join(otherDir, "docs/money"), { recursive: true });
    await writeFile(
      join(otherDir, "docs/secret.md"),
      "# Secret merger plans\n\nThe zanzibar acquisition closes in May.\n",
    );
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    if (botDir) await rm(join(botDir, ".."), { recursive: true, force: true });
  });

  // The first refresh parses in parser threads, which start in seconds under tsx on a loaded machine.
  it("returns the same SearchResponse as the embedded engine, question for question", async () => {
    const backend = await open("handbook");
    try {
      const [report] = await backend.refresh(botDir);
      expect(report).toMatchObject({ collection: "handbook", removed: 0, skipped: [] });
      expect(report!.added).toBe(report!.files);
      const { engine } = await openEmbeddedEngine(botDir, COLLECTIONS);
      const questions = JSON.parse(await readFile(QUESTIONS, "utf8")) as { q: string }[];
      const requests = [
        ...questions.map((q) => ({ query: q.q })),
        ...questions.slice(0, 5).map((q) => ({ query: q.q, brief: true, limit: 3 })),
        { query: "zanzibar acquisition" },
        { query: "" },
        { query: "the of and" },
        { query: "leave", collections: ["handbook"], rerank: false, minRelevance: 0.3 },
      ];
      for (const request of requests) {
        expect(await backend.search(request), JSON.stringify(request)).toEqual(await engine.search(request));
      }
      const doc = await engine.getDocument("handbook", "docs/time-off/annual-leave.md");
      expect(doc).toBeDefined();
      expect(await backend.getDocument("handbook", "docs/time-off/annual-leave.md")).toEqual(doc);
      expect(await backend.getDocument("handbook", "docs/nope.md")).toBeUndefined();
      await expect(backend.search({ query: "leave", collections: ["other"] })).rejects.toThrow(
        UnknownCollectionError,
      );
    } finally {
      await backend.close();
    }
  }, 60_000);

  it("refreshes incrementally: unchanged files untouched, changed rewritten, removed deleted", async () => {
    const backend = await open("handbook");
    try {
      const [first] = await backend.refresh(botDir);
      expect(first).toMatchObject({ added: 0, updated: 0, removed: 0, written: false });
      expect(first!.unchanged).toBe(first!.files);

      const changed = join(botDir, "docs/time-off/sick-leave.md");
      await writeFile(changed, "# Sick leave\n\nCall the quokka hotline before nine.\n");
      await unlink(join(botDir, "docs/money/expenses.md"));
      const [second] = await backend.refresh(botDir);
      expect(second).toMatchObject({ added: 0, updated: 1, removed: 1, written: true });

      const hit = await backend.search({ query: "quokka hotline" });
      expect(hit.results[0]?.id).toBe("docs/time-off/sick-leave.md");
      expect((await backend.search({ query: "quokka", rerank: false })).results).toHaveLength(1);
      expect(await backend.getDocument("handbook", "docs/money/expenses.md")).toBeUndefined();
      const { engine } = await openEmbeddedEngine(botDir, COLLECTIONS);
      for (const query of ["how do I claim expenses", "sick leave doctor's note", "quokka"]) {
        expect(await backend.search({ query })).toEqual(await engine.search({ query }));
      }
      expect(await storeInvariants(server.url, "second_look")).toEqual([]);
    } finally {
      await backend.close();
    }
  });

  it("never shows one bot another bot's collections in a shared database", async () => {
    // Same collection name, different bots: their rows are apart.
    const other = await open("other", { handbook: { paths: ["docs/**/*.md"] } });
    const handbook = await open("handbook");
    try {
      await other.refresh(otherDir);
      expect((await other.search({ query: "zanzibar acquisition" })).results[0]?.id).toBe("docs/secret.md");
      const seen = await handbook.search({ query: "zanzibar acquisition merger plans", limit: 100 });
      expect(seen.results.map((h) => h.id)).not.toContain("docs/secret.md");
      expect(await handbook.getDocument("handbook", "docs/secret.md")).toBeUndefined();
      // The other bot's statistics do not leak into this bot's scores either.
      const { engine } = await openEmbeddedEngine(botDir, COLLECTIONS);
      expect(await handbook.search({ query: "business travel" })).toEqual(
        await engine.search({ query: "business travel" }),
      );
    } finally {
      await other.close();
      await handbook.close();
    }
  });

  it("refuses a collection that was never indexed, with the command that fixes it", async () => {
    const backend = await open("handbook", { fresh: { paths: ["docs/**/*.md"] } });
    try {
      await expect(backend.search({ query: "leave" })).rejects.toThrow(
        /bot handbook: collection fresh is not indexed in PostgreSQL at 127\.0\.0\.1:\d+\/postgres; run second-look index handbook/,
      );
    } finally {
      await backend.close();
    }
  });

  it("keeps every file exactly once when two index runs race", async () => {
    const dir = await mkdtemp(join(tmpdir(), "second-look-pg-race-"));
    try {
      await cp(join(HANDBOOK, "docs"), join(dir, "docs"), { recursive: true });
      const a = await open("race", COLLECTIONS, "race");
      const b = await open("race", COLLECTIONS, "race");
      try {
        const [ra, rb] = await Promise.all([a.refresh(dir), b.refresh(dir)]);
        // One run indexed everything; the one that waited found nothing to do.
        expect(ra![0]!.added + rb![0]!.added).toBe(ra![0]!.files);
        expect(await storeInvariants(server.url, "race")).toEqual([]);
        const { engine } = await openEmbeddedEngine(dir, COLLECTIONS);
        expect(await a.search({ query: "parental leave" })).toEqual(
          await engine.search({ query: "parental leave" }),
        );
      } finally {
        await a.close();
        await b.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("fails with one line naming the bot, the server and what to check when the database is down", async () => {
    const down = `postgresql://alice:hunter2@127.0.0.1:${server.port + 1}/db`;
    const error = await PostgresBackend.open({
      bot: "handbook",
      urlEnv: "DOWN_URL",
      schema: "second_look",
      collections: COLLECTIONS,
      env: { DOWN_URL: down },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PostgresUnavailableError);
    const message = (error as Error).message;
    expect(message).toMatch(
      /^bot handbook: PostgreSQL at 127\.0\.0\.1:\d+\/db is unreachable \(ECONNREFUSED\); check that the server runs and that DOWN_URL names the right host and port$/,
    );
    expect(message).not.toContain("hunter2");
    expect(message).not.toContain("alice");

    const unset = await PostgresBackend.open({
      bot: "handbook",
      urlEnv: "NOT_SET_URL",
      schema: "second_look",
      collections: COLLECTIONS,
      env: {},
    }).catch((e: unknown) => e);
    expect((unset as Error).message).toBe(
      "bot handbook: knowledge.postgres.urlEnv names NOT_SET_URL, which is not set; set it to a connection string such as postgresql://user@host:5432/db",
    );
  });

  it("turns a statement that outlives the server's patience into an explained error, and the pool recovers", async () => {
    const backend = await open("handbook");
    const admin = new pg.Client(server.url);
    await admin.connect();
    try {
      // Hold a lock the search's statements need, past a short statement timeout for this role.
      await admin.query("ALTER ROLE postgres SET statement_timeout = '300ms'");
      const slow = await open("handbook");
      await admin.query("BEGIN");
      await admin.query("LOCK TABLE second_look.collections IN ACCESS EXCLUSIVE MODE");
      try {
        const error = await slow.search({ query: "leave" }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(PostgresUnavailableError);
        expect((error as Error).message).toMatch(
          /^bot handbook: PostgreSQL at 127\.0\.0\.1:\d+\/postgres did not answer within/,
        );
      } finally {
        await admin.query("ROLLBACK");
        await slow.close();
      }
      await admin.query("ALTER ROLE postgres RESET statement_timeout");
      expect((await backend.search({ query: "leave" })).results.length).toBeGreaterThan(0);
    } finally {
      await admin.query("ALTER ROLE postgres RESET statement_timeout").catch(() => {});
      await admin.end();
      await backend.close();
    }
    // The search waits on the lock up to the connection's own statement_timeout
    // (DEADLINES.postgresStatementMs, 10 s), on any machine.
  }, 60_000);
});
