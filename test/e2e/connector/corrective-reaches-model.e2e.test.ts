// End to end through the real Copilot runtime (bundled with @github/copilot-sdk, spawned over
// stdio) against the scripted model server on loopback: the corrected tool result is what the
// model receives on its next request, for both wire protocols; with correction off there is no
// hook and the model receives the tool's text byte for byte.

import type { SessionConfig } from "@github/copilot-sdk";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { BotRuntime } from "../../../src/connectors/bot-runtime.js";
import { createCopilotBotRuntime } from "../../../src/connectors/copilot-sdk/copilot-bot-runtime.js";
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

type Variant = "openai" | "openai-sse" | "anthropic";

describe.each<Variant>(["openai", "openai-sse", "anthropic"])("through the real runtime (%s)", (variant) => {
  let server: ModelServer;
  let cleanup: () => Promise<void>;
  let correct: FakeCorrect;
  let on: BotRuntime;
  let off: BotRuntime;
  const configs: { on: SessionConfig[]; off: SessionConfig[] } = { on: [], off: [] };

  beforeAll(async () => {
    server = await startModelServer({ script: directiveScript, maxRequests: 40 });
    const bot = await makeBotDir();
    cleanup = bot.cleanup;
    const provider =
      variant === "anthropic"
        ? { type: "anthropic" as const, baseUrl: server.url, apiKeyEnv: "E2E_KEY" }
        : { type: "openai" as const, baseUrl: server.openAiBaseUrl, apiKeyEnv: "E2E_KEY" };
    const common = {
      bot: botFor(bot.dir, provider),
      backend: tinyBackend(),
      renderResult: renderTrivial,
      env: hostEnv({ E2E_KEY: "sk-e2e-secret" }),
      ...(variant === "openai-sse" ? { streaming: true } : {}),
    };
    correct = fakeCorrect();
    on = createCopilotBotRuntime({ ...common, correct, onSessionConfig: (c) => configs.on.push(c) });
    // Same bot, correction off: shares the runtime client with `on` (same home, same env).
    off = createCopilotBotRuntime({ ...common, onSessionConfig: (c) => configs.off.push(c) });
  });

  afterAll(async () => {
    await on?.close();
    await off?.close();
    await server?.close();
    await cleanup?.();
  });

  it("gives the model the corrected text for a weak search, in its next request", async () => {
    const stdout = vi.spyOn(process.stdout, "write");
    const from = server.requests.length;
    const result = await on.ask("search: vacation weak policy", { conversationId: "a" });
    const stdoutWrites = stdout.mock.calls.length;
    stdout.mockRestore();

    const original = await expectedOriginal("vacation weak policy");
    const corrected = correctedText(original, "vacation weak policy");
    expect(correct.calls.map((c) => c.resultText)).toContain(original);

    const { request, byCallId } = toolMessagesAfter(server, from);
    expect([...byCallId.values()]).toEqual([corrected]);
    // The raw body carries it too (JSON-escaped), not just our parse of it.
    expect(request.raw).toContain(JSON.stringify(corrected).slice(1, -1));
    expect(request.raw).not.toContain('*Weak match.*"');
    expect(request.headers[variant === "anthropic" ? "x-api-key" : "authorization"]).toContain(
      "sk-e2e-secret",
    );
    if (variant === "openai-sse") expect((request.body as { stream?: boolean }).stream).toBe(true);

    expect(result.answer).toBe(corrected);
    expect(result.toolCalls).toHaveLength(1);
    const [call] = result.toolCalls;
    expect(call).toMatchObject({
      id: [...byCallId.keys()][0],
      name: "search_knowledge",
      args: { query: "vacation weak policy" },
      resultText: corrected,
      success: true,
      corrective: { changed: true, metadata: { query: "vacation weak policy", retries: 1 } },
    });
    // Neither the library nor the runtime child wrote to our stdout.
    expect(stdoutWrites).toBe(0);
  });

  it("registers the hook only when correction is on, and never leaks the key to observers", () => {
    expect(configs.on[0]?.hooks?.onPostToolUse).toBeTypeOf("function");
    expect(configs.on[0]?.provider?.apiKey).toBe("[redacted]");
    expect(configs.on[0]?.availableTools).toEqual(["search_knowledge"]);
    expect(configs.on[0]?.systemMessage).toEqual({
      mode: "replace",
      content: "You answer from the handbook. Cite doc ids.",
    });
    expect(configs.on[0]?.infiniteSessions).toEqual({ enabled: false });
  });

  it("with correction off: no hooks key at all, and the model gets the tool's text byte for byte", async () => {
    const from = server.requests.length;
    const result = await off.ask("search: vacation weak policy", { conversationId: "b" });
    expect(configs.off).toHaveLength(1);
    expect("hooks" in configs.off[0]!).toBe(false);

    const original = await expectedOriginal("vacation weak policy");
    const { request, byCallId } = toolMessagesAfter(server, from);
    expect([...byCallId.values()]).toEqual([original]);
    expect(request.raw).toContain(JSON.stringify(original).slice(1, -1));
    expect(result.answer).toBe(original);
    expect(result.toolCalls[0]?.corrective).toBeUndefined();
  });

  it("passes a confident search through untouched and continues the conversation's session", async () => {
    const before = configs.on.length;
    const from = server.requests.length;
    const result = await on.ask("brief-search: holiday calendar", { conversationId: "a" });
    expect(configs.on.length).toBe(before); // the follow-up reused the session
    const original = await expectedOriginal("holiday calendar", true);
    expect([...toolMessagesAfter(server, from).byCallId.values()]).toEqual([original]);
    expect(result.answer).toBe(original);
    expect(result.toolCalls[0]?.corrective).toBeUndefined();
    // The follow-up request carries the first question's exchange: same session.
    const last = server.requests.at(-1)!;
    expect(last.raw).toContain("vacation weak policy");
  });
});
