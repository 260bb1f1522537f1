import pg from "pg";

/**
 * What must hold in a schema whatever happened to the indexers (races, kill -9): no document
 * twice, no section without its document, the statistics the scorer reads equal to what the
 * sections say, and the postings search reads equal to the sections' terms. Returns the
 * violations found (empty when sound).
 */
export async function storeInvariants(url: string, schema: string): Promise<string[]> {
  const client = new pg.Client(url);
  await client.connect();
  const s = `"${schema}"`;
  try {
    const problems: string[] = [];
    const dupes = await client.query(
      `SELECT collection_id, path, count(*) FROM ${s}.documents GROUP BY 1, 2 HAVING count(*) > 1`,
    );
    for (const r of dupes.rows) problems.push(`document ${r.path} stored ${r.count} times`);
    const stats = await client.query(
      `SELECT c.name, c.unit_count, c.title_length_sum, c.body_length_sum,
              count(s.id) AS units, coalesce(sum(s.title_length), 0) AS title_sum, coalesce(sum(s.body_length), 0) AS body_sum
       FROM ${s}.collections c LEFT JOIN ${s}.sections s ON s.collection_id = c.id
       GROUP BY c.id`,
    );
    for (const r of stats.rows) {
      if (
        String(r.unit_count) !== String(r.units) ||
        String(r.title_length_sum) !== String(r.title_sum) ||
        String(r.body_length_sum) !== String(r.body_sum)
      ) {
        problems.push(
          `collection ${r.name}: statistics ${r.unit_count}/${r.title_length_sum}/${r.body_length_sum} but sections say ${r.units}/${r.title_sum}/${r.body_sum}`,
        );
      }
    }
    const df = await client.query(
      `WITH actual AS (
         SELECT s.collection_id, lexeme AS term, count(*) AS df
         FROM ${s}.sections s, unnest(tsvector_to_array(s.tsv)) AS lexeme GROUP BY 1, 2
       )
       SELECT coalesce(a.term, t.term) AS term, a.df AS actual, t.df AS stored
       FROM actual a FULL JOIN ${s}.terms t ON t.collection_id = a.collection_id AND t.term = a.term
       WHERE a.df IS DISTINCT FROM t.df
       LIMIT 5`,
    );
    for (const r of df.rows) problems.push(`term ${r.term}: stored df ${r.stored}, sections say ${r.actual}`);
    // Every (section, term) of the stored tsvectors has exactly one posting carrying its field
    // frequencies (exact below the tsvector's 256 positions) and the section's lengths, and no
    // posting outlives its section.
    const postings = await client.query(
      `WITH expected AS (
         SELECT s.id, s.collection_id, s.title_length, s.body_length, u.lexeme,
                cardinality(array_positions(u.weights, 'A')) AS title_tf,
                cardinality(array_positions(u.weights, 'D')) AS body_tf
         FROM ${s}.sections s, unnest(s.tsv) AS u
       )
       SELECT coalesce(e.id, p.section_id) AS section, coalesce(e.lexeme, p.term) AS term,
              e.id IS NULL AS orphan, p.section_id IS NULL AS missing
       FROM expected e
       FULL JOIN ${s}.postings p ON p.section_id = e.id AND p.term = e.lexeme
       WHERE e.id IS NULL OR p.section_id IS NULL OR p.collection_id <> e.collection_id
          OR p.title_length <> e.title_length OR p.body_length <> e.body_length
          OR (e.title_tf + e.body_tf < 256 AND (p.title_tf <> e.title_tf OR p.body_tf <> e.body_tf))
       LIMIT 5`,
    );
    for (const r of postings.rows) {
      const what = r.orphan
        ? "a posting with no section"
        : r.missing
          ? "no posting"
          : "a posting that disagrees";
      problems.push(`section ${r.section}, term ${r.term}: ${what}`);
    }
    const duplicated = await client.query(
      `SELECT section_id, term FROM ${s}.postings GROUP BY 1, 2 HAVING count(*) > 1 LIMIT 5`,
    );
    for (const r of duplicated.rows)
      problems.push(`section ${r.section_id}, term ${r.term}: posting stored twice`);
    return problems;
  } finally {
    await client.end();
  }
}
