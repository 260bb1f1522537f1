// What a search reads from the database: the collections' statistics and their documents per
// language, and each collection's candidate sections for a query — the strongest postings of
// its terms within POSTINGS_BUDGET scored in SQL, the sections holding query terms the first
// pass missed, the rest of the leading documents — packed as the ranking core reads them; and a
// whole document for get_document. Every query is scoped to one bot's collections and
// parameterised; a collection another bot folder wrote is refused (pg-bot-folder.ts).
import type pg from "pg";
import type { CollectionAnalysis } from "../../knowledge/analysis/collection-analysis.js";
import {
  analyzeDocument,
  CANDIDATE_UNITS,
  type CollectionIndex,
  type CollectionStatistics,
  candidateCollection,
  DEFAULT_BM25,
  expandedQueryWeights,
  feedbackVocabulary,
  holdsTerm,
  type IndexableDocument,
  type IndexableSection,
  leadingDocumentIds,
  type PackedSection,
  queryTermPlan,
  queryTermWeights,
  rankedQueryTerms,
  toDoc,
  unseenFormPrefixes,
} from "../../knowledge/ranking-core/index.js";
import type { Doc } from "../../types.js";
import { pseudoFrequencySql } from "./pg-bm25f.js";
import { type BotFolder, readConflict } from "./pg-bot-folder.js";
import { PostgresUnavailableError } from "./pg-connection.js";
import { postingDepths } from "./pg-postings.js";
import type { Tables } from "./pg-schema.js";

/**
 * Postings the database reads per collection and search pass, at most, spread over the query's
 * terms by postingDepths (src/backends/postgres/pg-postings.ts): a query whose terms' postings
 * fit is scored over all of them, exactly as the embedded engine scores it; a larger one reads
 * each term's strongest postings, so a query's cost stays bounded however large the collection
 * and however common its words.
 */
export const POSTINGS_BUDGET = 10_000;
/**
 * Candidates handed to the ranking core per collection: twice what its first pass keeps, so
 * the feedback (rerank) pass has room to bring up sections the first pass placed lower.
 */
export const CANDIDATE_POOL = 2 * CANDIDATE_UNITS;

interface CollectionRow {
  id: number;
  name: string;
  unit_count: string;
  document_count: string;
  title_length_sum: string;
  body_length_sum: string;
  analyzer: string;
  folder: string | null;
  /** Documents per language they were analysed in (pg-schema.ts version 8). */
  languages: Record<string, number>;
}

interface CandidateRow {
  path: string;
  title: string;
  url: string | null;
  modified_time: string | null;
  ord: number;
  heading_path: string[];
  heading: string | null;
  level: number | null;
  content: string;
  page_start: number | null;
  page_end: number | null;
  anchor: string | null;
}

/** A collection row's documents per language (pg-schema.ts version 8), as one JSON object. */
const languagesColumn = (t: Tables) =>
  `coalesce((SELECT jsonb_object_agg(l.language, l.documents) FROM ${t.collectionLanguages} l
             WHERE l.collection_id = c.id), '{}'::jsonb) AS languages`;

/** A `languages` column's object as documents per language. */
function languageMix(languages: Record<string, number | string>): Map<string, number> {
  return new Map(Object.entries(languages).map(([tag, n]) => [tag, Number(n)]));
}

/** The columns of an AnalyzedRow (`s`: sections, `d`: documents), for every query that reads candidates. */
const ANALYZED_ROW_COLUMNS = `s.id AS section_id, d.path, d.title, d.url, d.modified_time, s.ord, s.heading_path,
  s.heading, s.level, s.content, s.page_start, s.page_end, s.anchor, s.title_terms, s.body_terms`;

/** A candidate section with its analysed terms as stored (null in rows written by schema version 1). */
interface AnalyzedRow extends CandidateRow {
  /** bigint, as node-postgres returns it: a string. */
  section_id: string;
  title_terms: string | null;
  body_terms: string | null;
}

/** A bot's reads, on a connection the backend hands in (inside its read-only snapshot for a search). */
export class PostgresReads {
  /** Each collection's documents per language, as last read (at open, after indexing, by a search). */
  readonly knownLanguages = new Map<string, ReadonlyMap<string, number>>();

  constructor(
    private readonly t: Tables,
    private readonly bot: string,
    /** Names the database in errors. */
    private readonly server: string,
    /** Where this process's searches come from, when it was opened for a bot folder. */
    private readonly from: BotFolder | undefined,
    /** How a configured collection's text is analysed, as a search uses it. */
    private readonly analysisOf: (name: string) => CollectionAnalysis,
  ) {}

