import { stat } from "node:fs/promises";
import { glob } from "tinyglobby";
import { logger } from "../../telemetry/logger.js";
import { documentIdFor } from "../documents/document-id.js";
import { loadDocument } from "../documents/load-document.js";
import { analyzeDocument } from "./collection-index.js";
import type { IndexStore, StoredDocument } from "./index-store.js";

/** Where a collection's files come from: globs relative to the bot folder. */
export interface CollectionSource {
  name: string;
  paths: readonly string[];
  exclude?: readonly string[];
}

export interface RefreshReport {
  collection: string;
  files: number;
  added: number;
  updated: number;
  removed: number;
  unchanged: number;
  skipped: { path: string; reason: string }[];
  /** True when the stored index was rewritten. */
  written: boolean;
  ms: number;
}

export type RefreshProgress = (event: { collection: string; done: number; total: number }) => void;

/** Never indexed, whatever the globs say: our own state and dependency trees. */
const ALWAYS_EXCLUDED = ["**/.second-look/**", "**/node_modules/**", "**/.git/**"];
/** A bot's collection is documents, not a disk: past this many files the rest are skipped. */
export const MAX_FILES_PER_COLLECTION = 200_000;
const READ_CONCURRENCY = 8;

/**
 * Brings one collection's stored index up to date with its files. A file whose size and
 * modification time are unchanged is reused without being read; a changed one is read and
 * reused anyway if its content hash is the same; otherwise it is parsed and analysed again.
 * Files that disappeared are dropped. A file that cannot be loaded is skipped with a warning
 * naming it — one bad file never stops indexing — and the index is only rewritten (atomically)
 * when something changed.
 */
export async function refreshCollection(
  botDir: string,
  source: CollectionSource,
  store: IndexStore,
  options: { onProgress?: RefreshProgress } = {},
): Promise<{ documents: StoredDocument[]; report: RefreshReport }> {
  const started = performance.now();
  const previous = new Map((await store.load(source.name))?.map((d) => [d.path, d]) ?? []);
  const stored = previous.size > 0;
  const report: RefreshReport = {
    collection: source.name,
    files: 0,
    added: 0,
    updated: 0,
    removed: 0,
    unchanged: 0,
    skipped: [],
    written: false,
    ms: 0,
  };

  const files = await listCollectionFiles(botDir, source);
  report.files = files.length;

  const documents: (StoredDocument | undefined)[] = new Array(files.length);
  let done = 0;
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const i = next++;
      documents[i] = await refreshFile(botDir, files[i]!, previous, report);
      done++;
      options.onProgress?.({ collection: source.name, done, total: files.length });
    }
  };
  await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, files.length) }, worker));

  const kept = documents.filter((d): d is StoredDocument => d !== undefined);
  const keptPaths = new Set(kept.map((d) => d.path));
  for (const path of previous.keys()) if (!keptPaths.has(path)) report.removed++;
  for (const skip of report.skipped) {
    logger().warn(
      { collection: source.name, file: skip.path, reason: skip.reason },
      `skipped ${skip.path}: ${skip.reason}`,
    );
  }
  if (report.added || report.updated || report.removed || !stored) {
    await store.save(source.name, kept);
    report.written = true;
  }
  report.ms = Math.round(performance.now() - started);
  return { documents: kept, report };
}

/**
 * A collection's files (absolute paths, sorted) as its globs name them, without our own state
 * and dependency trees, at most MAX_FILES_PER_COLLECTION (the rest are named in a warning).
 */
export async function listCollectionFiles(botDir: string, source: CollectionSource): Promise<string[]> {
  let files = (
    await glob([...source.paths], {
      cwd: botDir,
      ignore: [...(source.exclude ?? []), ...ALWAYS_EXCLUDED],
      onlyFiles: true,
      absolute: true,
      followSymbolicLinks: false,
      expandDirectories: false,
    })
  ).sort();
  if (files.length > MAX_FILES_PER_COLLECTION) {
    logger().warn(
      { collection: source.name, files: files.length, limit: MAX_FILES_PER_COLLECTION },
      `collection ${source.name}: more than ${MAX_FILES_PER_COLLECTION} files; the rest are not indexed`,
    );
    files = files.slice(0, MAX_FILES_PER_COLLECTION);
  }
  return files;
}

async function refreshFile(
  botDir: string,
  absPath: string,
  previous: ReadonlyMap<string, StoredDocument>,
  report: RefreshReport,
): Promise<StoredDocument | undefined> {
  const path = documentIdFor(botDir, absPath);
  if (path === undefined) {
    // An id must never climb out of the bot folder: that would publish files nobody listed.
    report.skipped.push({ path: absPath, reason: "outside the bot folder" });
    return undefined;
  }
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(absPath);
  } catch (error) {
    report.skipped.push({ path, reason: `cannot stat: ${(error as Error).message}` });
    return undefined;
  }
  const before = previous.get(path);
  if (before && before.size === info.size && before.mtimeMs === info.mtimeMs) {
    report.unchanged++;
    return before;
  }
  const loaded = await loadDocument(absPath, path);
  if (!loaded.ok) {
    report.skipped.push({ path, reason: loaded.reason });
    return undefined;
  }
  if (before && before.contentHash === loaded.doc.contentHash) {
    report.unchanged++;
    return { ...before, size: info.size, mtimeMs: info.mtimeMs };
  }
  if (before) report.updated++;
  else report.added++;
  const { text: _text, contentHash, ...document } = loaded.doc;
  return { ...analyzeDocument(document), path, size: info.size, mtimeMs: info.mtimeMs, contentHash };
}
