import { join } from "node:path";
import { readBotCalibration } from "./bot-calibration.js";
import { KnowledgeEngine } from "./engine.js";
import { CollectionIndex } from "./index/collection-index.js";
import { IndexStore } from "./index/index-store.js";
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

/**
 * Opens a bot's embedded knowledge engine: every collection is refreshed incrementally from its
 * files (unchanged files cost a stat each), then indexed in memory; the bot's own relevance
 * calibration is applied when it has one.
 */
export async function openEmbeddedEngine(
  botDir: string,
  collections: Record<string, { paths: readonly string[]; exclude?: readonly string[] }>,
  options: { onProgress?: RefreshProgress } = {},
): Promise<{ engine: KnowledgeEngine; reports: RefreshReport[] }> {
  // A bot's own calibration (`second-look calibrate`) replaces the shipped one when present;
  // read first, so a broken file is reported before minutes of indexing.
  const calibration = await readBotCalibration(botDir);
  const store = new IndexStore(indexDirectory(botDir));
  const indexes: CollectionIndex[] = [];
  const reports: RefreshReport[] = [];
  for (const [name, config] of Object.entries(collections)) {
    const source: CollectionSource = { name, paths: config.paths };
    if (config.exclude) source.exclude = config.exclude;
    const { documents, report } = await refreshCollection(botDir, source, store, options);
    indexes.push(new CollectionIndex(name, documents));
    reports.push(report);
  }
  return { engine: new KnowledgeEngine(indexes, calibration ? { calibration } : {}), reports };
}
