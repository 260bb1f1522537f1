import type pg from "pg";
import { CollectionAnalysis } from "../../knowledge/analysis/collection-analysis.js";
import { documentIdFor } from "../../knowledge/documents/document-id.js";
import {
  extractionChangedSince,
  rereadMessage,
  TEXT_EXTRACTION_VERSION,
} from "../../knowledge/documents/text-extraction.js";
import {
  admitFile,
  boundsKey,
  type CollectionSource,
  emptyRefreshReport,
  type IngestedDocument,
  type IngestLimits,
  IngestPool,
  type IngestResult,
  ingestLimits,
  listCollectionFiles,
  type RefreshProgress,
  type RefreshReport,
  refusedAgain,
  settingFor,
  warnOfWhatWasRead,
} from "../../knowledge/ingest-core.js";
import { KnowledgeError } from "../../knowledge/knowledge-error.js";
import type { AnalyzedDocument } from "../../knowledge/ranking-core/index.js";
import { logger } from "../../telemetry/logger.js";
import { type BotFolder, claimCollection } from "./pg-bot-folder.js";
import { type CollectionRun, checkSample, unsetCollectionLanguage } from "./pg-language.js";
import type { Tables } from "./pg-schema.js";
import {
  type DocumentToWrite,
  ensureCollection,
  keepSkipsOf,
  recordFileTimes,
  recordSkip,
  recordTextExtraction,
  replaceDocuments,
  type StoredFile,
  type StoredSkip,
  storedFiles,
  storedSkips,
} from "./pg-writer.js";

/** How long an index run waits for another one on the same collection before giving up. */
export const INDEX_LOCK_WAIT_MS = 10 * 60_000;
const LOCK_POLL_MS = 250;

/** The advisory-lock key of one bot's collection: indexers of it run one at a time. */
function lockKey(bot: string, collection: string): string {
  return `second-look:index:${bot}:${collection}`;
}

/**
 * Waits for the collection's index lock (a session lock: a crashed or killed indexer's
 * connection closes and the lock goes with it).
 */
async function acquireIndexLock(client: pg.PoolClient, bot: string, collection: string): Promise<void> {
  const started = Date.now();
  let told = false;
  for (;;) {
    const got = await client.query<{ ok: boolean }>("SELECT pg_try_advisory_lock(hashtext($1)) AS ok", [
      lockKey(bot, collection),
    ]);
    if (got.rows[0]!.ok) return;
    if (Date.now() - started > INDEX_LOCK_WAIT_MS) {
      throw new KnowledgeError(
        "index-locked",
        `bot ${bot}: collection ${collection} is being indexed by another process for over ${INDEX_LOCK_WAIT_MS / 60_000} minutes; try again when it finishes`,
      );
    }
    if (!told) {
      logger().info(
        { bot, collection },
        `waiting for another second-look index run on collection ${collection}`,
      );
      told = true;
    }
    await new Promise((done) => setTimeout(done, LOCK_POLL_MS));
  }
}

async function releaseIndexLock(client: pg.PoolClient, bot: string, collection: string): Promise<void> {
  await client.query("SELECT pg_advisory_unlock(hashtext($1))", [lockKey(bot, collection)]);
}

export interface PostgresRefreshOptions {
  onProgress?: RefreshProgress;
  /** The parser threads to use; else the process's shared pool for `limits`. */
  pool?: IngestPool;
  /** The bot's bounds on parsing one file (knowledge.ingest), for the pool made when none is given. */
  limits?: IngestLimits;
  /**
   * The bot folder the run comes from, and whether the bot's key is configured: a collection
   * another folder wrote under a name-derived key is refused before anything is written
   * (pg-bot-folder.ts). `server` names the database in that refusal.
   */
  from?: BotFolder & { server: string };
}

/**
 * Brings one collection in the database up to date with its files: one transaction per changed
 * file (so a run stopped at any point leaves every file either as it was or as it is now), files
 * with unchanged size and modification time are not read, changed ones whose content hash is the
 * same are not rewritten (their new size and time are recorded), and files that disappeared are
 * deleted. Files are parsed in the embedded engine's parser threads (index/ingest-pool.ts), under
 * the same per-file time and memory bounds: a file past a bound is skipped with a warning naming
 * it and the bound, the rest are indexed, and the refused file is not parsed again until it or
 * the bounds change. Two runs on one collection take turns on an
 * advisory lock; the one that waited then finds the work done.
 */
