import { readdir, type Stats } from "node:fs";
import { stat } from "node:fs/promises";
import { dirname } from "node:path";
import { glob } from "tinyglobby";
import { escapeControlCharacters } from "../../knowledge-tool/untrusted-text.js";
import { logger } from "../../telemetry/logger.js";
import { CollectionAnalysis } from "../analysis/collection-analysis.js";
import { DEFAULT_LANGUAGE } from "../analysis/registry.js";
import { type DetectedLanguage, detectedLanguageLine } from "../analysis/unset-language.js";
import {
  countByExtension,
  describeUnreadTypes,
  isRefusedByType,
  unsupportedReason,
} from "../documents/document-format.js";
import { documentIdFor } from "../documents/document-id.js";
import { isLexicallyInside, resolvedPath } from "../documents/inside-folder.js";
import {
  extractionChangedSince,
  rereadMessage,
  TEXT_EXTRACTION_VERSION,
} from "../documents/text-extraction.js";
import {
  detectFromSample,
  languageOfSample,
  sampleFingerprint,
  sampleOfFiles,
  settingFor,
  storedDetection,
} from "./detected-language.js";
import {
  type IndexStore,
  type SavedCollection,
  type SkippedFile,
  STORE_VERSION,
  type StoreLoad,
} from "./index-store.js";
import type { IngestResult } from "./ingest-file.js";
import { boundsKey, type IngestLimits, ingestLimits, refusedAgain } from "./ingest-limits.js";
import { IngestPool } from "./ingest-pool.js";
import type { LexicalImage } from "./lexical-index.js";
import type { StoredDocument } from "./stored-document.js";

/** Where a collection's files come from: globs relative to the bot folder. */
export interface CollectionSource {
  name: string;
  paths: readonly string[];
  exclude?: readonly string[];
  /** The collection's `language` setting: a tag or "auto"; absent: English. */
  language?: string;
}

export interface RefreshReport {
  collection: string;
  files: number;
  added: number;
  updated: number;
  removed: number;
  unchanged: number;
  /** Of the unchanged: files whose modification time or size moved but whose bytes did not (recorded). */
  touched: number;
  /** Files not looked at because the refresh was stopped (its time budget ran out); their stored version, if any, is kept. */
  pending: number;
  skipped: { path: string; reason: string }[];
  /** Files read in a guessed encoding: not UTF-8 and declaring none (documents/guess-encoding.ts). */
  guessedEncodings: { path: string; encoding: string }[];
  /** True when the stored index was rewritten. */
  written: boolean;
  /**
   * For a collection with no `language` setting: the language its documents were found to be
   * in and are analysed in (searches analyse queries in it too), and what decided it.
   */
  detectedLanguage?: DetectedLanguage;
  /**
   * Set when the index had changes but could not be saved (a full disk, a read-only or
   * unwritable folder; refresh's keepWhenUnsaved): the error's code. The stored index is the
   * last good one; the returned documents are the files as read now.
   */
  unsaved?: string;
  ms: number;
}

/**
 * `done` of `total` files looked at; `read`: of those, the files read and parsed (added or
 * updated), so a reporter can tell real indexing from a refresh that finds nothing changed.
 */
export interface RefreshProgressEvent {
  collection: string;
  done: number;
  total: number;
  /** Of `done`, the items that cost real work (files read); absent: all of them. */
  read?: number;
}

export type RefreshProgress = (event: RefreshProgressEvent) => void;

/** Never indexed, whatever the globs say: our own state and dependency trees. */
export const ALWAYS_EXCLUDED = ["**/.second-look/**", "**/node_modules/**", "**/.git/**"];
/** A bot's collection is documents, not a disk: past this many files the rest are skipped. */
export const MAX_FILES_PER_COLLECTION = 200_000;

export interface RefreshOptions {
  onProgress?: RefreshProgress;
  /** The parser threads to use; else the process's shared pool for `limits`. */
  pool?: IngestPool;
  /** Bounds for the pool made when none is given. */
  limits?: IngestLimits;
  /**
   * Stops the refresh of a collection that has a stored index: no further file is started, files
   * in flight are withdrawn from their parser threads, and every file not done keeps its stored
   * version. A collection with no stored index has nothing to answer from, so its first refresh
   * runs to the end (each file still under its own bounds).
   */
  signal?: AbortSignal;
  /**
   * For commands that must answer: when the index cannot be saved for want of space or
   * permission (UNSAVABLE_CODES), return the refreshed documents anyway, with the code in the
   * report's `unsaved`, instead of failing. The stored index is left as it was.
   */
  keepWhenUnsaved?: boolean;
}

