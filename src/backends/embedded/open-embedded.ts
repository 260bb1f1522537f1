import { createHash } from "node:crypto";
import { basename, isAbsolute, join, resolve } from "node:path";
import { CollectionAnalysis } from "../../knowledge/analysis/collection-analysis.js";
import { DEFAULT_LANGUAGE } from "../../knowledge/analysis/registry.js";
import { readBotCalibration } from "../../knowledge/bot-calibration.js";
import { describeMs } from "../../knowledge/documents/parse-bound.js";
import { CollectionIndex } from "../../knowledge/index/collection-index.js";
import { IndexStore } from "../../knowledge/index/index-store.js";
import { type IngestLimitsConfig, ingestLimits } from "../../knowledge/index/ingest-limits.js";
import { IngestPool } from "../../knowledge/index/ingest-pool.js";
import {
  type CollectionSource,
  type RefreshedCollection,
  type RefreshOptions,
  type RefreshProgress,
  type RefreshReport,
  refreshCollection,
  unsavableCode,
} from "../../knowledge/index/refresh.js";
import { KnowledgeError } from "../../knowledge/knowledge-error.js";
import { logger } from "../../telemetry/logger.js";
import { KnowledgeEngine } from "./embedded-engine.js";

/** Names the folder under which every bot's index lives instead of inside the bot folder. */
export const INDEX_DIR_VARIABLE = "SECOND_LOOK_INDEX_DIR";

/**
 * Where a bot's embedded index lives: `.second-look/index` in the bot folder (git-ignored), or,
 * when SECOND_LOOK_INDEX_DIR is set (a read-only bot folder, a bot inside node_modules), a folder
 * under it named after the bot folder and a hash of its absolute path, so bots never share one.
 */
export function indexDirectory(botDir: string, env: NodeJS.ProcessEnv = process.env): string {
  const root = env[INDEX_DIR_VARIABLE]?.trim();
  if (!root) return join(botDir, ".second-look", "index");
  const absolute = resolve(botDir);
  const tag = createHash("sha256").update(absolute).digest("hex").slice(0, 12);
  const base = isAbsolute(root) ? root : resolve(root);
  return join(base, `${basename(absolute) || "bot"}-${tag}`, "index");
}

/** A collection's in-memory index, analysed as its language setting says (from the stored image when it fits). */
async function indexOf(source: CollectionSource, refreshed: RefreshedCollection): Promise<CollectionIndex> {
  // A collection with no setting is searched in the language its documents were analysed in.
  const detected = refreshed.report.detectedLanguage;
  const language = source.language ?? (detected?.tag === DEFAULT_LANGUAGE ? undefined : detected?.tag);
  return new CollectionIndex(source.name, refreshed.documents, {
    analysis: await CollectionAnalysis.forSearch(language),
    ...(refreshed.image ? { image: refreshed.image } : {}),
  });
}

export interface OpenEmbeddedOptions {
  onProgress?: RefreshProgress;
  /** The bot's bounds on parsing one file (time, memory, parser threads). */
  limits?: IngestLimitsConfig;
  /**
   * For commands that must answer (search, mcp, ask): the refresh of a collection that has a
   * stored index stops after this long, keeps what it finished, and the engine answers from the
   * index as it then stands. Unset: the refresh runs to the end (`second-look index`).
   */
  refreshBudgetMs?: number;
  /**
   * For commands that must answer (search, mcp, ask): an index that cannot be saved (a full
   * disk, a read-only or unwritable folder) is not a failure: the engine answers from the files
   * as read now (the stored index stays the last good one), and one warning names the cause and
   * the fix. Unset: such a failure is an error naming the folder and SECOND_LOOK_INDEX_DIR.
   */
  answerWhenUnsaved?: boolean;
  /**
   * For a long-running server (mcp): when the budget stops the refresh, finish it in the
   * background and swap each collection's updated index into the engine when it is done; answers
   * meanwhile come from the index as it stood. Unset: the log asks for `second-look index`.
   */
  finishRefreshInBackground?: boolean;
}

/** What to do about an index folder that cannot take a save, for the line that reports it. */
function unsavedFix(cause: string, then = ""): string {
  const free = /^(ENOSPC|EDQUOT)\b/.test(cause) ? "free space there, or " : "";
  return `${free}set ${INDEX_DIR_VARIABLE} to a writable folder with room${then}`;
}

/** A refresh finishing after the engine was handed out (see finishRefreshInBackground). */
export interface BackgroundRefresh {
  /** Settles when every collection is refreshed (or the refresh was stopped); never rejects. */
  done: Promise<RefreshReport[]>;
  /** Stops it: files not yet read keep their stored version, what was finished is saved. */
  stop(): Promise<RefreshReport[]>;
}

/**
 * Opens a bot's embedded knowledge engine: every collection is refreshed incrementally from its
 * files (unchanged files cost a stat each; changed ones are parsed in bounded worker threads),
 * then indexed in memory; the bot's own relevance
 * calibration is applied when it has one.
 */