  /** The stored document `id` of `collection`, or undefined; refused when another folder wrote it. */
  async document(client: pg.PoolClient, collection: string, id: string): Promise<Doc | undefined> {
    const result = await client.query<CandidateRow & { folder: string | null }>(
      `SELECT d.path, d.title, d.url, d.modified_time, s.ord, s.heading_path, s.heading, s.level,
              s.content, s.page_start, s.page_end, s.anchor, c.folder
       FROM ${this.t.collections} c
       JOIN ${this.t.documents} d ON d.collection_id = c.id
       JOIN ${this.t.sections} s ON s.document_id = d.id
       WHERE c.bot = $1 AND c.name = $2 AND d.path = $3
       ORDER BY s.ord`,
      [this.bot, collection, id],
    );
    const rows = result.rows;
    if (!rows.length) return undefined;
    const conflict = readConflict(
      { bot: this.bot, collection, server: this.server },
      this.from,
      rows[0]!.folder,
    );
    if (conflict) throw conflict;
    const doc = documentsOf(
      rows.map((row) => ({ row, section: { ...sectionOf(row), titleTerms: [], bodyTerms: [] } })),
    )[0]!;
    return toDoc(collection, doc);
  }

  /** Reads the collections' documents per language (knownLanguages). */
  async readLanguages(client: pg.PoolClient, names: readonly string[]): Promise<void> {
    const result = await client.query<{ name: string; languages: Record<string, number> }>(
      `SELECT c.name, ${languagesColumn(this.t)}
       FROM ${this.t.collections} c WHERE c.bot = $1 AND c.name = ANY($2::text[])`,
      [this.bot, names],
    );
    for (const row of result.rows) this.knownLanguages.set(row.name, languageMix(row.languages));
  }

  async collectionRows(client: pg.PoolClient, names: readonly string[]) {
    const result = await client.query<CollectionRow>(
      `SELECT c.id, c.name, c.unit_count, c.document_count, c.title_length_sum, c.body_length_sum, c.analyzer,
              c.folder, ${languagesColumn(this.t)}
       FROM ${this.t.collections} c WHERE c.bot = $1 AND c.name = ANY($2::text[])`,
      [this.bot, names],
    );
    const rows = new Map(result.rows.map((r) => [r.name, r]));
    for (const row of rows.values()) this.knownLanguages.set(row.name, languageMix(row.languages));
    for (const row of rows.values()) {
      const conflict = readConflict(
        { bot: this.bot, collection: row.name, server: this.server },
        this.from,
        row.folder,
      );
      if (conflict) throw conflict;
    }
    const missing = names.filter((n) => !rows.has(n));
    if (missing.length) {
      throw new PostgresUnavailableError(
        `bot ${this.bot}: collection ${missing.join(", ")} is not indexed in PostgreSQL at ${this.server}; run second-look index ${this.bot}`,
      );
    }
    // Terms from another analyzer would silently match nothing, or the wrong words: such a
    // collection (its language changed since it was indexed) needs re-indexing.
    for (const name of names) {
      const expected = this.analysisOf(name).id;
      const built = rows.get(name)!.analyzer;
      if (built !== expected) {
        throw new PostgresUnavailableError(
          `bot ${this.bot}: collection ${name} was indexed with analyzer ${built}, but its language setting now needs ${expected}; run second-look index ${this.bot}`,
        );
      }
    }
    return rows;
  }