/**
 * Errors that mean the index's folder cannot take a save (no space, quota, read-only, no
 * permission, or a folder that cannot be created), not that anything is wrong with the index.
 */
export const UNSAVABLE_CODES: ReadonlySet<string> = new Set(["ENOSPC", "EDQUOT", "EROFS", "EACCES", "EPERM"]);

/** The code of an error that means the index cannot be saved where it is, or undefined. */
export function unsavableCode(error: unknown): string | undefined {
  const { code, syscall } = (error ?? {}) as NodeJS.ErrnoException;
  if (typeof code !== "string") return undefined;
  if (UNSAVABLE_CODES.has(code)) return code;
  // A folder that cannot be created because a parent vanished or is not a folder.
  if (syscall === "mkdir" && (code === "ENOENT" || code === "ENOTDIR")) return code;
  return undefined;
}

/**
 * Brings one collection's stored index up to date with its files. A file whose size and
 * modification time are unchanged is reused without being read; a changed one is read and
 * reused anyway if its content hash is the same (its new time is recorded); otherwise it is
 * parsed and analysed again in a parser thread, under the pool's time and memory bounds.
 * Files that disappeared are dropped. A file that cannot be loaded, or passes a bound, is
 * skipped with a warning naming it and the reason — one bad file never stops indexing — and
 * the index is only rewritten when something changed. A damaged stored index is rebuilt from
 * the files, with a warning saying what was wrong with it.
 */
/** A report with nothing done yet, for any backend that refreshes a collection from its files. */
export function emptyRefreshReport(collection: string): RefreshReport {
  return {
    collection,
    files: 0,
    added: 0,
    updated: 0,
    removed: 0,
    unchanged: 0,
    touched: 0,
    pending: 0,
    skipped: [],
    guessedEncodings: [],
    written: false,
    ms: 0,
  };
}

/**
 * What a refresh says of the stored index it found, before it reads a file: damaged (rebuilt),
 * built by another analysis or a newer extraction (re-indexed), or holding text an older
 * extraction made (the files of the formats it changed are read again, the others kept).
 */
function warnOfStoredIndex(
  collection: string,
  store: IndexStore,
  found: StoreLoad,
  analysis: CollectionAnalysis,
): void {
  if (found.state === "damaged") {
    logger().warn(
      { collection, directory: store.directory, reason: found.reason },
      `the stored index of collection ${collection} is damaged (${found.reason}); rebuilding it from the files`,
    );
  }
  if (found.state === "stale") {
    // Never silently stale: terms of another analysis would match nothing, or the wrong words.
    logger().warn(
      { collection, builtWith: found.builtWith, analyzer: analysis.id },
      staleMessage(collection, found, analysis),
    );
  }
  if (found.state === "loaded" && found.extractedBy < TEXT_EXTRACTION_VERSION) {
    logger().warn(
      { collection, builtWith: found.extractedBy, extraction: TEXT_EXTRACTION_VERSION },
      rereadMessage(collection, found.extractedBy),
    );
  }
}

/** Why a stored index is re-built: its language changed, its language's analysis did, or its extraction. */
function staleMessage(
  collection: string,
  found: Extract<StoreLoad, { state: "stale" }>,
  analysis: CollectionAnalysis,
): string {
  if (found.cause === "extraction") {
    return `collection ${collection} was indexed by a newer version (${found.builtWith}; this version extracts text as version ${TEXT_EXTRACTION_VERSION}): re-indexing every file`;
  }
  return `collection ${collection} was indexed with analyzer ${found.builtWith}; ${analysis.changeSince(found.builtWith)} (analyzer ${analysis.id}): re-indexing every file`;
}

