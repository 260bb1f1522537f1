// The in-process lexical engine over the bot's own files (src/backends/embedded/open-embedded.ts).
import { type BackendEntry, collectionCount } from "../backend-entry.js";

export const embeddedBackend: BackendEntry = {
  describe: (knowledge) => `embedded (${collectionCount(Object.keys(knowledge.collections).length)})`,
  collections: (knowledge) => Object.keys(knowledge.collections),
  settingsIssues: () => [],
  async open(bot, options) {
    const { openEmbeddedEngine } = await import("./open-embedded.js");
    const knowledge = bot.config.knowledge;
    const { engine, reports, background } = await openEmbeddedEngine(bot.dir, knowledge.collections, {
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
  },
};