  /**
   * The collection's candidate sections for the query, as an index carrying the collection's
   * statistics: the sections the original query scores highest and, when the ranker will run its
   * feedback pass, those the expanded query scores highest — the two searches the embedded ranker
   * runs over the whole collection.
   */
  async candidates(
    client: pg.PoolClient,
    row: CollectionRow,
    query: string,
    rerank: boolean,
  ): Promise<CollectionIndex> {
    const analysis = this.analysisOf(row.name);
    // Inside the per-collection loop: each collection analyses the query in its own language (an
    // "auto" one in the query's language, or every language holding enough of its documents, by
    // the embedded engine's rule, analysis/collection-analysis.ts), and meets compounds through
    // its vocabulary as the embedded engine does (ranking-core/query-terms.ts).
    const languages = languageMix(row.languages);
    const analyzer = analysis.queryAnalyzer(languages, query);
    const { queryTerms, known, heldForms } = await this.queryTermsIn(client, row.id, query, analyzer);
    const frequency = (term: string) => known.get(term) ?? 0;
    const unitCount = Number(row.unit_count);
    const statistics: CollectionStatistics = {
      unitCount,
      avgTitleLength: unitCount ? Number(row.title_length_sum) / unitCount : 0,
      avgBodyLength: unitCount ? Number(row.body_length_sum) / unitCount : 0,
      documentFrequency: frequency,
      documentCount: Number(row.document_count),
      heldForm: (term) => heldForms.get(term),
    };
    const original = queryTermWeights(queryTerms, unitCount, frequency);
    // Each candidate once, in the packed form the index reads (its stored terms, unsplit),
    // however many passes bring it up.
    const sections = new Map<string, { row: CandidateRow; section: PackedSection }>();
    const indexOf = async (found: readonly AnalyzedRow[]) => {
      for (const r of found) sections.set(r.section_id, { row: r, section: packedSection(r) });
      const index = candidateCollection(
        row.name,
        documentsOf([...sections.values()]),
        statistics,
        analysis,
        languages,
      );
      // The feedback pass weighs every term of the documents its relevance model reads: their
      // terms need their collection frequencies too, and no others.
      const vocabulary = feedbackVocabulary(index, queryTerms, (term) => !known.has(term));
      if (!vocabulary.size) return index;
      for (const term of vocabulary) known.set(term, 0);
      for (const [term, df] of await this.documentFrequencies(client, row.id, [...vocabulary]))
        known.set(term, df);
      // `statistics` reads `known`: the same candidates, with those terms' frequencies.
      return index.restated();
    };
    // The page ranking reads every section of the leading documents (ranker.ts withPageEvidence):
    // those the passes did not bring are read too, so each page scores as in the embedded engine.
    const withWholePages = async (index: CollectionIndex) => {
      const paths = leadingDocumentIds(index, queryTerms, rerank);
      const rest = await this.otherSections(client, row.id, paths, [...sections.keys()]);
      return rest.length ? indexOf(rest) : index;
    };
    // A query term the collection holds that no section of the first pass does gets one section
    // holding it: the embedded index knows every term, and two readers ask the index's own terms
    // for a query word — the feedback pass's expanded query keeps only the original terms the
    // index holds (feedback.ts expandQuery), and the retry hints' rescue candidates take a word
    // the index lacks for one no document contains (ranking-core.ts vocabularyOf). Such a section
    // is none the first pass ranked high (it read the best CANDIDATE_POOL, twice what the ranker
    // keeps), so it is there to be counted, not to rank.
    const firstPass = await indexOf(await this.topSections(client, row.id, statistics, known, original, []));
    const missing = rankedQueryTerms(queryTerms).filter(
      (term) => known.get(term) && !holdsTerm(firstPass, term),
    );
    const first = missing.length
      ? await indexOf(await this.sectionsHolding(client, row.id, missing, [...sections.keys()]))
      : firstPass;
    if (!rerank || !original.size) return withWholePages(first);
    const expanded = expandedQueryWeights(first, queryTerms);
    if (!expanded) return withWholePages(first);
    return withWholePages(
      await indexOf(
        await this.topSections(client, row.id, statistics, known, expanded, [...sections.keys()]),
      ),
    );
  }

  /** For each of `terms`, its strongest posting's section, unless already fetched. */
  private async sectionsHolding(
    client: pg.PoolClient,
    collectionId: number,
    terms: readonly string[],
    fetched: readonly string[],
  ): Promise<AnalyzedRow[]> {
    const result = await client.query<AnalyzedRow>(
      `WITH held AS (
         SELECT DISTINCT q.section_id
         FROM unnest($2::text[]) AS t(term)
         CROSS JOIN LATERAL (
           SELECT section_id FROM ${this.t.postings}
           WHERE collection_id = $1 AND term = t.term
           ORDER BY impact DESC, section_id
           LIMIT 1
         ) q
       )
       SELECT ${ANALYZED_ROW_COLUMNS}
       FROM held h
       JOIN ${this.t.sections} s ON s.id = h.section_id
       JOIN ${this.t.documents} d ON d.id = s.document_id
       WHERE NOT (h.section_id = ANY($3::bigint[]))`,
      [collectionId, terms, fetched],
    );
    return result.rows;
  }