export async function refreshCollection(
  botDir: string,
  source: CollectionSource,
  store: IndexStore,
  options: RefreshOptions = {},
): Promise<RefreshedCollection> {
  if (source.language !== undefined) return refreshAs(botDir, source, store, options, undefined);
  const started = performance.now();
  const pool = options.pool ?? IngestPool.shared(options.limits ?? ingestLimits());
  const withPool = { ...options, pool };
  // Listed once for the detection and every pass of this run; each pass's report names what the
  // listing could not read.
  const listing = emptyRefreshReport(source.name);
  const files = await listCollectionFiles(botDir, source, listing);
  const listed: CollectionListing = { files, skipped: listing.skipped };
  let run: UnsetRun;
  const recorded = await storedDetection(store, source.name);
  if (recorded) run = { ...recorded, files, record: false };
  else {
    // Decided once, before the files are analysed. An index that stands (in English, what an
    // unset collection always was) lends the sample its text and keeps answering meanwhile: a
    // stop leaves the language undecided, never a search waiting on a slow sample file.
    const found = await store.inspect(source.name, CollectionAnalysis.of(undefined).id);
    const standing =
      found.state === "loaded"
        ? {
            documents: new Map(found.documents.map((d) => [d.path, d])),
            skipped: new Map(found.skipped.map((s) => [s.path, s])),
            limits: boundsKey(pool.limits),
          }
        : undefined;
    const decided = await detectFromSample(botDir, files, pool, {
      ...(standing && options.signal ? { signal: options.signal } : {}),
      ...(standing ? { standing } : {}),
    });
    if (decided.detected === undefined) {
      const refreshed = await refreshAs(botDir, source, store, withPool, undefined, listed);
      // Unfinished, whatever the stopped run had left: the sample is still to read (by a
      // background refresh, or the next run).
      refreshed.report.pending = Math.max(refreshed.report.pending, decided.unread);
      return refreshed;
    }
    run = {
      detected: decided.detected,
      files,
      record: true,
      ...(decided.preparsed ? { preparsed: decided.preparsed } : {}),
    };
  }
  let refreshed = await refreshAs(botDir, source, store, withPool, run, listed);
  if (refreshed.moved) {
    logger().info(
      { collection: source.name, from: run.detected.tag, to: refreshed.moved.tag },
      `collection ${source.name}: most sampled documents now read as ${refreshed.moved.tag}, not ${run.detected.tag}: re-indexing every file`,
    );
    refreshed = await refreshAs(
      botDir,
      source,
      store,
      withPool,
      { detected: refreshed.moved, files, record: true },
      listed,
    );
  }
  const { documents, report, image } = refreshed;
  report.ms = Math.round(performance.now() - started);
  return { documents, report, ...(image ? { image } : {}) };
}

/** How a run of a collection with no `language` analyses it, and what it records. */
interface UnsetRun {
  detected: DetectedLanguage;
  files: string[];
  /** The detection is new: the index records it (saved even when no file changed). */
  record: boolean;
  /** The sample's files as the detection parsed them (in English), to use instead of parsing again. */
  preparsed?: ReadonlyMap<string, IngestResult>;
  /** The sample the record was decided or last checked on (sampleFingerprint); absent: not yet. */
  sample?: string;
}

/** A collection's files as one listing found them, with the folders it could not read. */
interface CollectionListing {
  files: string[];
  skipped: RefreshReport["skipped"];
}

/**
 * One collection's refresh in one language (`unset`: a collection with no setting, as detected),
 * of the files `listed` (listed now when not given).
 */
