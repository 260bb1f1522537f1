import { realpath } from "node:fs/promises";
import type pg from "pg";
import { UnknownCollectionError } from "../../errors.js";
import { type NormalizedSearchRequest, normalizeSearchRequest } from "../../search-request.js";
import type { Doc, KnowledgeBackend, SearchRequest, SearchResponse } from "../../types.js";
import { CollectionAnalysis } from "../analysis/collection-analysis.js";
import {
  type CollectionSource,
  type DetectedLanguage,
  type RefreshReport,
  settingFor,
} from "../ingest-core.js";
import {
  analyzeDocument,
  CANDIDATE_UNITS,
  type CalibrationModel,
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
  RankingCore,
  rankedQueryTerms,
  type StoredCalibration,
  toDoc,
} from "../ranking-core/index.js";
import { pseudoFrequencySql } from "./pg-bm25f.js";
import { type BotFolder, readConflict } from "./pg-bot-folder.js";
import { CalibrationReader, writeCalibration } from "./pg-calibration.js";
import {
  connectionSecrets,
  connectionStringFor,
  describeServer,
  explainPostgresError,
  openPool,
  type PostgresTarget,
  PostgresUnavailableError,
} from "./pg-connection.js";
import { type PostgresRefreshOptions, refreshPostgresCollection } from "./pg-indexer.js";
import { recordedLanguage } from "./pg-language.js";
import { postingDepths } from "./pg-postings.js";
import { migrate, SCHEMA_VERSION, type Tables, tablesIn } from "./pg-schema.js";
import { inTransaction } from "./pg-writer.js";

/**
 * Postings the database reads per collection and search pass, at most, spread over the query's
 * terms by postingDepths (src/knowledge/postgres/pg-postings.ts): a query whose terms' postings
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
  s.heading, s.level, s.content, s.page_start, s.page_end, s.title_terms, s.body_terms`;

/** A candidate section with its analysed terms as stored (null in rows written by schema version 1). */
interface AnalyzedRow extends CandidateRow {
  /** bigint, as node-postgres returns it: a string. */
  section_id: string;
  title_terms: string | null;
  body_terms: string | null;
}

export interface PostgresBackendOptions extends PostgresTarget {
  /** The bot's collections: the only ones its searches may reach. */
  collections: Record<string, { paths: readonly string[]; exclude?: readonly string[]; language?: string }>;
  env?: NodeJS.ProcessEnv;
  /**
   * Whether `bot` is the bot's configured knowledge.postgres.botId (any folder may use it) or
   * taken from its folder's name (only the folder that indexed it may read or write it).
   */
  botIdConfigured?: boolean;
  /** The bot folder searches come from (checked against the folder that indexed under a name-derived key). */
  folder?: string;
}

/**
 * A bot's knowledge in PostgreSQL, shared by every process that serves the bot. Searching asks
 * the database for candidate sections (each query term's strongest postings from an
 * impact-ordered index, within POSTINGS_BUDGET, scored in SQL with BM25F from the stored term
 * frequencies and today's collection averages), then ranks them with the ranking core the
 * embedded engine ranks with (src/knowledge/ranking-core/), given the collection's statistics
 * from the database — so relevance, bands, the weak flag and hints are computed exactly as the
 * embedded engine computes them.
 * Every query is scoped to this bot's collections and parameterised.
 */
export class PostgresBackend implements KnowledgeBackend {
  private closing: Promise<void> | undefined;
  private readonly calibration: CalibrationReader;
  /** Each collection's documents per language, as last read (at open, after indexing, by a search). */
  private readonly knownLanguages = new Map<string, ReadonlyMap<string, number>>();
  /** Each collection's analysis as its searches use it (CollectionAnalysis.forSearch), set by open. */
  private readonly analyses = new Map<string, CollectionAnalysis>();
  private readonly detected = new Map<string, DetectedLanguage | undefined>();

