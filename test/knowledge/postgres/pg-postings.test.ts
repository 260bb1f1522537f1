import { cp, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KnowledgeEngine } from "../../../src/knowledge/engine.js";
import { analyzeDocument } from "../../../src/knowledge/index/collection-index.js";
import { openEmbeddedEngine } from "../../../src/knowledge/open-embedded.js";
import { postingDepths } from "../../../src/knowledge/postgres/pg-postings.js";
import { migrate, SCHEMA_VERSION, tablesIn } from "../../../src/knowledge/postgres/pg-schema.js";
import { ensureCollection, replaceDocuments } from "../../../src/knowledge/postgres/pg-writer.js";
import { POSTINGS_BUDGET, PostgresBackend } from "../../../src/knowledge/postgres/postgres-backend.js";
import {
  type PostgresServer,
  postgresUnavailableReason,
  startPostgres,
} from "../../support/postgres/postgres-server.js";
import { storeInvariants } from "../../support/postgres/store-invariants.js";

describe("postingDepths", () => {
  it("reads every posting when the query's postings fit the budget", () => {
    const dfs = new Map([
      ["rare", 3],
      ["common", 40],
      ["unknown", 0],
    ]);
    expect(postingDepths(dfs, 100)).toEqual(
      new Map([
        ["rare", 3],
        ["common", 40],
      ]),
    );
  });

  it("reads rare terms whole and gives what they leave to the common ones, within the budget", () => {
    const dfs = new Map([
      ["a", 10],
      ["b", 5_000],
      ["c", 9_000],
      ["d", 90],
    ]);
    const depths = postingDepths(dfs, 1_000);
    expect(depths.get("a")).toBe(10);
    expect(depths.get("d")).toBe(90);
    // The 900 left are shared by the two common terms.
    expect(depths.get("b")).toBe(450);
    expect(depths.get("c")).toBe(450);
    expect([...depths.values()].reduce((n, d) => n + d, 0)).toBeLessThanOrEqual(1_000);
  });
});

const skipReason = postgresUnavailableReason();
if (skipReason) console.warn(`[skipped] PostgreSQL postings tests: ${skipReason}`);

const HANDBOOK = join(import.meta.dirname, "../../../bots/handbook");
const QUESTIONS = join(import.meta.dirname, "../../fixtures/handbook/questions.json");
const COLLECTIONS = { handbook: { paths: ["docs/**/*.md"] } };