async function refreshAs(
  botDir: string,
  source: CollectionSource,
  store: IndexStore,
  options: RefreshOptions,
  unset: UnsetRun | undefined,
  listed?: CollectionListing,
): Promise<RefreshedCollection & { moved?: DetectedLanguage }> {
  const started = performance.now();
  const language = unset ? settingFor(unset.detected) : source.language;
  const analysis = CollectionAnalysis.of(language);
  const found = await store.inspect(source.name, analysis.id);
  warnOfStoredIndex(source.name, store, found, analysis);
  const extractedBy = found.state === "loaded" ? found.extractedBy : TEXT_EXTRACTION_VERSION;
  const previous = new Map(found.state === "loaded" ? found.documents.map((d) => [d.path, d]) : []);
  const previouslySkipped = new Map(found.state === "loaded" ? found.skipped.map((s) => [s.path, s]) : []);
  const stored = found.state === "loaded";
  // An index of an older store version is read as it is and rewritten in the current one below.
  const upgrade = found.state === "loaded" && found.version < STORE_VERSION;
  const signal = stored ? options.signal : undefined;
  const report = emptyRefreshReport(source.name);

  const files = listed ? listed.files : await listCollectionFiles(botDir, source, report);
  if (listed) report.skipped.push(...listed.skipped);
  report.files = files.length;
  if (unset) report.detectedLanguage = unset.detected;

  const pool = options.pool ?? IngestPool.shared(options.limits ?? ingestLimits());
  // Enough files in flight to keep every parser thread busy while others are being stat'ed.
  const concurrency = Math.max(8, pool.limits.workers * 4);
  const documents: (StoredDocument | undefined)[] = new Array(files.length);
  let done = 0;
  let next = 0;
  const limits = boundsKey(pool.limits);
  const skippedFiles: SkippedFile[] = [];
  const context = {
    botDir,
    previous,
    previouslySkipped,
    skippedFiles,
    limits,
    report,
    pool,
    signal,
    language,
    preparsed: unset?.preparsed,
    reread: (path: string) => extractionChangedSince(extractedBy, path),
  };
  const worker = async () => {
    while (next < files.length && !signal?.aborted) {
      const i = next++;
      documents[i] = await refreshFile(files[i]!, context);
      done++;
      const read = report.added + report.updated;
      options.onProgress?.({ collection: source.name, done, total: files.length, read });
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, files.length) }, worker));

  for (let i = next; i < files.length; i++) {
    report.pending++;
    const path = documentIdFor(botDir, files[i]!);
    documents[i] = path === undefined ? undefined : previous.get(path);
  }
  const kept = documents.filter((d): d is StoredDocument => d !== undefined);
  const keptPaths = new Set(kept.map((d) => d.path));
  for (const path of previous.keys()) if (!keptPaths.has(path)) report.removed++;
  // A run that read every file checks the sample: its language decides again when its documents changed.
  const checked = unset && report.pending === 0 ? await checkSample(botDir, unset, kept) : undefined;
  if (checked?.moved) return { documents: kept, report, moved: checked.moved };
  if (checked) report.detectedLanguage = checked.detected;
  warnOfWhatWasRead(source.name, report);
  const skipsChanged =
    skippedFiles.length !== previouslySkipped.size ||
    skippedFiles.some((s) => previouslySkipped.get(s.path)?.reason !== s.reason);
  const changed = report.added || report.updated || report.removed || report.touched || skipsChanged;
  let saved: SavedCollection | undefined; // what a save wrote: terms as ids, its index if stored
  // Every file of the formats an older extraction made was read again: the index says so.
  const reextracted = extractedBy < TEXT_EXTRACTION_VERSION && report.pending === 0;
  if (changed || !stored || upgrade || reextracted || unset?.record || checked?.changed) {
    try {
      const record = unset && {
        ...(checked?.detected ?? unset.detected),
        ...((checked?.sample ?? unset.sample) !== undefined
          ? { sample: checked?.sample ?? unset.sample }
          : {}),
      };
      // A run that stopped before every file was read keeps some text of the older extraction:
      // recorded as that one's, so the next run reads the rest again.
      const extraction = report.pending === 0 ? TEXT_EXTRACTION_VERSION : extractedBy;
      saved = await store.save(source.name, kept, skippedFiles, analysis.id, {
        ...(record ? { detected: record } : {}),
        extraction,
      });
      report.written = true;
      if (upgrade) {
        logger().info(
          { collection: source.name, directory: store.directory, from: found.version, to: STORE_VERSION },
          `collection ${source.name}: stored index rewritten in store version ${STORE_VERSION} (was ${found.version}); nothing re-read`,
        );
      }
    } catch (error) {
      const code = unsavableCode(error);
      if (!options.keepWhenUnsaved || code === undefined) throw error;
      report.unsaved = `${code}: ${(error as Error).message}`;
    }
  } else {
    // Nothing to save, so no save cleans up: strays a concurrent run left are removed here.
    await store.removeStraysOf(source.name).catch(() => undefined);
  }
  report.ms = Math.round(performance.now() - started);
  if (saved) return { ...saved, report };
  const image = found.state === "loaded" ? found.image : undefined;
  return image && sameUnits(kept, found.state === "loaded" ? found.documents : [])
    ? { documents: kept, report, image }
    : { documents: kept, report };
}

