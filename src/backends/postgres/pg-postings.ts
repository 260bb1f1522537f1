import type pg from "pg";
import { type Bm25Params, saturate } from "../../knowledge/ranking-core/index.js";
import { type PostingFields, pseudoFrequency } from "./pg-bm25f.js";
import { copyRows } from "./pg-copy.js";
import type { Tables } from "./pg-schema.js";

/**
 * Impact-ordered postings: one row per (section, term) with the term's frequency in each field
 * and the section's field lengths, plus an `impact` — the posting's saturated BM25F weight as
 * the collection's averages stood when it was written. A btree on (collection, term, impact
 * desc) hands out a term's strongest postings first, so a search reads a bounded number of
 * them per query term however large the collection; the stored frequencies and lengths then
 * give the exact BM25F with today's averages. `impact` only orders; it never scores.
 */

/** A section just written, with its analysed terms. */
export interface SectionPostings {
  sectionId: string;
  titleTerms: readonly string[];
  bodyTerms: readonly string[];
}

/** smallint holds a field frequency; a term repeated more often than this counts this often. */
const MAX_FIELD_FREQUENCY = 32_767;

/** A collection's statistics as its row stands: what the impacts' length averages come from. */
export interface CollectionTotals {
  unitCount: number;
  titleLengthSum: number;
  bodyLengthSum: number;
}

/** One posting as stored; `impact` is already the float4 the column holds. */
export interface PostingRow extends PostingFields {
  term: string;
  sectionId: string;
  impact: number;
}

/**
 * The postings of `sections` with their impacts from the collection's averages in `totals`:
 * pseudoFrequency (the same arithmetic as pseudoFrequencySql, so the same value a SQL-computed
 * impact had), saturated, rounded to float4 as the `real` column stores it. In term order, then
 * the sections' order: written in that order, consecutive rows land in the same part of the
 * impact index, and concurrent writers touch it in one order.
 */
export function postingRows(
  sections: readonly SectionPostings[],
  totals: Readonly<CollectionTotals>,
  params: Readonly<Bm25Params>,
): PostingRow[] {
  const units = Math.max(totals.unitCount, 1);
  const averages = { title: totals.titleLengthSum / units, body: totals.bodyLengthSum / units };
  const byTerm = new Map<string, PostingRow[]>();
  for (const s of sections) {
    const counts = new Map<string, [number, number]>();
    for (const term of s.titleTerms) {
      const c = counts.get(term);
      if (c) c[0]++;
      else counts.set(term, [1, 0]);
    }
    for (const term of s.bodyTerms) {
      const c = counts.get(term);
      if (c) c[1]++;
      else counts.set(term, [0, 1]);
    }
    for (const [term, [title, body]] of counts) {
      const fields: PostingFields = {
        titleTf: Math.min(title, MAX_FIELD_FREQUENCY),
        bodyTf: Math.min(body, MAX_FIELD_FREQUENCY),
        titleLength: s.titleTerms.length,
        bodyLength: s.bodyTerms.length,
      };
      const impact = Math.fround(saturate(pseudoFrequency(fields, averages, params), params.k1));
      const row: PostingRow = { term, sectionId: s.sectionId, impact, ...fields };
      const list = byTerm.get(term);
      if (list) list.push(row);
      else byTerm.set(term, [row]);
    }
  }
  const rows: PostingRow[] = [];
  for (const term of [...byTerm.keys()].sort()) rows.push(...byTerm.get(term)!);
  return rows;
}

/** Writes postings made by postingRows for sections just inserted (inside the file's transaction). */
export async function writePostings(
  client: pg.PoolClient,
  t: Tables,
  collectionId: number,
  rows: readonly PostingRow[],
): Promise<void> {
  if (!rows.length) return;
  await copyRows(
    client,
    `COPY ${t.postings} (collection_id, term, impact, section_id, title_tf, body_tf, title_length, body_length)
     FROM STDIN`,
    rows.map((r) => [
      collectionId,
      r.term,
      r.impact,
      r.sectionId,
      r.titleTf,
      r.bodyTf,
      r.titleLength,
      r.bodyLength,
    ]),
  );
}

/**
 * Deletes the postings of sections about to be deleted and takes them out of the collection's
 * document frequencies (same transaction): a section's postings are its distinct terms, so
 * they are what its share of each term's df was counted from. Terms left in no section go.
 */
export async function deletePostings(
  client: pg.PoolClient,
  t: Tables,
  collectionId: number,
  sectionIds: readonly string[],
): Promise<void> {
  if (!sectionIds.length) return;
  const updated = await client.query<{ term: string; df: string }>(
    `WITH gone AS (
       DELETE FROM ${t.postings} WHERE section_id = ANY($2::bigint[]) RETURNING term
     ), counted AS (
       SELECT term, count(*) AS n FROM gone GROUP BY term
     )
     UPDATE ${t.terms} AS t SET df = t.df - counted.n
     FROM counted
     WHERE t.collection_id = $1 AND t.term = counted.term
     RETURNING t.term, t.df`,
    [collectionId, sectionIds],
  );
  const unused = updated.rows.filter((r) => Number(r.df) <= 0).map((r) => r.term);
  if (unused.length) {
    await client.query(`DELETE FROM ${t.terms} WHERE collection_id = $1 AND term = ANY($2::text[])`, [
      collectionId,
      unused,
    ]);
  }
}

/** Deletes every posting of a collection (it is being emptied for re-indexing). */
export async function deleteCollectionPostings(
  client: pg.PoolClient,
  t: Tables,
  collectionId: number,
): Promise<void> {
  await client.query(`DELETE FROM ${t.postings} WHERE collection_id = $1`, [collectionId]);
}

/**
 * How many postings to read per query term, strongest first, within `budget` postings in all:
 * the rarest terms are read whole while they fit their share, and what they leave goes to the
 * commoner ones (water-filling), so a query whose terms' postings fit the budget is scored over
 * every posting — exactly as the embedded engine scores it — and a larger one reads each term's
 * strongest postings only.
 */
export function postingDepths(
  documentFrequencies: ReadonlyMap<string, number>,
  budget: number,
): Map<string, number> {
  const terms = [...documentFrequencies.entries()]
    .filter(([, df]) => df > 0)
    .sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1));
  const depths = new Map<string, number>();
  let remaining = budget;
  terms.forEach(([term, df], i) => {
    const share = Math.max(1, Math.floor(remaining / (terms.length - i)));
    const depth = Math.min(df, share);
    depths.set(term, depth);
    remaining = Math.max(0, remaining - depth);
  });
  return depths;
}
