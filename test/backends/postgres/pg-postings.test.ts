import { cp, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KnowledgeEngine } from "../../../src/backends/embedded/embedded-engine.js";
import { openEmbeddedEngine } from "../../../src/backends/embedded/open-embedded.js";
import { pseudoFrequency, pseudoFrequencySql } from "../../../src/backends/postgres/pg-bm25f.js";
import { postingDepths } from "../../../src/backends/postgres/pg-postings.js";
import { POSTINGS_BUDGET } from "../../../src/backends/postgres/pg-reads.js";
import { migrate, SCHEMA_VERSION, tablesIn } from "../../../src/backends/postgres/pg-schema.js";
import { ensureCollection, replaceDocuments } from "../../../src/backends/postgres/pg-writer.js";
import { PostgresBackend } from "../../../src/backends/postgres/postgres-backend.js";
import { CollectionAnalysis } from "../../../src/knowledge/analysis/collection-analysis.js";
import { DEFAULT_BM25 } from "../../../src/knowledge/index/bm25.js";
import { type AnalyzedDocument, analyzeDocument } from "../../../src/knowledge/index/collection-index.js";
import {
  type PostgresServer,
  postgresUnavailableReason,
  startPostgres,
} from "../../support/postgres/postgres-server.js";
import { storeInvariants } from "../../support/postgres/store-invariants.js";
import { sectionTsvector } from "../../support/postgres/tsvector-literal.js";

/** The analysis id of a collection that names no language. */
const ENGLISH = CollectionAnalysis.of(undefined).id;

/** Table columns every schema version has; `sections` also had `tsv` up to version 3. */
const SHARED_COLUMNS = {
  collections: "id, bot, name, unit_count, title_length_sum, body_length_sum, analyzer",
  documents: "id, collection_id, path, title, url, modified_time, size, mtime_ms, content_hash",
  sections:
    "id, document_id, collection_id, ord, heading_path, heading, level, content, page_start, page_end, title_length, body_length",
  terms: "collection_id, term, df",
  postings: "collection_id, term, impact, section_id, title_tf, body_tf, title_length, body_length",
} as const;

/**
 * The rows of schema `current` (written by this version) in a new schema `target` built at an
 * older `version`, as an older second-look would have left them: sections with the tsvector it
 * wrote up to version 3, from version 3 on the stored terms and postings, from version 6 on the
 * document count.
 */
async function copyIntoOlderSchema(client: pg.Client, target: string, version: number): Promise<void> {
  await migrate(client as unknown as pg.PoolClient, target, version);
  const copy = (table: string, columns: string) =>
    client.query(`INSERT INTO ${target}.${table} (${columns}) SELECT ${columns} FROM current.${table}`);
  await copy("collections", SHARED_COLUMNS.collections);
  await copy("documents", SHARED_COLUMNS.documents);
  if (version >= 4) {
    // No tsv from version 4 on: the sections as stored, with their terms.
    await copy("sections", `${SHARED_COLUMNS.sections}, title_terms, body_terms`);
  } else {
    await copySectionsWithTsv(client, target, version);
  }
  await copy("terms", SHARED_COLUMNS.terms);
  if (version >= 3) await copy("postings", SHARED_COLUMNS.postings);
  // From version 6 the writer keeps the document count (its migration counted the documents).
  if (version >= 6) {
    await client.query(
      `UPDATE ${target}.collections c SET document_count = (SELECT count(*) FROM ${target}.documents d WHERE d.collection_id = c.id)`,
    );
  }
  await client.query(`SELECT setval('${target}.sections_id_seq', (SELECT max(id) FROM ${target}.sections))`);
  await client.query(
    `SELECT setval('${target}.documents_id_seq', (SELECT max(id) FROM ${target}.documents))`,
  );
}

