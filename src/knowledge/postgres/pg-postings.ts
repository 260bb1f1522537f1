import type pg from "pg";
import type { Bm25Params } from "../index/bm25.js";
import { pseudoFrequencySql } from "./pg-bm25f.js";
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

/**
 * Writes the postings of sections just inserted, their impacts from the collection's averages
 * as its row says now (call after the statistics are updated, inside the file's transaction).
 * Terms are written in sorted order, so concurrent writers touch the index in one order.
 */
export async function writePostings(
  client: pg.PoolClient,
  t: Tables,
  collectionId: number,
  sections: readonly SectionPostings[],
  params: Readonly<Bm25Params>,
): Promise<void> {
  const rows = {
    sectionId: [] as string[],
    term: [] as string[],
    titleTf: [] as number[],
    bodyTf: [] as number[],
    titleLength: [] as number[],
    bodyLength: [] as number[],
  };
  for (const s of sections) {
    const counts = new Map<string, [number, number]>();
    for (const term of s.titleTerms) {
      const c = counts.get(term) ?? [0, 0];
      c[0]++;
      counts.set(term, c);
    }
    for (const term of s.bodyTerms) {
      const c = counts.get(term) ?? [0, 0];
      c[1]++;
      counts.set(term, c);
    }
    for (const [term, [title, body]] of counts) {
      rows.sectionId.push(s.sectionId);
      rows.term.push(term);
      rows.titleTf.push(Math.min(title, MAX_FIELD_FREQUENCY));
      rows.bodyTf.push(Math.min(body, MAX_FIELD_FREQUENCY));
      rows.titleLength.push(s.titleTerms.length);
      rows.bodyLength.push(s.bodyTerms.length);
    }
  }
  if (!rows.term.length) return;
  const pf = pseudoFrequencySql(
    {
      titleTf: "u.title_tf",
      bodyTf: "u.body_tf",
      titleLength: "u.title_length",
      bodyLength: "u.body_length",
    },
    {
      title: "c.title_length_sum::float8 / greatest(c.unit_count, 1)",
      body: "c.body_length_sum::float8 / greatest(c.unit_count, 1)",
    },
    params,
  );
  await client.query(
    `INSERT INTO ${t.postings} (collection_id, term, impact, section_id, title_tf, body_tf, title_length, body_length)
     SELECT c.id, u.term, f.pf / (${params.k1}::float8 + f.pf), u.section_id, u.title_tf, u.body_tf,
            u.title_length, u.body_length
     FROM ${t.collections} c
     CROSS JOIN unnest($2::bigint[], $3::text[], $4::int2[], $5::int2[], $6::int[], $7::int[])
       AS u(section_id, term, title_tf, body_tf, title_length, body_length)
     CROSS JOIN LATERAL (SELECT ${pf} AS pf) f
     WHERE c.id = $1
     ORDER BY u.term, u.section_id`,
    [collectionId, rows.sectionId, rows.term, rows.titleTf, rows.bodyTf, rows.titleLength, rows.bodyLength],
  );
}

/** Deletes the postings of sections about to be deleted (same transaction). */
export async function deletePostings(
  client: pg.PoolClient,
  t: Tables,
  sectionIds: readonly string[],
): Promise<void> {
  if (!sectionIds.length) return;
  await client.query(`DELETE FROM ${t.postings} WHERE section_id = ANY($1::bigint[])`, [sectionIds]);
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