export async function openEmbeddedEngine(
  botDir: string,
  collections: Record<string, { paths: readonly string[]; exclude?: readonly string[]; language?: string }>,
  options: OpenEmbeddedOptions = {},
): Promise<{ engine: KnowledgeEngine; reports: RefreshReport[]; background?: BackgroundRefresh }> {
  // A bot's own calibration (`second-look calibrate`) replaces the shipped one when present;
  // read first, so a broken file is reported before minutes of indexing.
  const calibration = await readBotCalibration(botDir);
  const directory = indexDirectory(botDir);
  const store = new IndexStore(directory);
  const pool = IngestPool.shared(ingestLimits(options.limits));
  const stop = new AbortController();
  const budget = options.refreshBudgetMs;
  const timer = budget === undefined ? undefined : setTimeout(() => stop.abort(), budget);
  const keep = options.answerWhenUnsaved === true;
  const refreshOptions = {
    pool,
    signal: stop.signal,
    keepWhenUnsaved: keep,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  };
  let warnedUnsaved = false;
  const warnIfUnsaved = (report: RefreshReport) => {
    if (report.unsaved === undefined || warnedUnsaved) return;
    warnedUnsaved = true;
    logger().warn(
      { botDir, directory, collection: report.collection, cause: report.unsaved },
      `cannot update the index in ${directory} (${report.unsaved}); answering from the last good index and the files as read now, nothing saved — ${unsavedFix(report.unsaved, ", then run second-look index")}`,
    );
  };
  const sources = Object.entries(collections).map(([name, config]) => {
    const source: CollectionSource = { name, paths: config.paths };
    if (config.exclude) source.exclude = config.exclude;
    if (config.language !== undefined) source.language = config.language;
    return source;
  });
  const refresh = (source: CollectionSource, options: RefreshOptions) =>
    refreshCollection(botDir, source, store, options).then(
      (refreshed) => {
        warnIfUnsaved(refreshed.report);
        return refreshed;
      },
      (error: unknown) => {
        const code = unsavableCode(error);
        if (code !== undefined) {
          throw new KnowledgeError(
            "index-unsavable",
            `cannot write the index of collection "${source.name}" to ${directory} (${code}); ${unsavedFix(code)}`,
            { cause: error },
          );
        }
        throw error;
      },
    );
  const indexes: CollectionIndex[] = [];
  const reports: RefreshReport[] = [];
  try {
    for (const source of sources) {
      const { name, paths } = source;
      // The refreshed documents are dropped once indexed: the index keeps them without their terms.
      const refreshed = await refresh(source, refreshOptions);
      const { report } = refreshed;
      if (report.files === 0 && report.skipped.length === 0) {
        logger().warn(
          { collection: name, paths },
          `collection ${name}: no files match its paths ${JSON.stringify(paths)} in ${resolve(botDir)}; it is empty`,
        );
      }
      indexes.push(await indexOf(source, refreshed));
      reports.push(report);
    }
  } finally {
    clearTimeout(timer);
  }
  const pending = reports.reduce((n, r) => n + r.pending, 0);
  const engine = new KnowledgeEngine(indexes, calibration ? { calibration } : {});
  if (pending === 0 || budget === undefined) return { engine, reports };
  const unfinished = sources.filter((_, i) => reports[i]!.pending > 0);
  if (!options.finishRefreshInBackground) {
    logger().warn(
      { botDir, budgetMs: budget, pendingFiles: pending },
      `index refresh stopped after ${describeMs(budget)} with ${pending} changed files not yet read; ` +
        "answering from the index as it stands (their previous version where there is one). " +
        "Run `second-look index` on this bot to finish it.",
    );
    return { engine, reports };
  }
  logger().warn(
    { botDir, budgetMs: budget, pendingFiles: pending, collections: unfinished.map((s) => s.name) },
    `index refresh stopped after ${describeMs(budget)} with ${pending} changed files not yet read; ` +
      "answering from the index as it stands (their previous version where there is one) " +
      "while the refresh finishes in the background.",
  );
  const background = refreshInBackground(unfinished, engine, (source, signal) =>
    refresh(source, { pool, signal, keepWhenUnsaved: keep }),
  );
  return { engine, reports, background };
}

/**
 * The collections a budgeted refresh left unfinished, refreshed one after the other while the
 * engine answers; each one replaces its collection in the engine when it is read.
 */
function refreshInBackground(
  unfinished: readonly CollectionSource[],
  engine: KnowledgeEngine,
  refresh: (source: CollectionSource, signal: AbortSignal) => Promise<RefreshedCollection>,
): BackgroundRefresh {
  const stopBackground = new AbortController();
  const done = (async () => {
    const finished: RefreshReport[] = [];
    for (const source of unfinished) {
      if (stopBackground.signal.aborted) break;
      try {
        const refreshed = await refresh(source, stopBackground.signal);
        const { report } = refreshed;
        engine.replaceCollection(await indexOf(source, refreshed));
        finished.push(report);
        logger().info(
          { ...report, skipped: report.skipped.length },
          report.pending > 0
            ? `background index refresh of collection ${source.name} stopped with ${report.pending} files not yet read`
            : `background index refresh of collection ${source.name} finished (${report.added} added, ${report.updated} updated, ${report.removed} removed); answers now use it`,
        );
      } catch (error) {
        logger().error(
          { collection: source.name, err: error },
          `background index refresh of collection ${source.name} failed; answering from the index as it stood`,
        );
      }
    }
    return finished;
  })();
  return {
    done,
    stop: () => {
      stopBackground.abort();
      return done;
    },
  };
}
