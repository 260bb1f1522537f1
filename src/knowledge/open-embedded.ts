import { createHash } from "node:crypto";
import { basename, isAbsolute, join, resolve } from "node:path";
import { logger } from "../telemetry/logger.js";
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

const UNWRITABLE = new Set(["EACCES", "EPERM", "EROFS"]);

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
  const directory = indexDirectory(botDir);
  const store = new IndexStore(directory);
  const indexes: CollectionIndex[] = [];
  const reports: RefreshReport[] = [];
  for (const [name, config] of Object.entries(collections)) {
    const source: CollectionSource = { name, paths: config.paths };
    if (config.exclude) source.exclude = config.exclude;
    const { documents, report } = await refreshCollection(botDir, source, store, options).catch(
      (error: unknown) => {
        const code = (error as NodeJS.ErrnoException)?.code;
        if (typeof code === "string" && UNWRITABLE.has(code)) {
          throw new Error(
            `cannot write the index of collection "${name}" to ${directory} (${code}); set ${INDEX_DIR_VARIABLE} to a writable folder`,
            { cause: error },
          );
        }
        throw error;
      },
    );
    if (report.files === 0 && report.skipped.length === 0) {
      logger().warn(
        { collection: name, paths: config.paths },
        `collection ${name}: no files match its paths ${JSON.stringify(config.paths)} in ${resolve(botDir)}; it is empty`,
      );
    }
    indexes.push(new CollectionIndex(name, documents));
    reports.push(report);
  }
  return { engine: new KnowledgeEngine(indexes, calibration ? { calibration } : {}), reports };
}
