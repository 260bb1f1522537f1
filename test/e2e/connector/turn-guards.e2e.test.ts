// End to end: the bounds the runtime does not provide. A model that calls the tool forever is
// stopped by the tool-call cap and by the question's deadline, and both abort the session (the
// model server stops receiving requests) rather than just stop waiting. Without a provider and
// without a sign-in the user gets one clear line.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BotRuntime } from "../../../src/connectors/bot-runtime.js";
import { createCopilotBotRuntime } from "../../../src/connectors/copilot-sdk/copilot-bot-runtime.js";
import { DEADLINES } from "../../../src/deadline.js";
import { createLogger } from "../../../src/telemetry/logger.js";
import { type ModelServer, startModelServer } from "../../support/model-server/model-server.js";
import {
  botFor,
  directiveScript,
  hostEnv,
  makeBotDir,
  rejection,
  renderTrivial,
  tinyBackend,
} from "./fixtures.js";

const silent = createLogger({ level: "silent" });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("turn guards through the real runtime", () => {
  let server: ModelServer;
  const cleanups: (() => Promise<void>)[] = [];
  const runtimes: BotRuntime[] = [];
  let dir: string;

  beforeAll(async () => {
    // A bound against a runaway loop, far above what the guards under test let through (the
    // 800 ms deadline loop alone makes ~100 requests on an idle machine): a cap these tests could
    // reach would end a loop with a final answer and hide the guard being tested.
    server = await startModelServer({ script: directiveScript, maxRequests: 2_000 });
    const bot = await makeBotDir();
    dir = bot.dir;
    cleanups.push(bot.cleanup);
  });

  afterAll(async () => {
    for (const runtime of runtimes) await runtime.close();
    await server?.close();
    for (const cleanup of cleanups) await cleanup();
  });

  const runtimeWith = (limits: { maxToolCalls?: number; timeoutMs?: number }, on: ModelServer = server) => {
    const backend = tinyBackend();
    const runtime = createCopilotBotRuntime({
      bot: botFor(dir, { type: "openai", baseUrl: on.openAiBaseUrl }, limits),
      backend,
      renderResult: renderTrivial,
      correct: async () => null,
      env: hostEnv(),
      logger: silent,
    });
    runtimes.push(runtime);
    return { runtime, backend };
  };

  it("the tool-call cap aborts the session; the conversation still works afterwards", async () => {
    const { runtime, backend } = runtimeWith({ maxToolCalls: 3 });
    const from = server.requests.length;
    const error = await rejection(runtime.ask("loop", { conversationId: "cap" }));
    expect(error.code).toBe("tool_call_cap");
    expect(error.message).toBe(
      "Bot 'e2e-bot' stopped: the model asked for more than 3 tool calls for one question.",
    );
    const requests = server.requests.length - from;
    // Three calls ran (the fourth start triggered the abort); no further model request was made.
    expect(requests).toBe(4);
    expect(backend.searches.length).toBeLessThanOrEqual(4);
    await sleep(300);
    expect(server.requests.length - from).toBe(requests);
    expect(server.limitReached).toBe(false);

    const followUp = await runtime.ask("search: after the cap", { conversationId: "cap" });
    expect(followUp.answer).toContain("after the cap");
  });

  it("the deadline aborts the session, not just the wait", async () => {
    const { runtime } = runtimeWith({ maxToolCalls: 10_000, timeoutMs: 800 });
    const from = server.requests.length;
    const started = Date.now();
    const error = await rejection(runtime.ask("loop", { conversationId: "deadline" }));
    const elapsed = Date.now() - started;
    expect(error.code).toBe("timeout");
    expect(error.message).toBe("Bot 'e2e-bot' stopped: no answer within 800 ms.");
    expect(elapsed).toBeGreaterThanOrEqual(800);
    expect(elapsed).toBeLessThan(4_000);
    const requests = server.requests.length - from;
    expect(requests).toBeGreaterThan(1);
    await sleep(400);
    expect(server.requests.length - from).toBe(requests);
  });

  it("a caller's signal cancels the question", async () => {
    const { runtime } = runtimeWith({ maxToolCalls: 10_000 });
    const error = await rejection(
      runtime.ask("loop", { conversationId: "cancel", signal: AbortSignal.timeout(300) }),
    );
    expect(error.code).toBe("aborted");
  });

  it("keeps at most maxSessions conversations, closing the least recently used", async () => {
    let created = 0;
    const runtime = createCopilotBotRuntime({
      bot: botFor(dir, { type: "openai", baseUrl: server.openAiBaseUrl }),
      backend: tinyBackend(),
      renderResult: renderTrivial,
      env: hostEnv(),
      logger: silent,
      maxSessions: 1,
      onSessionConfig: () => {
        created += 1;
      },
    });
    runtimes.push(runtime);
    await runtime.ask("search: one", { conversationId: "A" });
    await runtime.ask("search: two", { conversationId: "A" });
    expect(created).toBe(1);
    await runtime.ask("search: three", { conversationId: "B" });
    const again = await runtime.ask("search: four", { conversationId: "A" });
    expect(created).toBe(3);
    expect(again.answer).toContain("four");
  });

  it("closing the runtime under a question in flight stops it at once", async () => {
    // Its own model server: the shared one's request cap, spent by the tests before, could end
    // the loop (a final answer) before the close — then there would be nothing in flight.
    const own = await startModelServer({ script: directiveScript, maxRequests: 5_000 });
    cleanups.push(() => own.close());
    const { runtime } = runtimeWith({ maxToolCalls: 10_000 }, own);
    const asking = rejection(runtime.ask("loop", { conversationId: "closing" }));
    // Close once the loop is observably running (the model has asked for the tool twice). This
    // runtime is a process of its own, started on a loaded machine: its start is given 20 s.
    for (let waited = 0; own.requests.length < 2 && waited < 20_000; waited += 50) await sleep(50);
    expect(own.requests.length, "the looping question never reached the model twice").toBeGreaterThanOrEqual(
      2,
    );
    const started = Date.now();
    // The question stops when close() begins; close() itself may then spend up to its bounds
    // detaching the session and stopping the runtime, which is not the question's wait.
    const closing = runtime.close().then(() => Date.now() - started);
    const error = await asking;
    const stoppedAfterMs = Date.now() - started;
    expect(error.code).toBe("closed");
    expect(stoppedAfterMs).toBeLessThan(3_000);
    const closedAfterMs = await closing;
    expect(closedAfterMs).toBeLessThan(
      DEADLINES.copilotSessionDetachMs + DEADLINES.copilotStopGraceMs + 3_000,
    );
    expect((await rejection(runtime.ask("search: x", { conversationId: "closing" }))).code).toBe("closed");
  }, 60_000);

  it("no provider and no Copilot sign-in: one clear line telling the user what to configure", async () => {
    const bot = await makeBotDir();
    cleanups.push(bot.cleanup);
    const { model: _unused, ...noModel } = botFor(bot.dir, undefined);
    const runtime = createCopilotBotRuntime({
      bot: noModel,
      backend: tinyBackend(),
      renderResult: renderTrivial,
      env: hostEnv(), // no GH_TOKEN / GITHUB_TOKEN / COPILOT_GITHUB_TOKEN, and an isolated HOME
      logger: silent,
    });
    runtimes.push(runtime);
    const error = await rejection(runtime.ask("hello", { conversationId: "x" }));
    expect(error.code).toBe("no_model");
    expect(error.message).not.toContain("\n");
    expect(error.message).toMatch(/"model" and "provider"/);
    expect(String((error.cause as { message?: string })?.message ?? error.cause)).toMatch(
      /No GitHub OAuth token/,
    );
  });

  it("a provider key variable that is not set is a config error naming the variable", async () => {
    const runtime = createCopilotBotRuntime({
      bot: botFor(dir, { type: "anthropic", baseUrl: server.url, apiKeyEnv: "MISSING_KEY" }),
      backend: tinyBackend(),
      renderResult: renderTrivial,
      env: hostEnv(),
      logger: silent,
    });
    runtimes.push(runtime);
    const error = await rejection(runtime.ask("hello", { conversationId: "x" }));
    expect(error.code).toBe("config");
    expect(error.message).toContain("MISSING_KEY");
  });
});