export async function refreshPostgresCollection(
  client: pg.PoolClient,
  t: Tables,
  bot: string,
  botDir: string,
  source: CollectionSource,
  options: PostgresRefreshOptions = {},
): Promise<RefreshReport> {
  const started = performance.now();
  const pool = options.pool ?? IngestPool.shared(options.limits ?? ingestLimits());
  let report = emptyRefreshReport(source.name);
  await acquireIndexLock(client, bot, source.name);
  try {
    const run: RefreshRun = { client, t, bot, botDir, source, pool, options };
    if (source.language !== undefined) {
      await indexFiles(run, source.language, report);
    } else {
      // A collection with no setting: the language recorded when it was first indexed, else the
      // majority of its sample, detected once (the embedded indexer's rule, index/detected-language.ts).
      const files = await listCollectionFiles(botDir, source);
      const recorded = await unsetCollectionLanguage(run, files);
      report.detectedLanguage = recorded.detected;
      const id = await indexFiles(run, settingFor(recorded.detected), report);
      const checked = await checkSample(run, files, id, recorded);
      report.detectedLanguage = checked.detected;
      if (checked.moved) {
        logger().info(
          { collection: source.name, from: checked.detected.tag, to: checked.moved.tag },
          `collection ${source.name}: most sampled documents now read as ${checked.moved.tag}, not ${checked.detected.tag}: re-indexing every file`,
        );
        report = emptyRefreshReport(source.name);
        report.detectedLanguage = checked.moved;
        const again = await indexFiles(run, settingFor(checked.moved), report);
        await checkSample(run, files, again, {
          detected: checked.moved,
          fresh: true,
        });
      }
    }
  } finally {
    await releaseIndexLock(client, bot, source.name).catch(() => {});
  }
  warnOfWhatWasRead(source.name, report);
  report.ms = Math.round(performance.now() - started);
  return report;
}

/** What one refresh run works with, the same for every pass over the collection's files. */
interface RefreshRun extends CollectionRun {
  options: PostgresRefreshOptions;
}

/**
 * One pass over the collection's files in one language, under the caller's index lock: the
 * collection's row (emptied when its analysis changed), then every file, then what is gone.
 * Returns the collection's id.
 */
async function indexFiles(
  run: RefreshRun,
  language: string | undefined,
  report: RefreshReport,
): Promise<number> {
  const { client, t, bot, botDir, source, pool, options } = run;
  const stored = await readStoredCollection(client, t, bot, source, language);
  const { id, rereadSince, previous } = stored;
  const files = await listCollectionFiles(botDir, source, report);
  report.files = files.length;
  if (options.from)
    await claimForFolder(client, t, { bot, source, id, botDir, files, previous }, options.from);
  const context: RunContext = {
    botDir,
    previous,
    previousSkips: stored.previousSkips,
    skips: [],
    bounds: boundsKey(pool.limits),
    seen: new Set<string>(),
    report,
    pool,
    client,
    t,
    id,
    language,
    reread: (path) => rereadSince !== undefined && extractionChangedSince(rereadSince, path),
  };
  await refreshFiles(files, context, (done) =>
    options.onProgress?.({ collection: source.name, done, total: files.length }),
  );
  // Only a run that read every file records the extraction: an interrupted one is re-read again.
  if (rereadSince !== undefined && report.pending === 0) await recordTextExtraction(client, t, id);
  await removeVanished(context);
  return id;
}

