import type pg from "pg";
import { KnowledgeError } from "../../knowledge/knowledge-error.js";
import { DEFAULT_BM25 } from "../../knowledge/ranking-core/index.js";
import { logger } from "../../telemetry/logger.js";
import { pseudoFrequencySql } from "./pg-bm25f.js";

/** Identifier rule for knowledge.postgres.schema: used in SQL as a quoted identifier. */
export const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
export const DEFAULT_SCHEMA = "second_look";

/** Table names of one schema, already quoted for SQL text. */
export interface Tables {
  /** The schema itself, quoted (for objects other than these tables, e.g. indexes). */
  schema: string;
  meta: string;
  collections: string;
  documents: string;
  sections: string;
  terms: string;
  calibrations: string;
  skippedFiles: string;
  postings: string;
  collectionLanguages: string;
}

export function tablesIn(schema: string): Tables {
  if (!SCHEMA_NAME.test(schema))
    throw new KnowledgeError("bad-schema-name", `invalid schema name ${JSON.stringify(schema)}`);
  const q = `"${schema}"`;
  return {
    schema: q,
    meta: `${q}.meta`,
    collections: `${q}.collections`,
    documents: `${q}.documents`,
    sections: `${q}.sections`,
    terms: `${q}.terms`,
    calibrations: `${q}.calibrations`,
    skippedFiles: `${q}.skipped_files`,
    postings: `${q}.postings`,
    collectionLanguages: `${q}.collection_languages`,
  };
}

/**
 * The schema's versions, applied in order and recorded in `meta`. A database at a later version
 * than this code knows is refused rather than misread.
 *
 * - collections: one row per (bot, collection) with the statistics BM25F needs (unit count and
 *   field length sums), kept in step with `sections` by the writer.
 * - sections: the scoring units. Until version 4, `tsv` held the analysed terms as lexemes
 *   (title/heading terms weight A, body terms weight D, one position per occurrence), for the
 *   GIN index of versions 1 and 2 and the postings built from it by version 3.
 * - terms: per collection, how many sections contain each term (BM25's document frequency).
 * - calibrations: a bot's own relevance calibration (`second-look calibrate`), one row per bot,
 *   the document the embedded engine keeps in `.second-look/calibration.json`: every process
 *   serving the bot, on any host, reads it from here (src/backends/postgres/pg-calibration.ts).
 * - skipped_files: files the parser refused (a time or memory bound, a broken file) with the size,
 *   time and bounds they were refused at: refused again without a parse while those hold.
 * - postings (version 3): one row per (section, term), impact-ordered per term
 *   (src/backends/postgres/pg-postings.ts). Search reads a bounded number of each query term's
 *   strongest postings from its btree, which replaces the GIN index of versions 1 and 2: GIN finds every
 *   section matching a term in no order, so a common word on a large collection meant scoring
 *   every one of them.
 * - version 4: the writer's speed. Sections lose `tsv`: nothing reads it since search reads
 *   postings, and a deleted section's share of the document frequencies is counted from its
 *   postings (its distinct terms). Postings lose their foreign key to collections: checking it
 *   cost a lookup per posting, about a third of a file's write; a collection's postings are
 *   deleted with it explicitly (pg-writer.ts ensureCollection), and no code deletes a
 *   collection row. Dropping a column is instant; its space is reused as rows are rewritten.
 * - version 5: bot identity. A collection row's `bot` is the bot's key: its configured
 *   `knowledge.postgres.botId`, else its folder's name. `folder` records the resolved bot folder
 *   whose index run wrote the collection under a key taken from a folder name, so a second
 *   folder with the same name is refused instead of deleting the first one's documents
 *   (src/backends/postgres/pg-bot-folder.ts). Rows from version 4 keep their key and get null:
 *   the first run that would not delete most of their documents claims them.
 * - version 6: `document_count`, the page evidence's document count, kept by the writer.
 * - version 7: `text_extraction`, the loaders' text extraction the documents came from
 *   (src/knowledge/documents/text-extraction.ts). Rows from before it get 1: the next
 *   `second-look index` re-reads every file of theirs (pg-indexer.ts), while searches go on
 *   reading what is stored.
 * - version 8: languages, for `"language": "auto"`. `documents.language` is the tag a document
 *   was analysed in (the parser thread's detection, src/knowledge/index/ingest-file.ts), and
 *   `collection_languages` counts a collection's documents per language, kept by the writer in
 *   step with `documents`, so a search learns the collection's language mix in one indexed read
 *   and analyses its queries in every language it holds (analysis/collection-analysis.ts).
 *   Documents from before get null and are not counted: their collection named one language
 *   ("auto" was refused on PostgreSQL before), and a change to "auto" re-indexes it.
 * - version 9: `terms_by_prefix`, the terms of a collection in byte order, so a query word in a
 *   form no section holds (a prefix-stemmed language) finds the form it is searched as with one
 *   range read (pg-reads.ts heldForms, ranking-core/unseen-forms.ts).
 */
