import pg from "pg";

/**
 * What must hold in a schema whatever happened to the indexers (races, kill -9): no document
 * twice, no section without its document, and the statistics the scorer reads equal to what the
 * sections say. Returns the violations found (empty when sound).
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
    return problems;
  } finally {
    await client.end();
  }
}