  /** The sections of the documents at `paths` not yet fetched (`fetched`: section ids). */
  private async otherSections(
    client: pg.PoolClient,
    collectionId: number,
    paths: readonly string[],
    fetched: readonly string[],
  ): Promise<AnalyzedRow[]> {
    if (!paths.length) return [];
    const result = await client.query<AnalyzedRow>(
      `SELECT ${ANALYZED_ROW_COLUMNS}
       FROM ${this.t.documents} d
       JOIN ${this.t.sections} s ON s.document_id = d.id
       WHERE d.collection_id = $1 AND d.path = ANY($2::text[]) AND NOT (s.id = ANY($3::bigint[]))`,
      [collectionId, paths, fetched],
    );
    return result.rows;
  }

  /**
   * The CANDIDATE_POOL sections scoring highest for a weighted query (term → idf × query
   * frequency), by BM25F in SQL over the postings read: every posting of each term when they
   * fit POSTINGS_BUDGET, else each term's strongest ones (postingDepths). A section reached only
   * through postings left unread scores little for every query term, which is what bounds the
   * work on a large collection. Sections in `fetched` (an earlier pass's) are scored but not
   * read again.
   */
  private async topSections(
    client: pg.PoolClient,
    collectionId: number,
    statistics: CollectionStatistics,
    known: ReadonlyMap<string, number>,
    weights: ReadonlyMap<string, number>,
    fetched: readonly string[],
  ): Promise<AnalyzedRow[]> {
    const depths = postingDepths(
      new Map([...weights.keys()].map((term) => [term, known.get(term) ?? 0])),
      POSTINGS_BUDGET,
    );
    if (!depths.size) return [];
    const terms = [...depths.keys()];
    const pf = pseudoFrequencySql(
      {
        titleTf: "p.title_tf",
        bodyTf: "p.body_tf",
        titleLength: "p.title_length",
        bodyLength: "p.body_length",
      },
      { title: "$5::float8", body: "$6::float8" },
      DEFAULT_BM25,
    );
    const result = await client.query<AnalyzedRow>(
      `WITH q AS (
         SELECT * FROM unnest($2::text[], $3::float8[], $4::int[]) AS q(term, weight, depth)
       ),
       scored AS (
         SELECT p.section_id, sum(q.weight * f.pf / (${DEFAULT_BM25.k1}::float8 + f.pf)) AS score
         FROM q
         CROSS JOIN LATERAL (
           SELECT section_id, title_tf, body_tf, title_length, body_length
           FROM ${this.t.postings}
           WHERE collection_id = $1 AND term = q.term
           ORDER BY impact DESC, section_id
           LIMIT q.depth
         ) p
         CROSS JOIN LATERAL (SELECT ${pf} AS pf) f
         GROUP BY p.section_id
         ORDER BY score DESC, p.section_id
         LIMIT $7
       )
       SELECT ${ANALYZED_ROW_COLUMNS}
       FROM scored sc
       JOIN ${this.t.sections} s ON s.id = sc.section_id
       JOIN ${this.t.documents} d ON d.id = s.document_id
       WHERE NOT (sc.section_id = ANY($8::bigint[]))`,
      [
        collectionId,
        terms,
        terms.map((term) => weights.get(term)!),
        terms.map((term) => depths.get(term)!),
        statistics.avgTitleLength || 1,
        statistics.avgBodyLength || 1,
        CANDIDATE_POOL,
        fetched,
      ],
    );
    return result.rows;
  }

  /**
   * The query's terms in a collection as the embedded engine finds them, with the collection
   * frequency of each term looked up (`known`): its analysis and the compound parts the collection
   * holds (ranking-core/query-terms.ts), and in a prefix-stemmed language a word in a form no
   * section holds as the form the collection does hold (`heldForms`, ranking-core/unseen-forms.ts).
   */
  private async queryTermsIn(
    client: pg.PoolClient,
    collectionId: number,
    query: string,
    analyzer: ReturnType<CollectionAnalysis["queryAnalyzer"]>,
  ): Promise<{ queryTerms: string[]; known: Map<string, number>; heldForms: Map<string, string> }> {
    const plan = queryTermPlan(query, analyzer);
    // One lookup for the query's terms and the compound parts that may join them (the parts it
    // chooses are among them; the others' frequencies are true ones, harmless to keep).
    const known = await this.documentFrequencies(client, collectionId, plan.lookups);
    const planned = plan.terms((term) => known.get(term) ?? 0);
    const found = await this.heldForms(
      client,
      collectionId,
      unseenFormPrefixes(query, planned, analyzer, (term) => known.has(term)),
    );
    const heldForms = new Map<string, string>();
    for (const [queried, { term, df }] of found) {
      known.set(term, df);
      heldForms.set(queried, term);
    }
    return { queryTerms: planned.map((term) => heldForms.get(term) ?? term), known, heldForms };
  }

