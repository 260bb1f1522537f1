import type { BotConfig } from "../bots/config-schema.js";
import { HuginnBackend } from "../knowledge/huginn.js";
import type { RefreshReport } from "../knowledge/index/refresh.js";
import { type OpenEmbeddedOptions, openEmbeddedEngine } from "../knowledge/open-embedded.js";
import type { KnowledgeBackend } from "../types.js";

export interface OpenedBackend {
  backend: KnowledgeBackend;
  /** What the embedded index refresh did (empty for remote backends). */
  reports: RefreshReport[];
  /** Releases what the backend holds (a remote backend's connections); safe to call twice. */
  close: () => Promise<void>;
}

/** The knowledge backend a bot's config names, ready to search. */
export async function openBotBackend(
  bot: { dir: string; config: Pick<BotConfig, "knowledge"> },
  options: Omit<OpenEmbeddedOptions, "limits"> = {},
): Promise<OpenedBackend> {
  const knowledge = bot.config.knowledge;
  if (knowledge.backend === "huginn") {
    const huginn = knowledge.huginn;
    // The config schema requires the block for this backend; a hand-built config may not have it.
    if (!huginn)
      throw new Error('knowledge.backend "huginn" needs a knowledge.huginn block with url and collections');
    const backend = new HuginnBackend({
      url: huginn.url,
      collections: huginn.collections,
      ...(huginn.timeoutMs !== undefined ? { timeoutMs: huginn.timeoutMs } : {}),
    });
    let closed: Promise<void> | undefined;
    // Nothing to refresh: the server owns its index.
    return { backend, reports: [], close: () => (closed ??= backend.close()) };
  }
  const { engine, reports } = await openEmbeddedEngine(bot.dir, knowledge.collections ?? {}, {
    ...options,
    ...(knowledge.ingest ? { limits: knowledge.ingest } : {}),
  });
  return { backend: engine, reports, close: async () => {} };
}
