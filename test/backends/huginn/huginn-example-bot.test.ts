// bots/huginn-example: the example config for a bot whose knowledge lives in a Huginn server
// loads, and opens a HuginnBackend scoped to its collections (no server needed to open it).
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { HuginnBackend } from "../../../src/backends/huginn/huginn-backend.js";
import { loadBot } from "../../../src/bots/discovery.js";
import { openBotBackend } from "../../../src/connectors/open-bot-backend.js";

const botDir = fileURLToPath(new URL("../../../bots/huginn-example", import.meta.url));

describe("bots/huginn-example", () => {
  it("opens a Huginn backend on localhost:8321 scoped to its two collections", async () => {
    const bot = await loadBot(botDir, { quiet: true, env: {} });
    expect(bot.config.knowledge.backend).toBe("huginn");
    expect(bot.corrective.enabled).toBe(true);
    const opened = await openBotBackend(bot);
    try {
      expect(opened.backend).toBeInstanceOf(HuginnBackend);
      const huginn = opened.backend as HuginnBackend;
      expect(huginn.url).toBe("http://localhost:8321");
      expect(huginn.timeoutMs).toBe(30_000);
      expect(huginn.collections()).toEqual(["team-wiki", "jira-issues"]);
    } finally {
      await opened.close();
    }
  });
});
