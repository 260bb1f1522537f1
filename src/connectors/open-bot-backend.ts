import type { OpenBackendOptions, OpenedBackend } from "../backends/backend-entry.js";
import { backendEntry } from "../backends/registry.js";
import type { BotConfig } from "../bots/config-schema.js";
import { linkDocuments } from "./document-links.js";

export type { OpenBackendOptions, OpenedBackend } from "../backends/backend-entry.js";

/**
 * The knowledge backend a bot's config names, ready to search. Each kind is an entry of
 * src/backends/registry.ts, whose implementation (and its packages) loads here on first use.
 */
export async function openBotBackend(
  bot: { name?: string; dir: string; config: Pick<BotConfig, "knowledge"> },
  options: OpenBackendOptions = {},
): Promise<OpenedBackend> {
  const opened = await backendEntry(bot.config.knowledge.backend).open(bot, options);
  linkDocuments(opened.backend, bot.config.knowledge);
  return opened;
}
