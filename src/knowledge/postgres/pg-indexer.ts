import { stat } from "node:fs/promises";
import type pg from "pg";
import { logger } from "../../telemetry/logger.js";
import { documentIdFor } from "../documents/document-id.js";
import { loadDocument } from "../documents/load-document.js";
import { analyzeDocument } from "../index/collection-index.js";
import {
  type CollectionSource,
  emptyRefreshReport,
  listCollectionFiles,
  type RefreshProgress,
  type RefreshReport,
} from "../index/refresh.js";
import type { Tables } from "./pg-schema.js";
import { type DocumentToWrite, ensureCollection, replaceDocuments, storedFiles } from "./pg-writer.js";

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
      throw new Error(
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

/**
 * Brings one collection in the database up to date with its files: one transaction per changed
 * file (so a run stopped at any point leaves every file either as it was or as it is now), files
 * with unchanged size and modification time are not read, changed ones whose content hash is the
 * same are not rewritten, and files that disappeared are deleted. Two runs on one collection
 * take turns on an advisory lock; the one that waited then finds the work done.
 */
export async function refreshPostgresCollection(
  client: pg.PoolClient,
  t: Tables,
  bot: string,
  botDir: string,
  source: CollectionSource,
  options: { onProgress?: RefreshProgress } = {},
): Promise<RefreshReport> {
  const started = performance.now();
  const report = emptyRefreshReport(source.name);
  await acquireIndexLock(client, bot, source.name);
  try {
    const { id } = await ensureCollection(client, t, bot, source.name);
    const previous = new Map((await storedFiles(client, t, id)).map((f) => [f.path, f]));
    const files = await listCollectionFiles(botDir, source);
    report.files = files.length;
    const seen = new Set<string>();
    let done = 0;
    for (const absPath of files) {
      const path = documentIdFor(botDir, absPath);
      if (path === undefined) {
        report.skipped.push({ path: absPath, reason: "outside the bot folder" });
      } else {
        const skippedBefore = report.skipped.length;
        const write = await readIfChanged(absPath, path, previous.get(path), report);
        // A file that can no longer be read leaves the index, as in the embedded engine.
        if (report.skipped.length === skippedBefore) seen.add(path);
        if (write) {
          await replaceDocuments(client, t, id, [write]);
          report.written = true;
        }
      }
      done++;
      options.onProgress?.({ collection: source.name, done, total: files.length });
    }
    for (const path of previous.keys()) {
      if (seen.has(path)) continue;
      await replaceDocuments(client, t, id, [], [path]);
      report.removed++;
      report.written = true;
    }
  } finally {
    await releaseIndexLock(client, bot, source.name).catch(() => {});
  }
  for (const skip of report.skipped) {
    logger().warn(
      { collection: source.name, file: skip.path, reason: skip.reason },
      `skipped ${skip.path}: ${skip.reason}`,
    );
  }
  report.ms = Math.round(performance.now() - started);
  return report;
}

async function readIfChanged(
  absPath: string,
  path: string,
  before: { size: number; mtimeMs: number; contentHash: string } | undefined,
  report: RefreshReport,
): Promise<DocumentToWrite | undefined> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(absPath);
  } catch (error) {
    report.skipped.push({ path, reason: `cannot stat: ${(error as Error).message}` });
    return undefined;
  }
  if (before && before.size === info.size && before.mtimeMs === info.mtimeMs) {
    report.unchanged++;
    return undefined;
  }
  const loaded = await loadDocument(absPath, path);
  if (!loaded.ok) {
    report.skipped.push({ path, reason: loaded.reason });
    return undefined;
  }
  // Another host's copy of the same file has another mtime: the hash decides.
  if (before && before.contentHash === loaded.doc.contentHash) {
    report.unchanged++;
    return undefined;
  }
  if (before) report.updated++;
  else report.added++;
  const { text: _text, contentHash, ...document } = loaded.doc;
  return { path, size: info.size, mtimeMs: info.mtimeMs, contentHash, document: analyzeDocument(document) };
}
