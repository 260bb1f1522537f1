import { existsSync } from "node:fs";
import { basename } from "node:path";
import { BotConfigError } from "../bots/config-error.js";
import type { BotConfig } from "../bots/config-schema.js";
import { calibrationFile } from "../knowledge/bot-calibration.js";
import { HuginnBackend } from "../knowledge/huginn.js";
import { ingestLimits } from "../knowledge/index/ingest-limits.js";
import type { RefreshProgress, RefreshReport } from "../knowledge/index/refresh.js";
import { type OpenEmbeddedOptions, openEmbeddedEngine } from "../knowledge/open-embedded.js";
import { PostgresBackend } from "../knowledge/postgres/postgres-backend.js";
import { logger } from "../telemetry/logger.js";
import type { KnowledgeBackend } from "../types.js";

export interface OpenedBackend {
  backend: KnowledgeBackend;
  /** What the index refresh did (empty for remote backends and for postgres unless `index`). */
  reports: RefreshReport[];
  /** Releases what the backend holds (a remote backend's connections); safe to call twice. */
  close: () => Promise<void>;
}

export interface OpenBackendOptions {
  onProgress?: RefreshProgress;
  /**
   * Bring a shared (postgres) index up to date with the bot's files before returning. The
   * embedded index is always refreshed; a shared one only when asked (`second-look index`), so
   * the processes serving a bot do not each re-read its files.
   */
  index?: boolean;
  env?: NodeJS.ProcessEnv;
  /** Embedded index: how long the refresh may take before the engine answers from the index as it stands. */
  refreshBudgetMs?: OpenEmbeddedOptions["refreshBudgetMs"];
  /** Embedded index: a refresh the budget stopped finishes in the background (a server's choice). */
  finishRefreshInBackground?: boolean;
}

/** The knowledge backend a bot's config names, ready to search. */
export async function openBotBackend(
  bot: { name?: string; dir: string; config: Pick<BotConfig, "knowledge"> },
  options: OpenBackendOptions = {},
): Promise<OpenedBackend> {
  const knowledge = bot.config.knowledge;
  if (knowledge.backend === "huginn") {
    const huginn = knowledge.huginn;
    // The config schema requires the block for this backend; a hand-built config may not have it.
    if (!huginn)
      throw new BotConfigError(bot.dir, [
        'knowledge.backend "huginn" needs a knowledge.huginn block with url and collections',
      ]);
    const backend = new HuginnBackend({
      url: huginn.url,
      collections: huginn.collections,
      ...(huginn.timeoutMs !== undefined ? { timeoutMs: huginn.timeoutMs } : {}),
    });
    let closed: Promise<void> | undefined;
    // Nothing to refresh: the server owns its index.
    return { backend, reports: [], close: () => (closed ??= backend.close()) };
  }
  if (knowledge.backend === "postgres") {
    const postgres = knowledge.postgres;
    if (!postgres)
      throw new BotConfigError(bot.dir, [
        'knowledge.backend "postgres" needs a knowledge.postgres block with urlEnv',
      ]);
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
      // the folder that indexed under it may use (src/knowledge/postgres/pg-bot-folder.ts).
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
  }
  const { engine, reports, background } = await openEmbeddedEngine(bot.dir, knowledge.collections ?? {}, {
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    // A command that must answer (a refresh budget) answers from the last good index when the
    // index cannot be saved, and warns once.
    ...(options.refreshBudgetMs !== undefined
      ? { refreshBudgetMs: options.refreshBudgetMs, answerWhenUnsaved: true }
      : {}),
    ...(options.finishRefreshInBackground ? { finishRefreshInBackground: true } : {}),
    ...(knowledge.ingest ? { limits: knowledge.ingest } : {}),
  });
  // Closing stops a background refresh; what it finished is saved for the next start.
  return { backend: engine, reports, close: async () => void (await background?.stop()) };
}
