import { join } from "node:path";
import { logger } from "../telemetry/logger.js";
import { KnowledgeEngine } from "./engine.js";
import { CollectionIndex } from "./index/collection-index.js";
import { IndexStore } from "./index/index-store.js";
import { describeTimeout, type IngestLimitsConfig, ingestLimits } from "./index/ingest-limits.js";
import { IngestPool } from "./index/ingest-pool.js";
import {
  type CollectionSource,
  type RefreshProgress,
  type RefreshReport,
  refreshCollection,
} from "./index/refresh.js";

/** Where a bot's embedded index lives (git-ignored). */
export function indexDirectory(botDir: string): string {
  return join(botDir, ".second-look", "index");
}

export interface OpenEmbeddedOptions {
  onProgress?: RefreshProgress;
  /** The bot's bounds on parsing one file (time, memory, parser threads). */
  limits?: IngestLimitsConfig;
  /**
   * For commands that must answer (search, mcp, ask): the refresh stops after this long, keeps
   * what it finished, and the engine answers from the index as it then stands. Unset: the
   * refresh runs to the end (`second-look index`).
   */
  refreshBudgetMs?: number;
}

/**
 * Opens a bot's embedded knowledge engine: every collection is refreshed incrementally from its
 * files (unchanged files cost a stat each; changed ones are parsed in bounded worker threads),
 * then indexed in memory.
 */
export async function openEmbeddedEngine(
  botDir: string,
  collections: Record<string, { paths: readonly string[]; exclude?: readonly string[] }>,
  options: OpenEmbeddedOptions = {},
): Promise<{ engine: KnowledgeEngine; reports: RefreshReport[] }> {
  const store = new IndexStore(indexDirectory(botDir));
  const pool = IngestPool.shared(ingestLimits(options.limits));
  const stop = new AbortController();
  const budget = options.refreshBudgetMs;
  const timer = budget === undefined ? undefined : setTimeout(() => stop.abort(), budget);
  const indexes: CollectionIndex[] = [];
  const reports: RefreshReport[] = [];
  try {
    for (const [name, config] of Object.entries(collections)) {
      const source: CollectionSource = { name, paths: config.paths };
      if (config.exclude) source.exclude = config.exclude;
      const { documents, report } = await refreshCollection(botDir, source, store, {
        pool,
        signal: stop.signal,
        ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      });
      indexes.push(new CollectionIndex(name, documents));
      reports.push(report);
    }
  } finally {
    clearTimeout(timer);
  }
  const pending = reports.reduce((n, r) => n + r.pending, 0);
  if (pending > 0 && budget !== undefined) {
    logger().warn(
      { botDir, budgetMs: budget, pendingFiles: pending },
      `index refresh stopped after ${describeTimeout(budget)} with ${pending} changed files not yet read; ` +
        `answering from the index as it stands (their previous version where there is one). ` +
        `Run \`second-look index\` on this bot to finish it.`,
    );
  }
  return { engine: new KnowledgeEngine(indexes), reports };
}