  private constructor(
    private readonly target: PostgresTarget,
    private readonly configured: PostgresBackendOptions["collections"],
    private readonly pool: pg.Pool,
    private readonly server: string,
    private readonly t: Tables,
    private readonly botIdConfigured: boolean,
    private readonly folder: string | undefined,
    /** Never quoted in an error (pg-connection.ts connectionSecrets). */
    private readonly secrets: readonly string[],
  ) {
    this.calibration = new CalibrationReader(t, target.bot, server);
  }

  /**
   * Connects (failing with one clear line when the database cannot be used) and creates or
   * migrates the schema when it is missing or older than this code.
   */
  static async open(options: PostgresBackendOptions): Promise<PostgresBackend> {
    const target: PostgresTarget = { bot: options.bot, urlEnv: options.urlEnv, schema: options.schema };
    const connectionString = connectionStringFor(target, options.env);
    const server = describeServer(connectionString)!;
    const pool = openPool(target, connectionString);
    const folder =
      options.folder === undefined ? undefined : await realpath(options.folder).catch(() => options.folder);
    const backend = new PostgresBackend(
      target,
      options.collections,
      pool,
      server,
      tablesIn(target.schema),
      options.botIdConfigured === true,
      folder,
      connectionSecrets(connectionString),
    );
    for (const [name, collection] of Object.entries(options.collections)) {
      backend.analyses.set(name, await CollectionAnalysis.forSearch(collection.language));
    }
    try {
      await backend.run(async (client) => {
        const version = await client
          .query<{ value: string }>(`SELECT value FROM ${backend.t.meta} WHERE key = 'version'`)
          .catch((error: { code?: string }) => {
            if (error?.code === "42P01") return { rows: [] }; // undefined_table: a new database
            throw error;
          });
        if (Number(version.rows[0]?.value ?? 0) !== SCHEMA_VERSION) await migrate(client, target.schema);
        await backend.readLanguages(client);
        await backend.readDetectedLanguages(client);
      });
    } catch (error) {
      await pool.end().catch(() => {});
      throw error;
    }
    return backend;
  }

  collections(): string[] {
    return Object.keys(this.configured);
  }

  /** Brings every collection up to date with the bot's files (`second-look index`). */
  async refresh(botDir: string, options: PostgresRefreshOptions = {}): Promise<RefreshReport[]> {
    const from = {
      folder: await realpath(botDir),
      botIdConfigured: this.botIdConfigured,
      server: this.server,
    };
    return this.run(async (client) => {
      const reports: RefreshReport[] = [];
      for (const [name, config] of Object.entries(this.configured)) {
        const source: CollectionSource = { name, paths: config.paths };
        if (config.exclude) source.exclude = config.exclude;
        // Indexed with the analyzer its searches will expect (analysisOf): without it every
        // collection was written as English and then refused at search time.
        if (config.language !== undefined) source.language = config.language;
        reports.push(
          await refreshPostgresCollection(client, this.t, this.target.bot, botDir, source, {
            from,
            ...options,
          }),
        );
      }
      await this.readLanguages(client);
      await this.readDetectedLanguages(client);
      return reports;
    });
  }

  async search(request: SearchRequest, options: { signal?: AbortSignal } = {}): Promise<SearchResponse> {
    options.signal?.throwIfAborted();
    const normalized = normalizeSearchRequest(request);
    const core = await this.rankingCoreFor(normalized);
    options.signal?.throwIfAborted();
    return core.rank(normalized);
  }

  /**
   * A ranking core that answers `request` exactly as `search` does: the candidate sections it
   * needs from each collection, with the collections' statistics and the bot's calibration. What
   * `second-look calibrate` fits a postgres bot's calibration on.
   */
  engineFor(request: SearchRequest): Promise<RankingCore> {
    return this.rankingCoreFor(normalizeSearchRequest(request));
  }

