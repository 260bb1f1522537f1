// End to end: a knowledge search served by an external MCP server (Huginn's tool name on a
// server keyed `knowledge`) reaches the hook as `knowledge-search_knowledge` and its corrected
// result reaches the model, like our own tool's.

import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BotRuntime } from "../../../src/connectors/bot-runtime.js";
import { createCopilotBotRuntime } from "../../../src/connectors/copilot-sdk/copilot-bot-runtime.js";
import { type ModelServer, startModelServer } from "../../support/model-server/model-server.js";
import { latestToolResults } from "../../support/model-server/script.js";
import {
  botFor,
  correctedText,
  type FakeCorrect,
  fakeCorrect,
  hostEnv,
  makeBotDir,
  renderTrivial,
  tinyBackend,
  toolMessagesAfter,
} from "./fixtures.js";

const MCP_SERVER = fileURLToPath(new URL("./knowledge-mcp-server.mjs", import.meta.url));

describe("external MCP search tool through the real runtime", () => {
  let server: ModelServer;
  let cleanup: () => Promise<void>;
  let runtime: BotRuntime;
  let correct: FakeCorrect;
  const offered: string[][] = [];

  beforeAll(async () => {
    server = await startModelServer({
      maxRequests: 10,
      script: ({ messages, tools }) => {
        offered.push(tools);
        const results = latestToolResults(messages);
        if (results.length > 0) return { kind: "text", text: results.map((r) => r.text).join("\n") };
        return {
          kind: "tools",
          calls: [{ name: "knowledge-search_knowledge", args: { query: "mcp weak q" } }],
        };
      },
    });
    const bot = await makeBotDir();
    cleanup = bot.cleanup;
    correct = fakeCorrect();
    runtime = createCopilotBotRuntime({
      bot: botFor(bot.dir, { type: "openai", baseUrl: server.openAiBaseUrl }),
      backend: tinyBackend(),
      renderResult: renderTrivial,
      correct,
      env: hostEnv(),
      mcpServers: {
        knowledge: { type: "stdio", command: process.execPath, args: [MCP_SERVER], tools: ["*"] },
      },
    });
  });

  afterAll(async () => {
    await runtime?.close();
    await server?.close();
    await cleanup?.();
  });

  it("corrects the MCP tool's weak result before the model reads it", async () => {
    const result = await runtime.ask("use the knowledge server", { conversationId: "m" });
    expect(offered[0]).toEqual(expect.arrayContaining(["knowledge-search_knowledge", "search_knowledge"]));
    expect(correct.calls.map((c) => c.toolName)).toEqual(["knowledge-search_knowledge"]);
    const corrected = correctedText("MCP RESULT for 'mcp weak q'\n\n*Weak match.*", "mcp weak q");
    expect([...toolMessagesAfter(server, 0).byCallId.values()]).toEqual([corrected]);
    expect(result.toolCalls).toEqual([
      expect.objectContaining({
        name: "knowledge-search_knowledge",
        resultText: corrected,
        corrective: { changed: true, metadata: { query: "mcp weak q", retries: 1 } },
      }),
    ]);
  });
});