describe.skipIf(skipReason !== undefined)("impact-ordered postings in a real PostgreSQL 15", () => {
  let server: PostgresServer;
  let root: string;
  const env = () => ({ TEST_DATABASE_URL: server.url });
  const open = (
    bot: string,
    schema: string,
    collections: Record<string, { paths: string[] }> = COLLECTIONS,
  ) => PostgresBackend.open({ bot, urlEnv: "TEST_DATABASE_URL", schema, collections, env: env() });

  beforeAll(async () => {
    server = await startPostgres();
    root = await mkdtemp(join(tmpdir(), "second-look-pg-postings-"));
    await cp(HANDBOOK, join(root, "handbook"), {
      recursive: true,
      filter: (source) => !source.includes(".second-look"),
    });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it("migrates a version 1 database: postings built from its sections, answers unchanged", async () => {
    const botDir = join(root, "handbook");
    // A database indexed by this version, then the same rows in a schema at version 1 (no
    // postings, no stored terms, the GIN index), as an older second-look would have left it.
    const current = await open("handbook", "current");
    await current.refresh(botDir);
    const client = new pg.Client(server.url);
    await client.connect();
    try {
      await migrate(client as unknown as pg.PoolClient, "old", 1);
      for (const [table, columns] of [
        ["collections", "id, bot, name, unit_count, title_length_sum, body_length_sum, analyzer"],
        ["documents", "id, collection_id, path, title, url, modified_time, size, mtime_ms, content_hash"],
        [
          "sections",
          "id, document_id, collection_id, ord, heading_path, heading, level, content, page_start, page_end, title_length, body_length, tsv",
        ],
        ["terms", "collection_id, term, df"],
      ] as const) {
        await client.query(`INSERT INTO old.${table} (${columns}) SELECT ${columns} FROM current.${table}`);
      }
      await client.query("SELECT setval('old.sections_id_seq', (SELECT max(id) FROM old.sections))");
      await client.query("SELECT setval('old.documents_id_seq', (SELECT max(id) FROM old.documents))");
      const before = await client.query("SELECT value FROM old.meta WHERE key = 'version'");
      expect(before.rows[0].value).toBe("1");

      const migrated = await open("handbook", "old");
      try {
        const after = await client.query("SELECT value FROM old.meta WHERE key = 'version'");
        expect(after.rows[0].value).toBe(String(SCHEMA_VERSION));
        const counts = await client.query(
          "SELECT (SELECT count(*) FROM old.postings) AS old, (SELECT count(*) FROM current.postings) AS current",
        );
        expect(Number(counts.rows[0].old)).toBeGreaterThan(0);
        expect(counts.rows[0].old).toBe(counts.rows[0].current);
        expect(await storeInvariants(server.url, "old")).toEqual([]);

        // Rows migrated without stored terms are analysed when read: the same answers as the
        // embedded engine and the database written by this version.
        const { engine } = await openEmbeddedEngine(botDir, COLLECTIONS);
        const questions = JSON.parse(await readFile(QUESTIONS, "utf8")) as { q: string }[];
        for (const q of questions.slice(0, 12)) {
          const expected = await engine.search({ query: q.q });
          expect(await migrated.search({ query: q.q }), q.q).toEqual(expected);
          expect(await current.search({ query: q.q }), q.q).toEqual(expected);
        }
        // The migrated database keeps indexing: a refresh finds nothing to do and leaves it sound.
        const [report] = await migrated.refresh(botDir);
        expect(report).toMatchObject({ added: 0, updated: 0, removed: 0 });
        expect(await storeInvariants(server.url, "old")).toEqual([]);
      } finally {
        await migrated.close();
      }
    } finally {
      await client.end();
      await current.close();
    }
  }, 120_000);

  it("reads a common term's strongest postings when they exceed the budget, ranking as the embedded engine does", async () => {
    // More sections than the budget all hold "harbour"; a few hold it often in a short text.
    const documents = Array.from({ length: POSTINGS_BUDGET + 2_000 }, (_, i) => ({
      id: `notes/${String(i).padStart(6, "0")}.md`,
      title: `Note ${i}`,
      sections: [
        {
          headingPath: [`Note ${i}`],
          content:
            i % 997 === 0
              ? "Harbour harbour harbour: the harbour pilot."
              : `A long note about item ${i}, with many words of filler text, mentioning the harbour once.`,
        },
      ],
    }));
    const backend = await open("notes", "budget", { notes: { paths: ["notes/*.md"] } });
    const client = new pg.Client(server.url);
    await client.connect();
    try {
      const t = tablesIn("budget");
      const writer = client as unknown as pg.PoolClient;
      const { id } = await ensureCollection(writer, t, "notes", "notes");
      const analysed = documents.map(analyzeDocument);
      for (let i = 0; i < analysed.length; i += 2_000) {
        await replaceDocuments(
          writer,
          t,
          id,
          analysed.slice(i, i + 2_000).map((document) => ({
            path: document.id,
            size: 1,
            mtimeMs: 1,
            contentHash: document.id,
            document,
          })),
        );
      }
      const df = await client.query("SELECT df FROM budget.terms WHERE term = 'harbour'");
      expect(Number(df.rows[0].df)).toBeGreaterThan(POSTINGS_BUDGET);

      const engine = KnowledgeEngine.fromDocuments({ notes: documents });
      for (const request of [
        { query: "harbour" },
        { query: "harbour", rerank: false },
        { query: "harbour pilot" },
      ]) {
        const expected = await engine.search(request);
        const got = await backend.search(request);
        expect(got.results.map((h) => h.id)).toEqual(expected.results.map((h) => h.id));
        expect(got).toEqual(expected);
      }
    } finally {
      await client.end();
      await backend.close();
    }
  }, 180_000);
});