  private async rankingCoreFor(request: NormalizedSearchRequest): Promise<RankingCore> {
    const names = this.resolveCollections(request.collections);
    const { query, rerank } = request;
    const { indexes, calibration } = await this.run((client) =>
      // One snapshot: statistics, candidates and calibration agree even while an indexer commits.
      inTransaction(
        client,
        async () => {
          const rows = await this.collectionRows(client, names);
          const out: CollectionIndex[] = [];
          for (const name of names) out.push(await this.candidates(client, rows.get(name)!, query, rerank));
          return { indexes: out, calibration: await this.calibration.read(client) };
        },
        "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",
      ),
    );
    return new RankingCore(indexes, calibration ? { calibration } : {});
  }

  /** The bot's own calibration stored in the database, or undefined (the shipped model applies). */
  storedCalibration(): Promise<CalibrationModel | undefined> {
    return this.run((client) => this.calibration.read(client));
  }

  /**
   * Stores the bot's own calibration (`second-look calibrate`); every process serving the bot
   * uses it from its next search. Returns where it went, for the report.
   */
  async storeCalibration(stored: StoredCalibration): Promise<string> {
    await this.run((client) => writeCalibration(client, this.t, this.target.bot, stored));
    return `${this.t.calibrations} (bot ${this.target.bot}) at PostgreSQL ${this.server}`;
  }

  async getDocument(collection: string, id: string): Promise<Doc | undefined> {
    if (!Object.hasOwn(this.configured, collection)) return undefined;
    const rows = await this.run(async (client) => {
      const result = await client.query<CandidateRow & { folder: string | null }>(
        `SELECT d.path, d.title, d.url, d.modified_time, s.ord, s.heading_path, s.heading, s.level,
                s.content, s.page_start, s.page_end, c.folder
         FROM ${this.t.collections} c
         JOIN ${this.t.documents} d ON d.collection_id = c.id
         JOIN ${this.t.sections} s ON s.document_id = d.id
         WHERE c.bot = $1 AND c.name = $2 AND d.path = $3
         ORDER BY s.ord`,
        [this.target.bot, collection, id],
      );
      return result.rows;
    });
    if (!rows.length) return undefined;
    const conflict = readConflict(
      { bot: this.target.bot, collection, server: this.server },
      this.from(),
      rows[0]!.folder,
    );
    if (conflict) throw conflict;
    const doc = documentsOf(
      rows.map((row) => ({ row, section: { ...sectionOf(row), titleTerms: [], bodyTerms: [] } })),
    )[0]!;
    return toDoc(collection, doc);
  }

  /**
   * A collection's documents per language they were analysed in, as last read from the database
   * (at open, after `refresh`, by each search): what an "auto" collection is named to the model by.
   */
  documentLanguages(collection: string): ReadonlyMap<string, number> | undefined {
    return this.knownLanguages.get(collection);
  }

  /** Closes the pool; safe to call twice. */
  close(): Promise<void> {
    this.closing ??= this.pool.end().catch(() => {});
    return this.closing;
  }

  /** How a configured collection's text is analysed (its `language` setting), as a search uses it. */
  private analysisOf(name: string): CollectionAnalysis {
    return this.analyses.get(name) ?? CollectionAnalysis.of(this.configured[name]?.language);
  }

  /** Where this process's searches come from, when it was opened for a bot folder. */
  private from(): BotFolder | undefined {
    return this.folder ? { folder: this.folder, botIdConfigured: this.botIdConfigured } : undefined;
  }

  private resolveCollections(requested: readonly string[] | undefined): string[] {
    if (!requested?.length) return this.collections();
    const out = [...new Set(requested)];
    for (const name of out) {
      if (!Object.hasOwn(this.configured, name)) throw new UnknownCollectionError(name, this.collections());
    }
    return out;
  }