/** The sections as a version before 4 stored them: with the tsvector it wrote, and from version 3 on the stored terms. */
async function copySectionsWithTsv(client: pg.Client, target: string, version: number): Promise<void> {
  const terms = await client.query<{ id: string; title_terms: string; body_terms: string }>(
    "SELECT id, title_terms, body_terms FROM current.sections",
  );
  const split = (stored: string) => (stored === "" ? [] : stored.split(" "));
  const storedTerms = version >= 3 ? ", title_terms, body_terms" : "";
  await client.query(
    `INSERT INTO ${target}.sections (${SHARED_COLUMNS.sections}, tsv${storedTerms})
     SELECT ${SHARED_COLUMNS.sections.replace(/(\w+)/g, "s.$1")}, u.tsv::tsvector${storedTerms.replace(/(\w+)/g, "s.$1")}
     FROM current.sections s JOIN unnest($1::bigint[], $2::text[]) AS u(id, tsv) ON u.id = s.id`,
    [
      terms.rows.map((r) => r.id),
      terms.rows.map((r) => sectionTsvector(split(r.title_terms), split(r.body_terms))),
    ],
  );
}

/** The Markdown files under `dir`, sorted. */
async function listMarkdown(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith(".md"))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

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
    collections: Record<string, { paths: string[]; language?: string }> = COLLECTIONS,
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
      await copyIntoOlderSchema(client, "old", 1);
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

  it("migrates a version 3 database to the current version: tsv and the postings' collection key dropped, answers and deletes unchanged", async () => {
    const botDir = join(root, "handbook-v3");
    await cp(join(root, "handbook"), botDir, { recursive: true });
    const current = await open("handbook", "current");
    await current.refresh(join(root, "handbook"));
    const client = new pg.Client(server.url);
    await client.connect();
    try {
      await copyIntoOlderSchema(client, "v3", 3);
      const column =
        "SELECT count(*)::int AS n FROM information_schema.columns WHERE table_schema = 'v3' AND table_name = 'sections' AND column_name = 'tsv'";
      const foreignKeys =
        "SELECT count(*)::int AS n FROM pg_constraint WHERE conrelid = 'v3.postings'::regclass AND contype = 'f'";
      expect((await client.query(column)).rows[0].n).toBe(1);
      expect((await client.query(foreignKeys)).rows[0].n).toBe(1);

      const migrated = await open("handbook", "v3");
      try {
        const version = await client.query("SELECT value FROM v3.meta WHERE key = 'version'");
        expect(version.rows[0].value).toBe(String(SCHEMA_VERSION));
        expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(4);
        expect((await client.query(column)).rows[0].n).toBe(0);
        expect((await client.query(foreignKeys)).rows[0].n).toBe(0);
        expect(await storeInvariants(server.url, "v3")).toEqual([]);

        const { engine } = await openEmbeddedEngine(join(root, "handbook"), COLLECTIONS);
        const questions = JSON.parse(await readFile(QUESTIONS, "utf8")) as { q: string }[];
        for (const q of questions.slice(0, 12)) {
          expect(await migrated.search({ query: q.q }), q.q).toEqual(await engine.search({ query: q.q }));
        }
        // Deleting a file written before the migration takes its terms' df from its postings.
        const files = await listMarkdown(join(botDir, "docs"));
        await rm(files[0]!);
        const [report] = await migrated.refresh(botDir);
        expect(report).toMatchObject({ added: 0, updated: 0, removed: 1 });
        expect(await storeInvariants(server.url, "v3")).toEqual([]);
        const { engine: after } = await openEmbeddedEngine(botDir, COLLECTIONS);
        for (const q of questions.slice(0, 12)) {
          expect(await migrated.search({ query: q.q }), q.q).toEqual(await after.search({ query: q.q }));
        }
      } finally {
        await migrated.close();
      }
    } finally {
      await client.end();
      await current.close();
    }
  }, 120_000);

  it("migrates a version 7 database to version 8: no document language and no language counts, answers unchanged; auto then re-indexes with each document's language", async () => {
    const botDir = join(root, "handbook");
    const current = await open("handbook", "current");
    await current.refresh(botDir);
    const client = new pg.Client(server.url);
    await client.connect();
    const exists = async (what: string) =>
      (await client.query(`SELECT to_regclass('${what}') AS t`)).rows[0].t;
    const languageColumn =
      "SELECT count(*)::int AS n FROM information_schema.columns WHERE table_schema = 'v7' AND table_name = 'documents' AND column_name = 'language'";
    try {
      await copyIntoOlderSchema(client, "v7", 7);
      const pages = (await listMarkdown(join(botDir, "docs"))).length;
      expect((await client.query(languageColumn)).rows[0].n).toBe(0);
      expect(await exists("v7.collection_languages")).toBeNull();

      const migrated = await open("handbook", "v7");
      try {
        const version = await client.query("SELECT value FROM v7.meta WHERE key = 'version'");
        expect(version.rows[0].value).toBe(String(SCHEMA_VERSION));
        expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(8);
        expect((await client.query(languageColumn)).rows[0].n).toBe(1);
        expect(await exists("v7.collection_languages")).not.toBeNull();
        const languages = "SELECT language, count(*)::int AS n FROM v7.documents GROUP BY 1 ORDER BY 1";
        expect((await client.query(languages)).rows).toEqual([{ language: null, n: pages }]);
        expect((await client.query("SELECT * FROM v7.collection_languages")).rows).toEqual([]);
        expect(await storeInvariants(server.url, "v7")).toEqual([]);

        const { engine } = await openEmbeddedEngine(botDir, COLLECTIONS);
        const questions = JSON.parse(await readFile(QUESTIONS, "utf8")) as { q: string }[];
        for (const q of questions.slice(0, 12)) {
          expect(await migrated.search({ query: q.q }), q.q).toEqual(await engine.search({ query: q.q }));
        }
        const [report] = await migrated.refresh(botDir);
        expect(report).toMatchObject({ added: 0, updated: 0, removed: 0 });
      } finally {
        await migrated.close();
      }

      // The collection switched to "auto": another analyzer, so every file is indexed again, each
      // in its detected language, and the counts are kept from then on.
      const auto = { handbook: { ...COLLECTIONS.handbook, language: "auto" } };
      const switched = await open("handbook", "v7", auto);
      try {
        const [report] = await switched.refresh(botDir);
        expect(report).toMatchObject({ added: pages, updated: 0, removed: 0 });
        expect(
          (await client.query("SELECT language, count(*)::int AS n FROM v7.documents GROUP BY 1")).rows,
        ).toEqual([{ language: "en", n: pages }]);
        const counts = await client.query(
          "SELECT language, documents::int AS n FROM v7.collection_languages",
        );
        expect(counts.rows).toEqual([{ language: "en", n: pages }]);
        expect(await storeInvariants(server.url, "v7")).toEqual([]);
        const { engine } = await openEmbeddedEngine(botDir, auto);
        const questions = JSON.parse(await readFile(QUESTIONS, "utf8")) as { q: string }[];
        for (const q of questions.slice(0, 6)) {
          expect(await switched.search({ query: q.q }), q.q).toEqual(await engine.search({ query: q.q }));
        }
      } finally {
        await switched.close();
      }
    } finally {
      await client.end();
      await current.close();
    }
  }, 120_000);

  it("stores the impact the SQL form of BM25F gives, to the bit, on real sections", async () => {
    // The handbook's sections as the indexer analysed them, written in one transaction, so every
    // posting's impact comes from the collection's final averages: the SQL formula over the
    // stored frequencies and those averages must give each stored impact exactly.
    const current = await open("handbook", "current");
    await current.refresh(join(root, "handbook"));
    const client = new pg.Client(server.url);
    await client.connect();
    try {
      const sections = await client.query<{
        path: string;
        title: string;
        ord: number;
        heading_path: string[];
        content: string;
        title_terms: string;
        body_terms: string;
      }>(
        `SELECT d.path, d.title, s.ord, s.heading_path, s.content, s.title_terms, s.body_terms
         FROM current.sections s JOIN current.documents d ON d.id = s.document_id ORDER BY d.path, s.ord`,
      );
      const documents = new Map<string, AnalyzedDocument>();
      const split = (stored: string) => (stored === "" ? [] : stored.split(" "));
      for (const r of sections.rows) {
        const document = documents.get(r.path) ?? { id: r.path, title: r.title, sections: [] };
        documents.set(r.path, document);
        document.sections.push({
          headingPath: r.heading_path,
          content: r.content,
          titleTerms: split(r.title_terms),
          bodyTerms: split(r.body_terms),
        });
      }
      expect(documents.size).toBeGreaterThan(5);
      await migrate(client as unknown as pg.PoolClient, "impacts");
      const t = tablesIn("impacts");
      const writer = client as unknown as pg.PoolClient;
      const { id } = await ensureCollection(writer, t, "handbook", "handbook", ENGLISH);
      await replaceDocuments(
        writer,
        t,
        id,
        [...documents.values()].map((document) => ({
          path: document.id,
          size: 1,
          mtimeMs: 1,
          contentHash: document.id,
          document,
        })),
      );
      const pf = pseudoFrequencySql(
        {
          titleTf: "p.title_tf",
          bodyTf: "p.body_tf",
          titleLength: "p.title_length",
          bodyLength: "p.body_length",
        },
        {
          title: "c.title_length_sum::float8 / greatest(c.unit_count, 1)",
          body: "c.body_length_sum::float8 / greatest(c.unit_count, 1)",
        },
        DEFAULT_BM25,
      );
      const compared = await client.query(
        `SELECT count(*)::int AS postings,
                count(*) FILTER (WHERE p.impact <> (f.pf / (${DEFAULT_BM25.k1}::float8 + f.pf))::real)::int AS different,
                count(DISTINCT p.impact)::int AS distinct_impacts
         FROM impacts.postings p JOIN impacts.collections c ON c.id = p.collection_id
         CROSS JOIN LATERAL (SELECT ${pf} AS pf) f`,
      );
      const { postings, different, distinct_impacts } = compared.rows[0];
      expect(postings).toBe(
        Number((await client.query("SELECT count(*) FROM current.postings")).rows[0].count),
      );
      expect(distinct_impacts).toBeGreaterThan(100);
      expect(different).toBe(0);
      // Before the rounding to float4 too: the pseudo-frequency, to the last bit of the double.
      const doubles = await client.query<{
        title_tf: number;
        body_tf: number;
        title_length: number;
        body_length: number;
        unit_count: string;
        title_length_sum: string;
        body_length_sum: string;
        pf: number;
      }>(
        `SELECT p.title_tf, p.body_tf, p.title_length, p.body_length, c.unit_count, c.title_length_sum,
                c.body_length_sum, f.pf
         FROM impacts.postings p JOIN impacts.collections c ON c.id = p.collection_id
         CROSS JOIN LATERAL (SELECT ${pf} AS pf) f`,
      );
      const units = Math.max(Number(doubles.rows[0]!.unit_count), 1);
      const averages = {
        title: Number(doubles.rows[0]!.title_length_sum) / units,
        body: Number(doubles.rows[0]!.body_length_sum) / units,
      };
      const mismatched = doubles.rows.filter(
        (r) =>
          pseudoFrequency(
            {
              titleTf: r.title_tf,
              bodyTf: r.body_tf,
              titleLength: r.title_length,
              bodyLength: r.body_length,
            },
            averages,
            DEFAULT_BM25,
          ) !== r.pf,
      );
      expect(mismatched).toEqual([]);
      expect(await storeInvariants(server.url, "impacts")).toEqual([]);
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
      const { id } = await ensureCollection(writer, t, "notes", "notes", ENGLISH);
      const analysed = documents.map((doc) => analyzeDocument(doc));
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
