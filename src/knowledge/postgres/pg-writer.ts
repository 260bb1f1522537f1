import type pg from "pg";
import { ANALYZER_VERSION } from "../index/analyzer.js";
import { DEFAULT_BM25 } from "../index/bm25.js";
import type { AnalyzedDocument } from "../index/collection-index.js";
import { deleteCollectionPostings, deletePostings, writePostings } from "./pg-postings.js";
import type { Tables } from "./pg-schema.js";
import { sectionTsvector } from "./tsvector-literal.js";

/** A parsed, analysed file as the writer stores it. */
export interface DocumentToWrite {
  /** Path relative to the bot folder (forward slashes): the document id. */
  path: string;
  size: number;
  mtimeMs: number;
  contentHash: string;
  document: AnalyzedDocument;
}

export interface StoredFile {
  path: string;
  size: number;
  mtimeMs: number;
  contentHash: string;
}

/**
 * The collection's row id, created on first use. A collection whose stored terms came from
 * another analyzer is emptied first (its documents are then re-indexed as new). Call with the
 * collection's index lock held.
 */
export async function ensureCollection(
  client: pg.PoolClient,
  t: Tables,
  bot: string,
  name: string,
): Promise<{ id: number; emptied: boolean }> {
  const row = await client.query<{ id: number; analyzer: string }>(
    `INSERT INTO ${t.collections} (bot, name, analyzer) VALUES ($1, $2, $3)
     ON CONFLICT (bot, name) DO UPDATE SET bot = excluded.bot
     RETURNING id, analyzer`,
    [bot, name, ANALYZER_VERSION],
  );
  const { id, analyzer } = row.rows[0]!;
  if (analyzer === ANALYZER_VERSION) return { id, emptied: false };
  await inTransaction(client, async () => {
    await deleteCollectionPostings(client, t, id);
    await client.query(`DELETE FROM ${t.documents} WHERE collection_id = $1`, [id]);
    await client.query(`DELETE FROM ${t.terms} WHERE collection_id = $1`, [id]);
    await client.query(
      `UPDATE ${t.collections} SET unit_count = 0, title_length_sum = 0, body_length_sum = 0, analyzer = $2
       WHERE id = $1`,
      [id, ANALYZER_VERSION],
    );
  });
  return { id, emptied: true };
}

/** What the collection holds now, to compare files against. */
export async function storedFiles(
  client: pg.PoolClient,
  t: Tables,
  collectionId: number,
): Promise<StoredFile[]> {
  const rows = await client.query<{ path: string; size: string; mtime_ms: number; content_hash: string }>(
    `SELECT path, size, mtime_ms, content_hash FROM ${t.documents} WHERE collection_id = $1`,
    [collectionId],
  );
  return rows.rows.map((r) => ({
    path: r.path,
    size: Number(r.size),
    mtimeMs: r.mtime_ms,
    contentHash: r.content_hash,
  }));
}

