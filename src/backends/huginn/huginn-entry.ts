// A Huginn server's collections over HTTP (src/backends/huginn/huginn-backend.ts): the server owns its index.

import { KnowledgeError } from "../../knowledge/knowledge-error.js";
import { type BackendEntry, collectionCount } from "../backend-entry.js";

export const huginnBackend: BackendEntry = {
  remoteServer: (knowledge) => `the Huginn server at ${knowledge.huginn?.url ?? "?"}`,
  describe: (knowledge) =>
    `huginn ${knowledge.huginn?.url ?? "?"} (${collectionCount(knowledge.huginn?.collections.length ?? 0)})`,
  collections: (knowledge) => [...(knowledge.huginn?.collections ?? [])],
  settingsIssues: (knowledge) =>
    knowledge.huginn === undefined
      ? [
          {
            path: ["huginn"],
            message: 'backend "huginn" needs a knowledge.huginn block with url and collections',
          },
        ]
      : [],
  async open(bot) {
    const huginn = bot.config.knowledge.huginn;
    // The config schema requires the block for this backend; a hand-built config may not have it.
    if (!huginn) {
      throw new KnowledgeError(
        "backend-settings-missing",
        'knowledge.backend "huginn" needs a knowledge.huginn block with url and collections',
      );
    }
    const { HuginnBackend } = await import("./huginn-backend.js");
    const backend = new HuginnBackend({
      url: huginn.url,
      collections: [...huginn.collections],
      ...(huginn.timeoutMs !== undefined ? { timeoutMs: huginn.timeoutMs } : {}),
    });
    let closed: Promise<void> | undefined;
    // Nothing to refresh: the server owns its index.
    return { backend, reports: [], close: () => (closed ??= backend.close()) };
  },
};