/** A collection's documents as refreshed, and the stored lexical index of them when it still fits. */
export interface RefreshedCollection {
  documents: StoredDocument[];
  report: RefreshReport;
  /** The stored index's image (index-store.ts), when the documents' sections are the stored ones, in order. */
  image?: LexicalImage;
}

/** Whether the documents hold the very sections the stored ones do, in the same order (a touched file keeps its sections). */
function sameUnits(documents: readonly StoredDocument[], stored: readonly StoredDocument[]): boolean {
  return documents.length === stored.length && documents.every((d, i) => d.sections === stored[i]!.sections);
}

/**
 * The sample of an unset collection after a run that read every file: unchanged since the record
 * (its fingerprint), nothing to do; else its language read again — `moved` when the majority is
 * another language now, else the record brought up to date (`changed` when it needs saving).
 */
async function checkSample(
  botDir: string,
  unset: UnsetRun,
  kept: readonly StoredDocument[],
): Promise<{ detected: DetectedLanguage; sample: string; changed: boolean; moved?: DetectedLanguage }> {
  const members = sampleOfFiles(botDir, unset.files);
  const byId = new Map(kept.map((d) => [d.path, d]));
  const sample = sampleFingerprint(members, byId);
  if (sample === unset.sample) return { detected: unset.detected, sample, changed: false };
  // Decided from this very sample a moment ago: only its fingerprint is new.
  if (unset.record) return { detected: unset.detected, sample, changed: true };
  const now = await languageOfSample(members.flatMap((m) => byId.get(m.id) ?? []));
  if (now.tag !== unset.detected.tag) return { detected: unset.detected, sample, changed: false, moved: now };
  return { detected: now, sample, changed: true };
}

/**
 * What an indexer says once it has read a collection's files, the same on both backends: a
 * warning per file it skipped, with the reason, and per file it read in a guessed encoding; and
 * for a collection with no `language`, the language it is analysed in and what decided it
 * (analysis/unset-language.ts), when other than English — the only line that says the documents
 * are not analysed as English.
 */
export function warnOfWhatWasRead(collection: string, report: RefreshReport): void {
  const { byType, others } = skipsByKind(report.skipped);
  for (const skip of others) {
    logger().warn(
      { collection, file: skip.path, reason: skip.reason },
      // A file name is anyone's to choose: a bidirectional override in it must not reorder the line.
      `skipped ${escapeControlCharacters(skip.path)}: ${skip.reason}`,
    );
  }
  if (byType) {
    logger().warn(
      { collection, unreadTypes: byType },
      `collection ${collection}: skipped ${describeUnreadTypes(byType)}`,
    );
  }
  for (const guessed of report.guessedEncodings) {
    logger().warn(
      { collection, file: guessed.path, encoding: guessed.encoding },
      `read ${escapeControlCharacters(guessed.path)} as ${guessed.encoding}: it is not valid UTF-8 and declares no encoding (re-save it as UTF-8, or declare its encoding, to be sure)`,
    );
  }
  const detected = report.detectedLanguage;
  if (detected && detected.tag !== DEFAULT_LANGUAGE && (report.added || report.updated)) {
    logger().info(
      { collection, language: detected.tag, key: `knowledge.collections.${collection}.language` },
      `collection ${collection}: ${detectedLanguageLine(collection, detected)}`,
    );
  }
}

/**
 * A run's skips as a person reads them: the files of types no loader reads counted per extension
 * (one line for a folder of images, not a line each), the others each with its reason.
 */
export function skipsByKind(skipped: RefreshReport["skipped"]): {
  byType: Record<string, number> | undefined;
  others: RefreshReport["skipped"];
} {
  const byType = skipped.filter((s) => isRefusedByType(s.reason)).map((s) => s.path);
  return {
    byType: byType.length > 0 ? countByExtension(byType) : undefined,
    others: skipped.filter((s) => !isRefusedByType(s.reason)),
  };
}