/** A table of one count per collection and key: a term's document frequency, a language's documents. */
function countsPerCollection(t: Tables, table: string, key: string, count: string): string {
  return `CREATE TABLE ${table} (
      collection_id integer NOT NULL REFERENCES ${t.collections} (id) ON DELETE CASCADE,
      ${key} text NOT NULL,
      ${count} bigint NOT NULL,
      PRIMARY KEY (collection_id, ${key})
    );`;
}

const MIGRATIONS: readonly ((t: Tables) => string)[] = [
  (t) => `
    CREATE TABLE ${t.collections} (
      id serial PRIMARY KEY,
      bot text NOT NULL,
      name text NOT NULL,
      unit_count bigint NOT NULL DEFAULT 0,
      title_length_sum bigint NOT NULL DEFAULT 0,
      body_length_sum bigint NOT NULL DEFAULT 0,
      -- The analyzer that produced the stored terms: another one means re-indexing, never misreading.
      analyzer text NOT NULL DEFAULT '',
      UNIQUE (bot, name)
    );
    CREATE TABLE ${t.documents} (
      id bigserial PRIMARY KEY,
      collection_id integer NOT NULL REFERENCES ${t.collections} (id) ON DELETE CASCADE,
      path text NOT NULL,
      title text NOT NULL,
      url text,
      modified_time text,
      size bigint NOT NULL,
      mtime_ms double precision NOT NULL,
      content_hash text NOT NULL,
      UNIQUE (collection_id, path)
    );
    CREATE TABLE ${t.sections} (
      id bigserial PRIMARY KEY,
      document_id bigint NOT NULL REFERENCES ${t.documents} (id) ON DELETE CASCADE,
      collection_id integer NOT NULL,
      ord integer NOT NULL,
      heading_path jsonb NOT NULL,
      heading text,
      level integer,
      content text NOT NULL,
      page_start integer,
      page_end integer,
      title_length integer NOT NULL,
      body_length integer NOT NULL,
      tsv tsvector NOT NULL
    );
    CREATE INDEX ON ${t.sections} (document_id, ord);
    CREATE INDEX ON ${t.sections} USING gin (tsv);
    ${countsPerCollection(t, t.terms, "term", "df")}
  `,
  (t) => `
    CREATE TABLE ${t.calibrations} (
      bot text PRIMARY KEY,
      calibration jsonb NOT NULL,
      stored_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE ${t.skippedFiles} (
      collection_id integer NOT NULL REFERENCES ${t.collections} (id) ON DELETE CASCADE,
      path text NOT NULL,
      size bigint NOT NULL,
      mtime_ms double precision NOT NULL,
      reason text NOT NULL,
      bounds text NOT NULL,
      PRIMARY KEY (collection_id, path)
    );
  `,
  (t) => `
    CREATE TABLE ${t.postings} (
      collection_id integer NOT NULL REFERENCES ${t.collections} (id) ON DELETE CASCADE,
      term text NOT NULL,
      impact real NOT NULL,
      section_id bigint NOT NULL,
      title_tf smallint NOT NULL,
      body_tf smallint NOT NULL,
      title_length integer NOT NULL,
      body_length integer NOT NULL
    );
    -- An older database: its sections' postings from the stored tsvectors (title positions
    -- are weighted A, body ones D), impacts from the collection's averages.
    INSERT INTO ${t.postings} (collection_id, term, impact, section_id, title_tf, body_tf, title_length, body_length)
    SELECT s.collection_id, u.lexeme, f.pf / (${DEFAULT_BM25.k1}::float8 + f.pf), s.id, tf.title, tf.body,
           s.title_length, s.body_length
    FROM ${t.sections} s
    JOIN ${t.collections} c ON c.id = s.collection_id
    CROSS JOIN LATERAL unnest(s.tsv) AS u
    CROSS JOIN LATERAL (
      SELECT cardinality(array_positions(u.weights, 'A')) AS title,
             cardinality(array_positions(u.weights, 'D')) AS body
    ) tf
    CROSS JOIN LATERAL (
      SELECT ${pseudoFrequencySql(
        {
          titleTf: "tf.title",
          bodyTf: "tf.body",
          titleLength: "s.title_length",
          bodyLength: "s.body_length",
        },
        {
          title: "c.title_length_sum::float8 / greatest(c.unit_count, 1)",
          body: "c.body_length_sum::float8 / greatest(c.unit_count, 1)",
        },
        DEFAULT_BM25,
      )} AS pf
    ) f;
    -- Strongest first per term; section id breaks ties, so a bounded read is deterministic.
    CREATE INDEX postings_by_impact ON ${t.postings} (collection_id, term, impact DESC, section_id)
      INCLUDE (title_tf, body_tf, title_length, body_length);
    CREATE INDEX postings_by_section ON ${t.postings} (section_id);
    DROP INDEX IF EXISTS ${t.schema}.sections_tsv_idx;
    -- The analysed terms in order, space-separated, so a search ranks candidates without
    -- analysing their text again. Older rows keep null: they are analysed when read.
    ALTER TABLE ${t.sections} ADD COLUMN title_terms text, ADD COLUMN body_terms text;
  `,
  (t) => `
    ALTER TABLE ${t.sections} DROP COLUMN tsv;
    ALTER TABLE ${t.postings} DROP CONSTRAINT IF EXISTS postings_collection_id_fkey;
  `,
  (t) => `
    ALTER TABLE ${t.collections} ADD COLUMN folder text;
  `,
  (t) => `
    ALTER TABLE ${t.collections} ADD COLUMN document_count bigint NOT NULL DEFAULT 0;
    UPDATE ${t.collections} c SET document_count = (SELECT count(*) FROM ${t.documents} d WHERE d.collection_id = c.id);
  `,
  (t) => `
    ALTER TABLE ${t.collections} ADD COLUMN text_extraction integer NOT NULL DEFAULT 1;
  `,
  (t) => `
    ALTER TABLE ${t.documents} ADD COLUMN language text;
    ${countsPerCollection(t, t.collectionLanguages, "language", "documents")}
  `,
  (t) => `
    -- Terms in byte order whatever the database's collation: a prefix is one range (heldForms).
    CREATE INDEX terms_by_prefix ON ${t.terms} (collection_id, term text_pattern_ops);
  `,
  (t) => `
    -- The id of a section's heading in its page (HTML), which a link to the page opens at.
    ALTER TABLE ${t.sections} ADD COLUMN anchor text;
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Migrates when the stored version is not this code's (a new database has no meta table yet):
 * what a backend does on open, a single read when the schema is current.
 */
export async function ensureSchema(client: pg.PoolClient, schema: string): Promise<void> {
  const version = await client
    .query<{ value: string }>(`SELECT value FROM ${tablesIn(schema).meta} WHERE key = 'version'`)
    .catch((error: { code?: string }) => {
      if (error?.code === "42P01") return { rows: [] }; // undefined_table: a new database
      throw error;
    });
  if (Number(version.rows[0]?.value ?? 0) !== SCHEMA_VERSION) await migrate(client, schema);
}

/**
 * Creates the schema or brings it to SCHEMA_VERSION; safe when several processes start at once.
 * `target` stops at an earlier version (tests build an old database with it).
 */
export async function migrate(client: pg.PoolClient, schema: string, target = SCHEMA_VERSION): Promise<void> {
  const t = tablesIn(schema);
  await client.query("BEGIN");
  try {
    // One migrator at a time per schema; the others wait here and then find nothing to do.
    await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`second-look:migrate:${schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${t.meta} (key text PRIMARY KEY, value text NOT NULL)`);
    const row = await client.query<{ value: string }>(`SELECT value FROM ${t.meta} WHERE key = 'version'`);
    const current = row.rows[0] ? Number(row.rows[0].value) : 0;
    if (current > SCHEMA_VERSION) {
      throw new KnowledgeError(
        "schema-too-new",
        `schema ${schema} is at version ${current}, newer than this second-look understands (${SCHEMA_VERSION}); upgrade second-look`,
      );
    }
    if (current > 0 && current < target) {
      logger().info(
        { schema, from: current, to: target },
        `migrating PostgreSQL schema ${schema} from version ${current} to ${target}; on a large collection this takes minutes`,
      );
    }
    for (let v = current; v < target; v++) await client.query(MIGRATIONS[v]!(t));
    if (current < target) {
      await client.query(
        `INSERT INTO ${t.meta} (key, value) VALUES ('version', $1)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
        [String(target)],
      );
    }
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}