  /** Runs work on a pooled connection; database failures come out as one explained line. */
  private async run<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw explainPostgresError(this.target, this.server, error, this.secrets);
    }
    let broken: Error | undefined;
    // A connection dropped between two statements (server restart, pg_terminate_backend) is
    // reported on the client, not by a query: without a listener it would crash the process.
    let dropped: Error | undefined;
    const onDropped = (error: Error) => {
      dropped ??= error;
    };
    client.on("error", onDropped);
    try {
      return await work(client);
    } catch (error) {
      const explained = explainPostgresError(this.target, this.server, dropped ?? error, this.secrets);
      // A connection that failed at the transport level is not handed out again.
      if (explained instanceof PostgresUnavailableError || dropped) broken = explained;
      throw explained;
    } finally {
      client.off("error", onDropped);
      client.release(broken ?? dropped);
    }
  }

  /** Reads every configured collection's documents per language (knownLanguages). */
  private async readLanguages(client: pg.PoolClient): Promise<void> {
    const result = await client.query<{ name: string; languages: Record<string, number> }>(
      `SELECT c.name, ${languagesColumn(this.t)}
       FROM ${this.t.collections} c WHERE c.bot = $1 AND c.name = ANY($2::text[])`,
      [this.target.bot, this.collections()],
    );
    for (const row of result.rows) this.knownLanguages.set(row.name, languageMix(row.languages));
  }

  /**
   * A collection with no `language` is searched in the language its index recorded when it was
   * detected (pg-language.ts); English until it is indexed.
   */
  private async readDetectedLanguages(client: pg.PoolClient): Promise<void> {
    for (const [name, config] of Object.entries(this.configured)) {
      if (config.language !== undefined) continue;
      const detected = (await recordedLanguage(client, this.t, this.target.bot, name))?.detected;
      this.detected.set(name, detected);
      this.analyses.set(
        name,
        await CollectionAnalysis.forSearch(detected ? settingFor(detected) : undefined),
      );
    }
  }

  /** What a collection with no `language` was detected to be in, once indexed (for `bots`/`index`). */
  detectedLanguage(collection: string): DetectedLanguage | undefined {
    return this.detected.get(collection);
  }

  private async collectionRows(client: pg.PoolClient, names: readonly string[]) {
    const result = await client.query<CollectionRow>(
      `SELECT c.id, c.name, c.unit_count, c.document_count, c.title_length_sum, c.body_length_sum, c.analyzer,
              c.folder, ${languagesColumn(this.t)}
       FROM ${this.t.collections} c WHERE c.bot = $1 AND c.name = ANY($2::text[])`,
      [this.target.bot, names],
    );
    const rows = new Map(result.rows.map((r) => [r.name, r]));
    for (const row of rows.values()) this.knownLanguages.set(row.name, languageMix(row.languages));
    for (const row of rows.values()) {
      const conflict = readConflict(
        { bot: this.target.bot, collection: row.name, server: this.server },
        this.from(),
        row.folder,
      );
      if (conflict) throw conflict;
    }
    const missing = names.filter((n) => !rows.has(n));
    if (missing.length) {
      throw new PostgresUnavailableError(
        `bot ${this.target.bot}: collection ${missing.join(", ")} is not indexed in PostgreSQL at ${this.server}; run second-look index ${this.target.bot}`,
      );
    }
    // Terms from another analyzer would silently match nothing, or the wrong words: such a
    // collection (its language changed since it was indexed) needs re-indexing.
    for (const name of names) {
      const expected = this.analysisOf(name).id;
      const built = rows.get(name)!.analyzer;
      if (built !== expected) {
        throw new PostgresUnavailableError(
          `bot ${this.target.bot}: collection ${name} was indexed with analyzer ${built}, but its language setting now needs ${expected}; run second-look index ${this.target.bot}`,
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
  private async candidates(
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
    const plan = queryTermPlan(query, analysis.queryAnalyzer(languages, query));
    // One lookup for the query's terms and the compound parts that may join them (the parts it
    // chooses are among them; the others' frequencies are true ones, harmless to keep).
    const known = await this.documentFrequencies(client, row.id, plan.lookups);
    const frequency = (term: string) => known.get(term) ?? 0;
    const queryTerms = plan.terms(frequency);
    const unitCount = Number(row.unit_count);
    const statistics: CollectionStatistics = {
      unitCount,
      avgTitleLength: unitCount ? Number(row.title_length_sum) / unitCount : 0,
      avgBodyLength: unitCount ? Number(row.body_length_sum) / unitCount : 0,
      documentFrequency: frequency,
      documentCount: Number(row.document_count),
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