/**
 * Why a listed file could not be looked at, for the skip line. A name that is not valid UTF-8
 * comes back from the folder listing with U+FFFD in place of its bytes, which names no file:
 * said so, with what to do, rather than as a missing file.
 */
function statFailureReason(absPath: string, error: unknown): string {
  if ((error as NodeJS.ErrnoException)?.code === "ENOENT" && absPath.includes("\uFFFD")) {
    return "its file name is not valid UTF-8 (shown with \uFFFD where its bytes are); rename the file to index it";
  }
  return `cannot stat: ${(error as Error).message}`;
}

/**
 * A listed file as an indexer takes it: its id and its size and time, or undefined when it is
 * skipped (and reported): an id that would climb out of the bot folder (that would publish files
 * nobody listed), a type no loader reads — refused by its name and never remembered, so a
 * version that reads the type takes the file on its next refresh (document-format.ts
 * unsupportedReason) — or a failed stat.
 */
export async function admitFile(
  botDir: string,
  absPath: string,
  report: RefreshReport,
): Promise<{ path: string; info: Stats } | undefined> {
  const path = documentIdFor(botDir, absPath);
  if (path === undefined) {
    report.skipped.push({ path: absPath, reason: "outside the bot folder" });
    return undefined;
  }
  const unsupported = unsupportedReason(absPath);
  if (unsupported !== undefined) {
    report.skipped.push({ path, reason: unsupported });
    return undefined;
  }
  try {
    return { path, info: await stat(absPath) };
  } catch (error) {
    report.skipped.push({ path, reason: statFailureReason(absPath, error) });
    return undefined;
  }
}

/**
 * A collection's files (absolute paths, sorted) as its globs name them, without our own state
 * and dependency trees, at most MAX_FILES_PER_COLLECTION (the rest are named in a warning).
 * Files the bot folder does not hold once symlinks are resolved (a glob naming a symlinked
 * folder that leads out of it) are left out, and so are the files of a folder whose name is not
 * valid UTF-8 (no name the listing gives opens it): each is added to `report`'s skips, named.
 */
export async function listCollectionFiles(
  botDir: string,
  source: CollectionSource,
  report?: RefreshReport,
): Promise<string[]> {
  const unreadable = new Set<string>();
  let files = (
    await glob([...source.paths], {
      cwd: botDir,
      ignore: [...(source.exclude ?? []), ...ALWAYS_EXCLUDED],
      onlyFiles: true,
      absolute: true,
      followSymbolicLinks: false,
      expandDirectories: false,
      fs: { readdir: readdirNotingUnreadable(unreadable) },
    })
  ).sort();
  if (files.length > MAX_FILES_PER_COLLECTION) {
    logger().warn(
      { collection: source.name, files: files.length, limit: MAX_FILES_PER_COLLECTION },
      `collection ${source.name}: more than ${MAX_FILES_PER_COLLECTION} files; the rest are not indexed`,
    );
    files = files.slice(0, MAX_FILES_PER_COLLECTION);
  }
  for (const dir of [...unreadable].sort()) {
    report?.skipped.push({ path: `${documentIdFor(botDir, dir) ?? dir}/`, reason: NON_UTF8_FOLDER });
  }
  return filesInsideFolder(botDir, files, report);
}

const NON_UTF8_FOLDER =
  "its folder name is not valid UTF-8 (shown with \uFFFD where its bytes are), so none of the files in it can be opened; rename the folder to index them";

/**
 * The folder listing the glob walks with, noting each folder it could not open because its name
 * came back with U+FFFD for bytes that are not UTF-8 (the glob itself passes over it in silence).
 */
function readdirNotingUnreadable(unreadable: Set<string>): typeof readdir {
  const noting = (
    path: string,
    options: unknown,
    callback: (error: NodeJS.ErrnoException | null, entries: unknown) => void,
  ) =>
    readdir(path, options as { withFileTypes: true }, (error, entries) => {
      if (error?.code === "ENOENT" && path.includes("\uFFFD")) unreadable.add(path.replace(/[\\/]+$/, ""));
      callback(error, entries);
    });
  return noting as unknown as typeof readdir;
}

