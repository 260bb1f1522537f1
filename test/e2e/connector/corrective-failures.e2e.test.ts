// End to end: a corrective pass that throws or overruns leaves the original text byte for byte
// at the model, and with two searches in one model turn each outcome lands on its own call
// even when the first call's correction finishes last.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BotRuntime } from "../../../src/connectors/bot-runtime.js";
import { createCopilotBotRuntime } from "../../../src/connectors/copilot-sdk/copilot-bot-runtime.js";
import { createLogger } from "../../../src/telemetry/logger.js";
import { type ModelServer, startModelServer } from "../../support/model-server/model-server.js";
import {
  botFor,
  correctedText,
  directiveScript,
  expectedOriginal,
  type FakeCorrect,
  fakeCorrect,
  hostEnv,
  makeBotDir,
  renderTrivial,
  tinyBackend,
  toolMessagesAfter,
} from "./fixtures.js";

describe("corrective failures and parallel calls through the real runtime", () => {
  let server: ModelServer;
  let cleanup: () => Promise<void>;
  const runtimes: BotRuntime[] = [];
  let common: Omit<Parameters<typeof createCopilotBotRuntime>[0], "correct">;

  beforeAll(async () => {
    server = await startModelServer({ script: directiveScript, maxRequests: 40 });
    const bot = await makeBotDir();
    cleanup = bot.cleanup;
    common = {
      bot: botFor(bot.dir, { type: "openai", baseUrl: server.openAiBaseUrl }),
      // The first query's search is slow, so its hook runs after the second one's.
      backend: tinyBackend({ "alpha weak": 300 }),
      renderResult: renderTrivial,
      env: hostEnv(),
      // The hook's warnings for the throwing and hanging passes are expected here.
      logger: createLogger({ level: "silent" }),
    };
  });

  afterAll(async () => {
    for (const runtime of runtimes) await runtime.close();
    await server?.close();
    await cleanup?.();
  });

  const runtimeWith = (correct: FakeCorrect, correctTimeoutMs?: number): BotRuntime => {
    const runtime = createCopilotBotRuntime({
      ...common,
      correct,
      ...(correctTimeoutMs !== undefined ? { correctTimeoutMs } : {}),
    });
    runtimes.push(runtime);
    return runtime;
  };

  it("a throwing corrective pass leaves the original text byte-identical at the model", async () => {
    const correct = fakeCorrect({ behaviour: "throw" });
    const from = server.requests.length;
    const result = await runtimeWith(correct).ask("search: throwing weak topic", { conversationId: "c1" });
    const original = await expectedOriginal("throwing weak topic");
    expect(correct.calls).toHaveLength(1);
    const { request, byCallId } = toolMessagesAfter(server, from);
    expect([...byCallId.values()]).toEqual([original]);
    expect(request.raw).toContain(JSON.stringify(original).slice(1, -1));
    expect(result.answer).toBe(original);
    expect(result.toolCalls[0]?.corrective).toEqual({ changed: false, metadata: null, failure: "error" });
  });

  it("a corrective pass that overruns its bound is abandoned; the original reaches the model", async () => {
    const correct = fakeCorrect({ behaviour: "hang" });
    const from = server.requests.length;
    const started = Date.now();
    const result = await runtimeWith(correct, 400).ask("search: hanging weak topic", {
      conversationId: "c2",
    });
    const elapsed = Date.now() - started;
    const original = await expectedOriginal("hanging weak topic");
    expect([...toolMessagesAfter(server, from).byCallId.values()]).toEqual([original]);
    expect(result.answer).toBe(original);
    expect(result.toolCalls[0]?.corrective).toEqual({ changed: false, metadata: null, failure: "timeout" });
    expect(correct.calls[0]?.signal.aborted).toBe(true);
    expect(elapsed).toBeLessThan(5_000);
  });

  it("two searches in one turn: each correction lands on its own call though the first finishes last", async () => {
    // alpha's search is slow and its correction slower still; beta is corrected at once.
    const correct = fakeCorrect({ delays: { "alpha weak": 600 } });
    const from = server.requests.length;
    const result = await runtimeWith(correct).ask("parallel: alpha weak | beta weak", {
      conversationId: "c3",
    });

    // The model issued alpha first, beta second, in one assistant message.
    const issuing = server.requests.slice(from).find((r) => r.reply.kind === "tools")!;
    expect(issuing.reply).toMatchObject({
      kind: "tools",
      calls: [{ args: { query: "alpha weak" } }, { args: { query: "beta weak" } }],
    });
    // beta was corrected before alpha.
    expect(correct.calls.map((c) => (c.toolArgs as { query: string }).query)).toEqual([
      "beta weak",
      "alpha weak",
    ]);

    const alpha = correctedText(await expectedOriginal("alpha weak"), "alpha weak");
    const beta = correctedText(await expectedOriginal("beta weak"), "beta weak");
    // The model gets each corrected text under the id of the call it answers.
    const alphaId = `call_${issuing.parsed.index}_0`;
    const betaId = `call_${issuing.parsed.index}_1`;
    const { byCallId } = toolMessagesAfter(server, from);
    expect(byCallId.get(alphaId)).toBe(alpha);
    expect(byCallId.get(betaId)).toBe(beta);

    const byId = new Map(result.toolCalls.map((c) => [c.id, c]));
    expect(byId.get(alphaId)).toMatchObject({
      args: { query: "alpha weak" },
      resultText: alpha,
      corrective: { changed: true, metadata: { query: "alpha weak" } },
    });
    expect(byId.get(betaId)).toMatchObject({
      args: { query: "beta weak" },
      resultText: beta,
      corrective: { changed: true, metadata: { query: "beta weak" } },
    });
  });
});