/** The collection's row (made if new), the files and refusals stored for it, and whether to re-read. */
async function readStoredCollection(
  client: pg.PoolClient,
  t: Tables,
  bot: string,
  source: CollectionSource,
  language: string | undefined,
): Promise<{
  id: number;
  rereadSince: number | undefined;
  previous: Map<string, StoredFile>;
  previousSkips: Map<string, StoredSkip>;
}> {
  const { id, extractedBy } = await ensureCollection(
    client,
    t,
    bot,
    source.name,
    CollectionAnalysis.of(language).id,
  );
  // Stored text from an older extraction keeps what the loaders now drop: the files of the
  // formats it changed are read again (searches go on reading the stored text until each file
  // is replaced), the others stay as they are.
  const rereadSince = extractedBy < TEXT_EXTRACTION_VERSION ? extractedBy : undefined;
  if (rereadSince !== undefined) {
    logger().warn(
      { bot, collection: source.name, builtWith: rereadSince, extraction: TEXT_EXTRACTION_VERSION },
      rereadMessage(source.name, rereadSince),
    );
  }
  const previous = new Map((await storedFiles(client, t, id)).map((f) => [f.path, f]));
  const previousSkips = new Map((await storedSkips(client, t, id)).map((s) => [s.path, s]));
  return { id, rereadSince, previous, previousSkips };
}

/** Refuses a collection another bot folder wrote (pg-bot-folder.ts), before anything is written. */
async function claimForFolder(
  client: pg.PoolClient,
  t: Tables,
  run: {
    bot: string;
    source: CollectionSource;
    id: number;
    botDir: string;
    files: readonly string[];
    previous: ReadonlyMap<string, StoredFile>;
  },
  from: BotFolder & { server: string },
): Promise<void> {
  const current = new Set<string>();
  for (const file of run.files) {
    const path = documentIdFor(run.botDir, file);
    if (path !== undefined) current.add(path);
  }
  await claimCollection(
    client,
    t,
    { bot: run.bot, collection: run.source.name, collectionId: run.id, server: from.server },
    from,
    [...run.previous.keys()],
    current,
  );
}

/**
 * Refreshes every file: parses run in parallel in the pool's threads; the database work is one
 * connection's, so every statement goes through `c.serially`, one file's transaction after another.
 */
async function refreshFiles(
  files: readonly string[],
  c: RunContext,
  onDone: (done: number) => void,
): Promise<void> {
  let failure: { error: unknown } | undefined;
  const oneByOne = oneAtATime();
  // After a failed write, files still being parsed are not written: the run is ending.
  const context: FileContext = {
    ...c,
    serially: (work) => oneByOne(() => (failure ? Promise.reject(failure.error) : work())),
  };
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < files.length && !failure) {
      const absPath = files[next++]!;
      try {
        await refreshFile(absPath, context);
      } catch (error) {
        failure ??= { error };
        return;
      }
      done++;
      onDone(done);
    }
  };
  // Enough files in flight to keep every parser thread busy while one file is being written.
  const concurrency = Math.min(files.length, Math.max(2, c.pool.limits.workers * 2));
  await Promise.all(Array.from({ length: concurrency }, worker));
  if (failure) throw failure.error;
}

/** Deletes the documents whose files are gone, and forgets refusals of files no longer refused. */
async function removeVanished(c: RunContext): Promise<void> {
  for (const path of c.previous.keys()) {
    if (c.seen.has(path)) continue;
    await replaceDocuments(c.client, c.t, c.id, [], [path]);
    c.report.removed++;
    c.report.written = true;
  }
  await keepSkipsOf(
    c.client,
    c.t,
    c.id,
    c.skips.map((s) => s.path),
  );
}

/** Runs async work strictly one piece after another, in the order it was handed in. */
function oneAtATime(): <T>(work: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return (work) => {
    const run = tail.then(work);
    tail = run.catch(() => {});
    return run;
  };
}

interface FileContext {
  botDir: string;
  previous: ReadonlyMap<string, StoredFile>;
  /** Paths still present (a file that can no longer be read leaves the index, as in the embedded engine). */
  seen: Set<string>;
  /** Files refused by an earlier run, and those refused by this one. */
  previousSkips: ReadonlyMap<string, StoredSkip>;
  skips: StoredSkip[];
  /** This run's per-file bounds (boundsKey). */
  bounds: string;
  report: RefreshReport;
  pool: IngestPool;
  serially: <T>(work: () => Promise<T>) => Promise<T>;
  client: pg.PoolClient;
  t: Tables;
  id: number;
  /** The collection's language setting, for the parser thread's analyzer. */
  language: string | undefined;
  /** Whether a file is parsed even when unchanged: its stored text came from an older extraction. */
  reread: (path: string) => boolean;
}

/** A run's state, shared by its files. */
type RunContext = Omit<FileContext, "serially">;