/**
 * The files whose folder, resolved, lies in the resolved bot folder (inside-folder.ts). The glob
 * lists no symlinked file, so resolving each folder once says where every file is.
 */
async function filesInsideFolder(
  botDir: string,
  files: string[],
  report: RefreshReport | undefined,
): Promise<string[]> {
  const root = await resolvedPath(botDir);
  const folders = new Map<string, Promise<boolean>>();
  const inside = await Promise.all(
    files.map((file) => {
      const folder = dirname(file);
      let held = folders.get(folder);
      if (!held) {
        held = resolvedPath(folder).then((real) => real === root || isLexicallyInside(real, root));
        folders.set(folder, held);
      }
      return held;
    }),
  );
  const kept: string[] = [];
  for (let i = 0; i < files.length; i++) {
    if (inside[i]) kept.push(files[i]!);
    else
      report?.skipped.push({
        path: documentIdFor(botDir, files[i]!) ?? files[i]!,
        reason: OUTSIDE_THE_FOLDER,
      });
  }
  return kept;
}

const OUTSIDE_THE_FOLDER = "outside the bot folder once symlinks are resolved";

interface RefreshContext {
  botDir: string;
  previous: ReadonlyMap<string, StoredDocument>;
  previouslySkipped: ReadonlyMap<string, SkippedFile>;
  /** Files refused this run, with what makes them worth trying again (a change, other bounds). */
  skippedFiles: SkippedFile[];
  limits: string;
  signal: AbortSignal | undefined;
  report: RefreshReport;
  pool: IngestPool;
  language: string | undefined;
  /** Files already parsed (the language sample's), by absolute path. */
  preparsed: ReadonlyMap<string, IngestResult> | undefined;
  /** Whether a file is parsed even when unchanged: its stored text came from an older extraction. */
  reread: (path: string) => boolean;
}

async function refreshFile(absPath: string, context: RefreshContext): Promise<StoredDocument | undefined> {
  const { botDir, previous, previouslySkipped, skippedFiles, limits, report, pool, signal, language } =
    context;
  const admitted = await admitFile(botDir, absPath, report);
  if (!admitted) return undefined;
  const { path, info } = admitted;
  const before = previous.get(path);
  const reread = context.reread(path);
  if (before && !reread && before.size === info.size && before.mtimeMs === info.mtimeMs) {
    report.unchanged++;
    return before;
  }
  const refused = previouslySkipped.get(path);
  if (refused && refusedAgain(refused, refused.limits, info, limits)) {
    // Unchanged since it was refused: refused again without paying for the parse again.
    report.skipped.push({ path, reason: refused.reason });
    skippedFiles.push(refused);
    return undefined;
  }
  // The language sample's parse is this run's when the file is new (no stored hash to compare).
  const preparsed = before ? undefined : context.preparsed?.get(absPath);
  const result: IngestResult =
    preparsed ??
    (await pool.ingest(
      {
        absPath,
        id: path,
        // A known hash lets the parser skip an unchanged file: not when its text must be extracted again.
        ...(before && !reread ? { knownHash: before.contentHash } : {}),
        ...(language !== undefined ? { language } : {}),
      },
      signal ? { signal } : {},
    ));
  if (!result.ok) {
    if (result.stopped) {
      report.pending++;
      return before;
    }
    report.skipped.push({ path, reason: result.reason });
    if (!result.notTheFile) {
      skippedFiles.push({ path, size: info.size, mtimeMs: info.mtimeMs, reason: result.reason, limits });
    }
    return undefined;
  }
  if (result.unchanged) {
    if (before) {
      report.unchanged++;
      report.touched++;
      return { ...before, size: info.size, mtimeMs: info.mtimeMs };
    }
    return undefined;
  }
  if (before) report.updated++;
  else report.added++;
  const { document } = result;
  if (document.decodedAs) report.guessedEncodings.push({ path, encoding: document.decodedAs });
  return {
    id: path,
    title: document.title,
    ...(document.url !== undefined ? { url: document.url } : {}),
    ...(document.modifiedTime !== undefined ? { modifiedTime: document.modifiedTime } : {}),
    language: document.language,
    sections: document.sections,
    path,
    size: info.size,
    mtimeMs: info.mtimeMs,
    contentHash: document.contentHash,
  };
}
