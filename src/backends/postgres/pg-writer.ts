import type pg from "pg";
import { TEXT_EXTRACTION_VERSION } from "../../knowledge/documents/text-extraction.js";
import { type AnalyzedDocument, DEFAULT_BM25 } from "../../knowledge/ranking-core/index.js";
import { logger } from "../../telemetry/logger.js";
import { type CopyValue, copyRows } from "./pg-copy.js";
import {
  deleteCollectionPostings,
  deletePostings,
  postingRows,
  type SectionPostings,
  writePostings,
} from "./pg-postings.js";
import type { Tables } from "./pg-schema.js";

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
 * another analyzer (its language changed, or its analysis did) is emptied first, with a warning,
 * and its documents are then re-indexed as new. Call with the collection's index lock held.
 */
export async function ensureCollection(
  client: pg.PoolClient,
  t: Tables,
  bot: string,
  name: string,
  analyzerId: string,
): Promise<{ id: number; emptied: boolean; extractedBy: number }> {
  const row = await client.query<{ id: number; analyzer: string; text_extraction: number }>(
    `INSERT INTO ${t.collections} (bot, name, analyzer, text_extraction) VALUES ($1, $2, $3, $4)
     ON CONFLICT (bot, name) DO UPDATE SET bot = excluded.bot
     RETURNING id, analyzer, text_extraction`,
    [bot, name, analyzerId, TEXT_EXTRACTION_VERSION],
  );
  const { id, analyzer, text_extraction: extractedBy } = row.rows[0]!;
  if (analyzer === analyzerId) return { id, emptied: false, extractedBy };
  logger().warn(
    { bot, collection: name, builtWith: analyzer, analyzer: analyzerId },
    `collection ${name} was indexed with analyzer ${analyzer}; it is now analysed with ${analyzerId}: re-indexing every file`,
  );
  await inTransaction(client, async () => {
    await deleteCollectionPostings(client, t, id);
    await client.query(`DELETE FROM ${t.documents} WHERE collection_id = $1`, [id]);
    await client.query(`DELETE FROM ${t.terms} WHERE collection_id = $1`, [id]);
    await client.query(`DELETE FROM ${t.collectionLanguages} WHERE collection_id = $1`, [id]);
    await client.query(
      `UPDATE ${t.collections} SET unit_count = 0, document_count = 0, title_length_sum = 0, body_length_sum = 0, analyzer = $2, text_extraction = $3
       WHERE id = $1`,
      [id, analyzerId, TEXT_EXTRACTION_VERSION],
    );
  });
  return { id, emptied: true, extractedBy: TEXT_EXTRACTION_VERSION };
}

/** Records that every document of the collection now comes from this version's text extraction. */
export async function recordTextExtraction(
  client: pg.PoolClient,
  t: Tables,
  collectionId: number,
): Promise<void> {
  await client.query(`UPDATE ${t.collections} SET text_extraction = $2 WHERE id = $1`, [
    collectionId,
    TEXT_EXTRACTION_VERSION,
  ]);
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
  const sections = await client.query<{ id: string }>(
    `SELECT id FROM ${t.sections} WHERE document_id = ANY($1::bigint[])`,
    [ids],
  );
  await client.query(
    `UPDATE ${t.collections} AS c SET
       unit_count = c.unit_count - s.units,
       document_count = c.document_count - $3,
       title_length_sum = c.title_length_sum - s.title_sum,
       body_length_sum = c.body_length_sum - s.body_sum
     FROM (
       SELECT count(*) AS units, coalesce(sum(title_length), 0) AS title_sum, coalesce(sum(body_length), 0) AS body_sum
       FROM ${t.sections} WHERE document_id = ANY($2::bigint[])
     ) AS s
     WHERE c.id = $1`,
    [collectionId, ids, ids.length],
  );
  await deletePostings(
    client,
    t,
    collectionId,
    sections.rows.map((r) => r.id),
  );
  await uncountLanguages(client, t, collectionId, ids);
  await client.query(`DELETE FROM ${t.documents} WHERE id = ANY($1::bigint[])`, [ids]);
}

/**
 * Adds the documents written to the collection's documents per language (pg-schema.ts version 8): what an
 * "auto" collection's queries are analysed in. A document without a language is not counted.
 */
async function countLanguages(
  client: pg.PoolClient,
  t: Tables,
  collectionId: number,
  write: readonly DocumentToWrite[],
): Promise<void> {
  await client.query(
    `INSERT INTO ${t.collectionLanguages} (collection_id, language, documents)
     SELECT $1, language, count(*) FROM unnest($2::text[]) AS l(language)
     WHERE language IS NOT NULL GROUP BY language ORDER BY language
     ON CONFLICT (collection_id, language) DO UPDATE SET documents = ${t.collectionLanguages}.documents + excluded.documents`,
    [collectionId, write.map((w) => w.document.language ?? null)],
  );
}

/** Takes the documents `ids` (still stored) out of the counts per language; a language left with none goes. */
async function uncountLanguages(
  client: pg.PoolClient,
  t: Tables,
  collectionId: number,
  ids: readonly string[],
): Promise<void> {
  await client.query(
    `WITH gone AS (
       SELECT language, count(*) AS n FROM ${t.documents}
       WHERE id = ANY($2::bigint[]) AND language IS NOT NULL GROUP BY language
     )
     UPDATE ${t.collectionLanguages} AS l SET documents = l.documents - gone.n
     FROM gone WHERE l.collection_id = $1 AND l.language = gone.language`,
    [collectionId, ids],
  );
  await client.query(`DELETE FROM ${t.collectionLanguages} WHERE collection_id = $1 AND documents <= 0`, [
    collectionId,
  ]);
}