  /**
   * For each query term in `prefixes`, the collection's most frequent term beginning with its
   * prefix (of equally frequent ones, the first in code-point order), with its frequency: the
   * held form ranking-core/unseen-forms.ts heldFormOf picks over a whole vocabulary. A term whose
   * prefix begins no term of the collection has none.
   */
  private async heldForms(
    client: pg.PoolClient,
    collectionId: number,
    prefixes: ReadonlyMap<string, string>,
  ): Promise<Map<string, { term: string; df: number }>> {
    if (!prefixes.size) return new Map();
    const queried = [...prefixes.keys()];
    const starts = queried.map((term) => prefixes.get(term)!);
    // Every term beginning with a prefix sorts, byte by byte, below the prefix followed by the
    // last code point: the range terms_by_prefix (pg-schema.ts) reads.
    const result = await client.query<{ queried: string; term: string; df: string }>(
      `SELECT q.queried, h.term, h.df
       FROM unnest($2::text[], $3::text[], $4::text[]) AS q(queried, prefix, upper)
       CROSS JOIN LATERAL (
         SELECT term, df FROM ${this.t.terms}
         WHERE collection_id = $1 AND term ~>=~ q.prefix AND term ~<~ q.upper
         ORDER BY df DESC, term COLLATE "C"
         LIMIT 1
       ) h`,
      [collectionId, queried, starts, starts.map((prefix) => `${prefix}\u{10FFFF}`)],
    );
    return new Map(result.rows.map((r) => [r.queried, { term: r.term, df: Number(r.df) }]));
  }

  private async documentFrequencies(
    client: pg.PoolClient,
    collectionId: number,
    terms: readonly string[],
  ): Promise<Map<string, number>> {
    if (!terms.length) return new Map();
    const result = await client.query<{ term: string; df: string }>(
      `SELECT term, df FROM ${this.t.terms} WHERE collection_id = $1 AND term = ANY($2::text[])`,
      [collectionId, terms],
    );
    return new Map(result.rows.map((r) => [r.term, Number(r.df)]));
  }
}

/**
 * Candidate sections grouped into documents, in path order with sections in reading order: the
 * order the embedded engine indexes them in, so ties break the same way.
 */
function documentsOf<S extends IndexableSection>(
  candidates: readonly { row: CandidateRow; section: S }[],
): { id: string; title: string; url?: string; modifiedTime?: string; sections: S[] }[] {
  const byPath = new Map<string, { doc: IndexableDocument; sections: [number, S][] }>();
  for (const { row: r, section } of candidates) {
    let entry = byPath.get(r.path);
    if (!entry) {
      const doc: IndexableDocument = { id: r.path, title: r.title, sections: [] };
      if (r.url) doc.url = r.url;
      if (r.modified_time) doc.modifiedTime = r.modified_time;
      entry = { doc, sections: [] };
      byPath.set(r.path, entry);
    }
    entry.sections.push([r.ord, section]);
  }
  return [...byPath.values()]
    .sort((a, b) => (a.doc.id < b.doc.id ? -1 : a.doc.id > b.doc.id ? 1 : 0))
    .map(({ doc, sections }) => ({
      ...doc,
      sections: sections.sort((a, b) => a[0] - b[0]).map(([, s]) => s),
    }));
}

function sectionOf(r: CandidateRow): IndexableSection {
  const section: IndexableSection = { headingPath: r.heading_path, content: r.content };
  if (r.heading !== null) section.heading = r.heading;
  if (r.level !== null) section.level = r.level;
  if (r.page_start !== null && r.page_end !== null) section.pages = { start: r.page_start, end: r.page_end };
  if (r.anchor !== null) section.anchor = r.anchor;
  return section;
}

/**
 * A candidate with the terms the writer analysed, as stored (space-separated: a term never holds
 * a space), which is the packed form the index reads; a row from schema version 1, which has
 * none stored, is analysed here.
 */
function packedSection(r: AnalyzedRow): PackedSection {
  const section = sectionOf(r);
  if (r.title_terms === null || r.body_terms === null) {
    const document: IndexableDocument = { id: r.path, title: r.title, sections: [section] };
    const analyzed = analyzeDocument(document).sections[0]!;
    return { ...section, titleTerms: analyzed.titleTerms.join(" "), bodyTerms: analyzed.bodyTerms.join(" ") };
  }
  return { ...section, titleTerms: r.title_terms, bodyTerms: r.body_terms };
}
