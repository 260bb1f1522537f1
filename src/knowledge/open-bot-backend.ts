import type { BotConfig } from "../bots/config-schema.js";
import type { KnowledgeBackend } from "../types.js";
import type { RefreshProgress, RefreshReport } from "./index/refresh.js";
import { openEmbeddedEngine } from "./open-embedded.js";

export interface OpenedBackend {
  backend: KnowledgeBackend;
  /** What the embedded index refresh did (empty for remote backends). */
  reports: RefreshReport[];
}

/** The knowledge backend a bot's config names, ready to search. */
export async function openBotBackend(
  bot: { dir: string; config: Pick<BotConfig, "knowledge"> },
  options: { onProgress?: RefreshProgress } = {},
): Promise<OpenedBackend> {
  const knowledge = bot.config.knowledge;
  if (knowledge.backend === "huginn") {
    throw new Error('knowledge.backend "huginn" is not available in this build; use "embedded"');
  }
  const { engine, reports } = await openEmbeddedEngine(bot.dir, knowledge.collections ?? {}, options);
  return { backend: engine, reports };
}
