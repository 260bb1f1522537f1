// A bot's index in a PostgreSQL database shared by every process serving it
// (src/backends/postgres/). `pg` and `pg-copy-streams` are optional peer dependencies: they are
// imported here on first open, and a missing one is named in one line.
import { existsSync } from "node:fs";
import { basename } from "node:path";
import { calibrationFile } from "../../knowledge/bot-calibration.js";
import { ingestLimits } from "../../knowledge/index/ingest-limits.js";
import { KnowledgeError } from "../../knowledge/knowledge-error.js";
import { loadOptional } from "../../optional-package.js";
import { logger } from "../../telemetry/logger.js";
import { type BackendEntry, collectionCount, type SettingsIssue } from "../backend-entry.js";

/** The PostgreSQL backend's module, `pg` and `pg-copy-streams` with it. */
export function loadPostgresBackend() {
  return loadOptional(
    { packages: ["pg", "pg-copy-streams"], neededFor: 'knowledge.backend "postgres"', layer: "knowledge" },
    () => import("./postgres-backend.js"),
  );
}

export const postgresBackend: BackendEntry = {
  describe: (knowledge) =>
    `postgres via $${knowledge.postgres?.urlEnv ?? "?"} (${collectionCount(Object.keys(knowledge.collections).length)})`,
  collections: (knowledge) => Object.keys(knowledge.collections),
  settingsIssues(knowledge) {
    const issues: SettingsIssue[] = [];
    if (knowledge.postgres === undefined) {
      issues.push({
        path: ["postgres"],
        message: 'backend "postgres" needs a knowledge.postgres block with urlEnv',
      });
    }
    return issues;
  },
  async open(bot, options) {
    const knowledge = bot.config.knowledge;
    const postgres = knowledge.postgres;
    if (!postgres) {
      throw new KnowledgeError(
        "backend-settings-missing",
        'knowledge.backend "postgres" needs a knowledge.postgres block with urlEnv',
      );
    }
    const { PostgresBackend } = await loadPostgresBackend();
    const leftover = calibrationFile(bot.dir);
    if (existsSync(leftover)) {
      // Kept from when the bot was embedded: a postgres bot's calibration lives in its database.
      logger().warn(
        { bot: bot.name, file: leftover },
        `${leftover} is not used: a postgres bot's calibration is stored in its database; run second-look calibrate to store one there, and delete the file`,
      );
    }
    const backend = await PostgresBackend.open({
      // A configured botId is the key of every copy of the bot; else the folder's name, which only
      // the folder that indexed under it may use (src/backends/postgres/pg-bot-folder.ts).
      bot: postgres.botId ?? bot.name ?? basename(bot.dir),
      botIdConfigured: postgres.botId !== undefined,
      folder: bot.dir,
      urlEnv: postgres.urlEnv,
      schema: postgres.schema,
      collections: knowledge.collections,
      ...(options.env ? { env: options.env } : {}),
    });
    try {
      const reports = options.index
        ? await backend.refresh(bot.dir, {
            ...(options.onProgress ? { onProgress: options.onProgress } : {}),
            ...(knowledge.ingest ? { limits: ingestLimits(knowledge.ingest) } : {}),
          })
        : [];
      return { backend, reports, close: () => backend.close() };
    } catch (error) {
      await backend.close();
      throw error;
    }
  },
};