async function refreshFile(absPath: string, c: FileContext): Promise<void> {
  const { report } = c;
  const admitted = await admitFile(c.botDir, absPath, report);
  if (!admitted) return;
  const { path, info } = admitted;
  const file = { path, size: info.size, mtimeMs: info.mtimeMs };
  const before = c.previous.get(path);
  const reread = c.reread(path);
  if (keptWithoutParsing(file, before, reread, c)) return;
  const result = await c.pool.ingest({
    absPath,
    id: path,
    // A known hash lets the parser skip an unchanged file: not when its text must be extracted again.
    ...(before && !reread ? { knownHash: before.contentHash } : {}),
    ...(c.language !== undefined ? { language: c.language } : {}),
  });
  if (!result.ok) {
    await recordNotRead(file, before, result, c);
    return;
  }
  c.seen.add(path);
  if (result.unchanged) {
    // Another host's copy of the same file has another mtime: the hash decides, and the new
    // size and time are recorded so the next run does not read the file again.
    report.unchanged++;
    report.touched++;
    await c.serially(() => recordFileTimes(c.client, c.t, c.id, path, file.size, file.mtimeMs));
    report.written = true;
    return;
  }
  if (result.document.decodedAs) report.guessedEncodings.push({ path, encoding: result.document.decodedAs });
  await writeDocument(file, result.document, c);
  if (before) report.updated++;
  else report.added++;
  report.written = true;
}

/** A file as the run found it on disk. */
interface FoundFile {
  path: string;
  size: number;
  mtimeMs: number;
}

/**
 * True (and counted) when the file needs no parse: unchanged since it was stored, or unchanged
 * since it was refused under the same bounds (refused again without paying for the parse).
 */
function keptWithoutParsing(
  file: FoundFile,
  before: StoredFile | undefined,
  reread: boolean,
  c: FileContext,
): boolean {
  if (before && !reread && before.size === file.size && before.mtimeMs === file.mtimeMs) {
    c.seen.add(file.path);
    c.report.unchanged++;
    return true;
  }
  const refused = c.previousSkips.get(file.path);
  if (refused && refusedAgain(refused, refused.bounds, file, c.bounds)) {
    c.report.skipped.push({ path: file.path, reason: refused.reason });
    c.skips.push(refused);
    return true;
  }
  return false;
}

/** A file the parser did not read: pending when the pool stopped, else skipped (and remembered). */
async function recordNotRead(
  file: FoundFile,
  before: StoredFile | undefined,
  result: Extract<IngestResult, { ok: false }>,
  c: FileContext,
): Promise<void> {
  if (result.stopped) {
    // The pool was closed under us: not the file's fault, its stored version stays.
    if (before) c.seen.add(file.path);
    c.report.pending++;
    return;
  }
  const skip: StoredSkip = { ...file, reason: result.reason, bounds: c.bounds };
  c.report.skipped.push({ path: file.path, reason: result.reason });
  // A failure of the install (a parser that cannot load) is not the file's: not remembered.
  if (!result.notTheFile) {
    c.skips.push(skip);
    await c.serially(() => recordSkip(c.client, c.t, c.id, skip));
  }
}

/** Replaces the file's stored document with the one the parser thread analysed. */
async function writeDocument(file: FoundFile, document: IngestedDocument, c: FileContext): Promise<void> {
  const analyzed: AnalyzedDocument = {
    id: file.path,
    title: document.title,
    ...(document.url !== undefined ? { url: document.url } : {}),
    ...(document.modifiedTime !== undefined ? { modifiedTime: document.modifiedTime } : {}),
    // The language the parser thread analysed it in (detected per document for "auto").
    language: document.language,
    sections: document.sections.map((s) => ({
      ...s,
      titleTerms: unpackTerms(s.titleTerms),
      bodyTerms: unpackTerms(s.bodyTerms),
    })),
  };
  const write: DocumentToWrite = { ...file, contentHash: document.contentHash, document: analyzed };
  await c.serially(() => replaceDocuments(c.client, c.t, c.id, [write]));
}

/** A parser thread's terms (joined by single spaces, to cross the thread boundary fast) as a list. */
function unpackTerms(packed: string): string[] {
  return packed === "" ? [] : packed.split(" ");
}