export async function inTransaction<T>(
  client: pg.PoolClient,
  work: () => Promise<T>,
  begin = "BEGIN",
): Promise<T> {
  await client.query(begin);
  try {
    const result = await work();
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}

/**
 * Replaces the named documents in one transaction: `remove` paths and the paths of `write` are
 * deleted (with their share of the collection statistics), then `write` is inserted. A crash
 * anywhere leaves the collection as it was before the call. Call with the collection's index
 * lock held: the statistics are read-modify-written.
 */
export async function replaceDocuments(
  client: pg.PoolClient,
  t: Tables,
  collectionId: number,
  write: readonly DocumentToWrite[],
  remove: readonly string[] = [],
): Promise<void> {
  await inTransaction(client, async () => {
    const paths = [...remove, ...write.map((w) => w.path)];
    if (paths.length) await deleteDocuments(client, t, collectionId, paths);
    if (write.length) await insertDocuments(client, t, collectionId, write);
  });
}

async function deleteDocuments(client: pg.PoolClient, t: Tables, collectionId: number, paths: string[]) {
  const old = await client.query<{ id: string }>(
    `SELECT id FROM ${t.documents} WHERE collection_id = $1 AND path = ANY($2::text[])`,
    [collectionId, paths],
  );
  if (!old.rows.length) return;
  const ids = old.rows.map((r) => r.id);
  await client.query(
    `UPDATE ${t.terms} AS t SET df = t.df - d.n
     FROM (
       SELECT lexeme, count(*) AS n
       FROM ${t.sections} s, unnest(tsvector_to_array(s.tsv)) AS lexeme
       WHERE s.document_id = ANY($2::bigint[])
       GROUP BY lexeme
     ) AS d
     WHERE t.collection_id = $1 AND t.term = d.lexeme`,
    [collectionId, ids],
  );
  await client.query(
    `UPDATE ${t.collections} AS c SET
       unit_count = c.unit_count - s.units,
       title_length_sum = c.title_length_sum - s.title_sum,
       body_length_sum = c.body_length_sum - s.body_sum
     FROM (
       SELECT count(*) AS units, coalesce(sum(title_length), 0) AS title_sum, coalesce(sum(body_length), 0) AS body_sum
       FROM ${t.sections} WHERE document_id = ANY($2::bigint[])
     ) AS s
     WHERE c.id = $1`,
    [collectionId, ids],
  );
  const sections = await client.query<{ id: string }>(
    `SELECT id FROM ${t.sections} WHERE document_id = ANY($1::bigint[])`,
    [ids],
  );
  await deletePostings(
    client,
    t,
    sections.rows.map((r) => r.id),
  );
  await client.query(`DELETE FROM ${t.documents} WHERE id = ANY($1::bigint[])`, [ids]);
  await client.query(`DELETE FROM ${t.terms} WHERE collection_id = $1 AND df <= 0`, [collectionId]);
}

async function insertDocuments(
  client: pg.PoolClient,
  t: Tables,
  collectionId: number,
  write: readonly DocumentToWrite[],
) {
  const inserted = await client.query<{ id: string; path: string }>(
    `INSERT INTO ${t.documents} (collection_id, path, title, url, modified_time, size, mtime_ms, content_hash)
     SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::float8[], $8::text[])
     RETURNING id, path`,
    [
      collectionId,
      write.map((w) => w.path),
      write.map((w) => w.document.title),
      write.map((w) => w.document.url ?? null),
      write.map((w) => w.document.modifiedTime ?? null),
      write.map((w) => w.size),
      write.map((w) => w.mtimeMs),
      write.map((w) => w.contentHash),
    ],
  );
  const idByPath = new Map(inserted.rows.map((r) => [r.path, r.id]));
  const columns = {
    documentId: [] as string[],
    ord: [] as number[],
    headingPath: [] as string[],
    heading: [] as (string | null)[],
    level: [] as (number | null)[],
    content: [] as string[],
    pageStart: [] as (number | null)[],
    pageEnd: [] as (number | null)[],
    titleLength: [] as number[],
    bodyLength: [] as number[],
    tsv: [] as string[],
    titleTerms: [] as string[],
    bodyTerms: [] as string[],
  };
  const df = new Map<string, number>();
  let titleSum = 0;
  let bodySum = 0;
  for (const w of write) {
    w.document.sections.forEach((s, ord) => {
      columns.documentId.push(idByPath.get(w.path)!);
      columns.ord.push(ord);
      columns.headingPath.push(JSON.stringify(s.headingPath));
      columns.heading.push(s.heading ?? null);
      columns.level.push(s.level ?? null);
      columns.content.push(s.content);
      columns.pageStart.push(s.pages?.start ?? null);
      columns.pageEnd.push(s.pages?.end ?? null);
      columns.titleLength.push(s.titleTerms.length);
      columns.bodyLength.push(s.bodyTerms.length);
      columns.tsv.push(sectionTsvector(s.titleTerms, s.bodyTerms));
      columns.titleTerms.push(s.titleTerms.join(" "));
      columns.bodyTerms.push(s.bodyTerms.join(" "));
      titleSum += s.titleTerms.length;
      bodySum += s.bodyTerms.length;
      for (const term of new Set([...s.titleTerms, ...s.bodyTerms])) df.set(term, (df.get(term) ?? 0) + 1);
    });
  }
  if (!columns.documentId.length) return;
  const sections = await client.query<{ id: string; document_id: string; ord: number }>(
    `INSERT INTO ${t.sections}
       (document_id, collection_id, ord, heading_path, heading, level, content, page_start, page_end,
        title_length, body_length, tsv, title_terms, body_terms)
     SELECT u.document_id, $1, u.ord, u.heading_path::jsonb, u.heading, u.level, u.content, u.page_start,
            u.page_end, u.title_length, u.body_length, u.tsv::tsvector, u.title_terms, u.body_terms
     FROM unnest($2::bigint[], $3::int[], $4::text[], $5::text[], $6::int[], $7::text[], $8::int[], $9::int[],
                 $10::int[], $11::int[], $12::text[], $13::text[], $14::text[])
       AS u(document_id, ord, heading_path, heading, level, content, page_start, page_end,
            title_length, body_length, tsv, title_terms, body_terms)
     RETURNING id, document_id, ord`,
    [
      collectionId,
      columns.documentId,
      columns.ord,
      columns.headingPath,
      columns.heading,
      columns.level,
      columns.content,
      columns.pageStart,
      columns.pageEnd,
      columns.titleLength,
      columns.bodyLength,
      columns.tsv,
      columns.titleTerms,
      columns.bodyTerms,
    ],
  );
  // Sorted, so two writers of different collections never wait on each other in opposite orders.
  const terms = [...df.keys()].sort();
  await client.query(
    `INSERT INTO ${t.terms} (collection_id, term, df)
     SELECT $1, * FROM unnest($2::text[], $3::bigint[])
     ON CONFLICT (collection_id, term) DO UPDATE SET df = ${t.terms}.df + excluded.df`,
    [collectionId, terms, terms.map((term) => df.get(term)!)],
  );
  await client.query(
    `UPDATE ${t.collections} SET
       unit_count = unit_count + $2, title_length_sum = title_length_sum + $3, body_length_sum = body_length_sum + $4
     WHERE id = $1`,
    [collectionId, columns.documentId.length, titleSum, bodySum],
  );
  const written = new Map(sections.rows.map((r) => [`${r.document_id}:${r.ord}`, r.id]));
  await writePostings(
    client,
    t,
    collectionId,
    write.flatMap((w) =>
      w.document.sections.map((s, ord) => ({
        sectionId: written.get(`${idByPath.get(w.path)}:${ord}`)!,
        titleTerms: s.titleTerms,
        bodyTerms: s.bodyTerms,
      })),
    ),
    DEFAULT_BM25,
  );
}

/** A file whose bytes are unchanged but whose size or modification time moved: records the new ones. */
export async function recordFileTimes(
  client: pg.PoolClient,
  t: Tables,
  collectionId: number,
  path: string,
  size: number,
  mtimeMs: number,
): Promise<void> {
  await client.query(
    `UPDATE ${t.documents} SET size = $3, mtime_ms = $4 WHERE collection_id = $1 AND path = $2`,
    [collectionId, path, size, mtimeMs],
  );
}

/** A file the parser refused, with what makes it worth trying again (a change, other bounds). */
export interface StoredSkip {
  path: string;
  size: number;
  mtimeMs: number;
  reason: string;
  /** The per-file bounds it was refused at (index/ingest-limits.ts boundsKey). */
  bounds: string;
}

export async function storedSkips(
  client: pg.PoolClient,
  t: Tables,
  collectionId: number,
): Promise<StoredSkip[]> {
  const rows = await client.query<{
    path: string;
    size: string;
    mtime_ms: number;
    reason: string;
    bounds: string;
  }>(`SELECT path, size, mtime_ms, reason, bounds FROM ${t.skippedFiles} WHERE collection_id = $1`, [
    collectionId,
  ]);
  return rows.rows.map((r) => ({
    path: r.path,
    size: Number(r.size),
    mtimeMs: r.mtime_ms,
    reason: r.reason,
    bounds: r.bounds,
  }));
}

export async function recordSkip(
  client: pg.PoolClient,
  t: Tables,
  collectionId: number,
  skip: StoredSkip,
): Promise<void> {
  await client.query(
    `INSERT INTO ${t.skippedFiles} (collection_id, path, size, mtime_ms, reason, bounds)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (collection_id, path) DO UPDATE SET
       size = excluded.size, mtime_ms = excluded.mtime_ms, reason = excluded.reason, bounds = excluded.bounds`,
    [collectionId, skip.path, skip.size, skip.mtimeMs, skip.reason, skip.bounds],
  );
}

/** Forgets every refused file but `paths` (the others were fixed, or are gone). */
export async function keepSkipsOf(
  client: pg.PoolClient,
  t: Tables,
  collectionId: number,
  paths: readonly string[],
): Promise<void> {
  await client.query(
    `DELETE FROM ${t.skippedFiles} WHERE collection_id = $1 AND NOT (path = ANY($2::text[]))`,
    [collectionId, paths],
  );
}
