// The MCP server's corrective pass is resolved per call (the kill-switch applies to the next
// call) but rebuilt only when the resolved settings change.
import { describe, expect, it } from "vitest";
import { BotConfigSchema } from "../../../src/bots/config-schema.js";
import { correctorPerCall } from "../../../src/connectors/mcp/corrector-per-call.js";
import type { Corrector } from "../../../src/connectors/search-pipeline.js";

const bot = {
  config: BotConfigSchema.parse({
    knowledge: { backend: "huginn", huginn: { url: "http://localhost:8321", collections: ["wiki"] } },
    correctiveRetrieval: { enabled: true, retryBudget: 1 },
  }),
};

function countingAssembledBot() {
  const built: Corrector[] = [];
  return {
    built,
    correctorFor: () => {
      const corrector = { settings: {} } as Corrector;
      built.push(corrector);
      return corrector;
    },
  };
}

describe("correctorPerCall", () => {
  it("builds the pass once while the settings stay the same", () => {
    const assembled = countingAssembledBot();
    const next = correctorPerCall(bot, assembled, {});
    const first = next();
    expect(next()).toBe(first);
    expect(next()).toBe(first);
    expect(assembled.built).toHaveLength(1);
  });

  it("the kill-switch turns it off on the next call and back on without a restart", () => {
    const assembled = countingAssembledBot();
    const env: NodeJS.ProcessEnv = {};
    const next = correctorPerCall(bot, assembled, env);
    expect(next()).toBeDefined();
    env.CORRECTIVE_RETRIEVAL_DISABLED = "1";
    expect(next()).toBeUndefined();
    delete env.CORRECTIVE_RETRIEVAL_DISABLED;
    expect(next()).toBeDefined();
    expect(assembled.built).toHaveLength(2);
  });

  it("a changed env default rebuilds it", () => {
    const assembled = countingAssembledBot();
    const env: NodeJS.ProcessEnv = {};
    const unset = { config: { ...bot.config, correctiveRetrieval: { enabled: true } } };
    const next = correctorPerCall(unset, assembled, env);
    next();
    env.CORRECTIVE_RETRIEVAL_BUDGET = "2";
    next();
    next();
    expect(assembled.built).toHaveLength(2);
  });
});
