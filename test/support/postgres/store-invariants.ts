import pg from "pg";

/**
 * What must hold in a schema whatever happened to the indexers (races, kill -9): no document
 * twice, no section without its document, the statistics the scorer reads equal to what the
 * sections say, the postings search reads equal to the sections' terms, and the documents
 * counted per language equal the documents' languages. Returns the
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
    // Document frequencies: a term's df is the number of its postings (one per section holding it).
    const df = await client.query(
      `WITH actual AS (SELECT collection_id, term, count(*) AS df FROM ${s}.postings GROUP BY 1, 2)
       SELECT coalesce(a.term, t.term) AS term, a.df AS actual, t.df AS stored
       FROM actual a FULL JOIN ${s}.terms t ON t.collection_id = a.collection_id AND t.term = a.term
       WHERE a.df IS DISTINCT FROM t.df
       LIMIT 5`,
    );
    for (const r of df.rows) problems.push(`term ${r.term}: stored df ${r.stored}, postings say ${r.actual}`);
    // Every (section, term) of the sections' stored terms has exactly one posting carrying its
    // field frequencies and the section's lengths, and no posting outlives its section. (Rows
    // migrated from a database older than stored terms are checked for orphans and lengths only.)
    const postings = await client.query(
      `WITH words AS (
         SELECT s.id, w.term, w.title
         FROM ${s}.sections s
         CROSS JOIN LATERAL (
           SELECT term, true AS title FROM regexp_split_to_table(s.title_terms, ' ') AS term WHERE term <> ''
           UNION ALL
           SELECT term, false FROM regexp_split_to_table(s.body_terms, ' ') AS term WHERE term <> ''
         ) w
         WHERE s.title_terms IS NOT NULL AND s.body_terms IS NOT NULL
       ), expected AS (
         SELECT s.id, s.collection_id, s.title_length, s.body_length, w.term,
                count(*) FILTER (WHERE w.title) AS title_tf, count(*) FILTER (WHERE NOT w.title) AS body_tf
         FROM words w JOIN ${s}.sections s ON s.id = w.id
         GROUP BY 1, 2, 3, 4, 5
       ), stored AS (
         SELECT p.*, s.id IS NULL AS orphan, s.title_terms IS NULL AS unchecked,
                s.collection_id AS section_collection, s.title_length AS section_title_length,
                s.body_length AS section_body_length
         FROM ${s}.postings p LEFT JOIN ${s}.sections s ON s.id = p.section_id
       )
       SELECT coalesce(e.id, p.section_id) AS section, coalesce(e.term, p.term) AS term,
              coalesce(p.orphan, false) AS orphan, p.section_id IS NULL AS missing
       FROM expected e
       FULL JOIN stored p ON p.section_id = e.id AND p.term = e.term
       WHERE p.orphan
          OR p.collection_id <> p.section_collection OR p.title_length <> p.section_title_length
          OR p.body_length <> p.section_body_length
          OR (e.id IS NULL AND NOT p.unchecked) OR p.section_id IS NULL
          OR (e.id IS NOT NULL AND (p.title_tf <> least(e.title_tf, 32767) OR p.body_tf <> least(e.body_tf, 32767)))
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
    // Documents per language (schema version 8): the counts an "auto" collection's queries read.
    const languages = await client.query(
      `WITH actual AS (
         SELECT collection_id, language, count(*) AS n FROM ${s}.documents
         WHERE language IS NOT NULL GROUP BY 1, 2
       )
       SELECT coalesce(a.language, l.language) AS language, a.n AS actual, l.documents AS stored
       FROM actual a FULL JOIN ${s}.collection_languages l
         ON l.collection_id = a.collection_id AND l.language = a.language
       WHERE a.n IS DISTINCT FROM l.documents
       LIMIT 5`,
    );
    for (const r of languages.rows)
      problems.push(`language ${r.language}: ${r.stored} documents counted, documents say ${r.actual}`);
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