async function insertDocuments(
  client: pg.PoolClient,
  t: Tables,
  collectionId: number,
  write: readonly DocumentToWrite[],
) {
  const idByPath = await insertDocumentRows(client, t, collectionId, write);
  await countLanguages(client, t, collectionId, write);
  const sectionCount = write.reduce((n, w) => n + w.document.sections.length, 0);
  if (!sectionCount) {
    // Documents without sections still count as documents (the page ranking's average).
    await client.query(`UPDATE ${t.collections} SET document_count = document_count + $2 WHERE id = $1`, [
      collectionId,
      write.length,
    ]);
    return;
  }
  // The sections' ids are taken from their sequence first, so their postings can be written in
  // the same pass, with no round trip to learn which id each section got.
  const ids = await client.query<{ id: string }>(
    "SELECT nextval(pg_get_serial_sequence($1, 'id')) AS id FROM generate_series(1, $2)",
    [t.sections, sectionCount],
  );
  const laid = sectionRows(
    collectionId,
    write,
    idByPath,
    ids.rows.map((r) => r.id),
  );
  await copyRows(
    client,
    `COPY ${t.sections} (id, document_id, collection_id, ord, heading_path, heading, level, content, page_start,
                          page_end, title_length, body_length, title_terms, body_terms, anchor)
     FROM STDIN`,
    laid.rows,
  );
  const totals = await addToCollectionTotals(client, t, collectionId, {
    units: laid.sections.length,
    titleSum: laid.titleSum,
    bodySum: laid.bodySum,
    documents: write.length,
  });
  const postings = postingRows(laid.sections, totals, DEFAULT_BM25);
  await addDocumentFrequencies(client, t, collectionId, postings);
  await writePostings(client, t, collectionId, postings);
}

/** Inserts the documents' rows; returns each path's new document id. */
async function insertDocumentRows(
  client: pg.PoolClient,
  t: Tables,
  collectionId: number,
  write: readonly DocumentToWrite[],
): Promise<Map<string, string>> {
  const inserted = await client.query<{ id: string; path: string }>(
    `INSERT INTO ${t.documents} (collection_id, path, title, url, modified_time, size, mtime_ms, content_hash, language)
     SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::float8[], $8::text[], $9::text[])
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
      write.map((w) => w.document.language ?? null),
    ],
  );
  return new Map(inserted.rows.map((r) => [r.path, r.id]));
}

/** The documents' sections as COPY rows, with their ids (`sectionIds`, in order) and term lengths. */
function sectionRows(
  collectionId: number,
  write: readonly DocumentToWrite[],
  idByPath: ReadonlyMap<string, string>,
  sectionIds: readonly string[],
): { sections: SectionPostings[]; rows: CopyValue[][]; titleSum: number; bodySum: number } {
  const sections: SectionPostings[] = [];
  const rows: CopyValue[][] = [];
  let titleSum = 0;
  let bodySum = 0;
  for (const w of write) {
    const documentId = idByPath.get(w.path)!;
    w.document.sections.forEach((s, ord) => {
      const sectionId = sectionIds[sections.length]!;
      sections.push({ sectionId, titleTerms: s.titleTerms, bodyTerms: s.bodyTerms });
      rows.push([
        sectionId,
        documentId,
        collectionId,
        ord,
        JSON.stringify(s.headingPath),
        s.heading ?? null,
        s.level ?? null,
        s.content,
        s.pages?.start ?? null,
        s.pages?.end ?? null,
        s.titleTerms.length,
        s.bodyTerms.length,
        s.titleTerms.join(" "),
        s.bodyTerms.join(" "),
        s.anchor ?? null,
      ]);
      titleSum += s.titleTerms.length;
      bodySum += s.bodyTerms.length;
    });
  }
  return { sections, rows, titleSum, bodySum };
}

/** Adds the written sections and documents to the collection's totals; returns the new totals. */
async function addToCollectionTotals(
  client: pg.PoolClient,
  t: Tables,
  collectionId: number,
  added: { units: number; titleSum: number; bodySum: number; documents: number },
): Promise<{ unitCount: number; titleLengthSum: number; bodyLengthSum: number }> {
  const totals = await client.query<{
    unit_count: string;
    title_length_sum: string;
    body_length_sum: string;
  }>(
    `UPDATE ${t.collections} SET
       unit_count = unit_count + $2, title_length_sum = title_length_sum + $3, body_length_sum = body_length_sum + $4,
       document_count = document_count + $5
     WHERE id = $1
     RETURNING unit_count, title_length_sum, body_length_sum`,
    [collectionId, added.units, added.titleSum, added.bodySum, added.documents],
  );
  const row = totals.rows[0]!;
  return {
    unitCount: Number(row.unit_count),
    titleLengthSum: Number(row.title_length_sum),
    bodyLengthSum: Number(row.body_length_sum),
  };
}

/**
 * A term's df grows by its postings here, one per section holding it. The postings come in
 * term order, so the terms are sorted too: two writers of different collections never wait
 * on each other in opposite orders.
 */
async function addDocumentFrequencies(
  client: pg.PoolClient,
  t: Tables,
  collectionId: number,
  postings: ReturnType<typeof postingRows>,
): Promise<void> {
  const terms: string[] = [];
  const counts: number[] = [];
  for (const p of postings) {
    if (terms[terms.length - 1] === p.term) counts[counts.length - 1]!++;
    else {
      terms.push(p.term);
      counts.push(1);
    }
  }
  await client.query(
    `INSERT INTO ${t.terms} (collection_id, term, df)
     SELECT $1, * FROM unnest($2::text[], $3::bigint[])
     ON CONFLICT (collection_id, term) DO UPDATE SET df = ${t.terms}.df + excluded.df`,
    [collectionId, terms, counts],
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
