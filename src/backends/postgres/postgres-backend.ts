import { realpath } from "node:fs/promises";
import type pg from "pg";
import { UnknownCollectionError } from "../../errors.js";
import { CollectionAnalysis } from "../../knowledge/analysis/collection-analysis.js";
import {
  type CollectionSource,
  type DetectedLanguage,
  type RefreshReport,
  settingFor,
} from "../../knowledge/ingest-core.js";
import {
  type CalibrationModel,
  type CollectionIndex,
  RankingCore,
  type StoredCalibration,
} from "../../knowledge/ranking-core/index.js";
import { type NormalizedSearchRequest, normalizeSearchRequest } from "../../search-request.js";
import type { Doc, KnowledgeBackend, SearchRequest, SearchResponse } from "../../types.js";
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
import { PostgresReads } from "./pg-reads.js";
import { ensureSchema, type Tables, tablesIn } from "./pg-schema.js";
import { inTransaction } from "./pg-writer.js";

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
  private readonly reads: PostgresReads;
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
    this.reads = new PostgresReads(
      t,
      target.bot,
      server,
      folder ? { folder, botIdConfigured } : undefined,
      (name) => this.analysisOf(name),
    );
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
        await ensureSchema(client, target.schema);
        await backend.reads.readLanguages(client, backend.collections());
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
      await this.reads.readLanguages(client, this.collections());
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
          const rows = await this.reads.collectionRows(client, names);
          const out: CollectionIndex[] = [];
          for (const name of names)
            out.push(await this.reads.candidates(client, rows.get(name)!, query, rerank));
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
    return this.run((client) => this.reads.document(client, collection, id));
  }

  /**
   * A collection's documents per language they were analysed in, as last read from the database
   * (at open, after `refresh`, by each search): what an "auto" collection is named to the model by.
   */
  documentLanguages(collection: string): ReadonlyMap<string, number> | undefined {
    return this.reads.knownLanguages.get(collection);
  }

  /** What a collection with no `language` was detected to be in, once indexed (for `bots`/`index`). */
  detectedLanguage(collection: string): DetectedLanguage | undefined {
    return this.detected.get(collection);
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

  /** Closes the pool; safe to call twice. */
  close(): Promise<void> {
    this.closing ??= this.pool.end().catch(() => {});
    return this.closing;
  }

  /** How a configured collection's text is analysed (its `language` setting), as a search uses it. */
  private analysisOf(name: string): CollectionAnalysis {
    return this.analyses.get(name) ?? CollectionAnalysis.of(this.configured[name]?.language);
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
}
