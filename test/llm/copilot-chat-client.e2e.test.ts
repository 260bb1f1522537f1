// The copilot provider through the real Copilot runtime bundled with @github/copilot-sdk
// (spawned over stdio) against the scripted model server on loopback: a tool-less session
// whose prompt replaces the runtime's system prompt, the reply and its usage read back, the
// chat span emitted, and a slow model bounded by the call's timeout.
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { copilotModelId, createCopilotChatClient } from "../../src/llm/copilot-chat-client.js";
import { runtimeLocation } from "../../src/llm/copilot-runtime/runtime-environment.js";
import type { LlmError } from "../../src/llm/llm-error.js";
import { type ModelServer, startModelServer } from "../support/model-server/model-server.js";

const KEY = "sk-copilot-byok-secret-42";
let server: ModelServer;
let slow: ModelServer;
let dir: string;
const hostEnv = { PATH: process.env.PATH ?? "/usr/bin:/bin" };

beforeAll(async () => {
  server = await startModelServer({
    script: ({ messages }) => {
      const user = [...messages].reverse().find((m) => m.role === "user");
      return { kind: "text", text: `{"verdict":"ambiguous","reason":"echo ${user?.text.length ?? 0}"}` };
    },
  });
  slow = await startModelServer({ script: () => ({ kind: "text", text: "late" }), delayMs: 10_000 });
  dir = await mkdtemp(join(tmpdir(), "second-look-copilot-llm-"));
});
afterAll(async () => {
  await server?.close();
  await slow?.close();
  await rm(dir, { recursive: true, force: true });
});

describe("copilot provider (real runtime)", () => {
  it.each(["openai", "anthropic"] as const)(
    "answers one prompt in a tool-less session (%s wire)",
    async (type) => {
      const llm = createCopilotChatClient({
        model: "grader-model",
        botDir: dir,
        env: hostEnv,
        byok: { type, baseUrl: type === "openai" ? server.openAiBaseUrl : server.url, apiKey: KEY },
      });
      const from = server.requests.length;
      const prompt = "USER QUESTION:\nhow many vacation days?";
      const reply = await llm.chat({
        system: "You grade search results.",
        messages: [{ role: "user", content: prompt }],
      });
      const request = server.requests[from]!;
      const user = request.parsed.messages.find((m) => m.role === "user");
      expect(user && "text" in user ? user.text : "").toContain(prompt);
      expect(reply.text).toMatch(/^\{"verdict":"ambiguous","reason":"echo \d+"\}$/);
      expect(reply.usage.inputTokens).toBeGreaterThan(0);
      expect(llm.usage?.()).toMatchObject({ calls: 1, failures: 0 });

      expect(request.parsed.tools).toEqual([]);
      const system = request.parsed.messages.find((m) => m.role === "system");
      // The runtime's own coding-agent prompt (~19k characters) is replaced, not appended to.
      expect(system && "text" in system ? system.text : "").toBe("You grade search results.");
      expect(request.raw.length).toBeLessThan(6_000);
      expect(request.headers[type === "openai" ? "authorization" : "x-api-key"]).toContain(KEY);
    },
  );

  it("a model slower than the time bound rejects with a timeout, soon after it", async () => {
    const llm = createCopilotChatClient({
      model: "grader-model",
      botDir: dir,
      env: hostEnv,
      byok: { type: "openai", baseUrl: slow.openAiBaseUrl, apiKey: KEY },
    });
    const started = Date.now();
    const error = (await llm
      .chat({ messages: [{ role: "user", content: "q" }], timeoutMs: 3_000 })
      .catch((e: unknown) => e)) as LlmError;
    expect(error.kind).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(error.message).not.toContain(KEY);
  });
});

describe("copilot provider sessions (real runtime)", () => {
  it("leaves no session state in the bot folder after its calls", async () => {
    const botDir = await mkdtemp(join(tmpdir(), "second-look-copilot-sessions-"));
    try {
      const llm = createCopilotChatClient({
        model: "grader-model",
        botDir,
        env: hostEnv,
        byok: { type: "openai", baseUrl: server.openAiBaseUrl, apiKey: KEY },
      });
      const sessionState = join(runtimeLocation(botDir).baseDirectory, "session-state");
      const calls = 3;
      for (let i = 0; i < calls; i++) {
        await llm.chat({ messages: [{ role: "user", content: `grade ${i}` }] });
      }
      expect(llm.usage?.()).toMatchObject({ calls, failures: 0 });
      // Deletion follows each answer without holding it up: wait for it, bounded.
      await vi.waitFor(async () => expect(await entries(sessionState)).toEqual([]), {
        timeout: 10_000,
        interval: 100,
      });
    } finally {
      await rm(botDir, { recursive: true, force: true });
    }
  });
});

async function entries(dir: string): Promise<string[]> {
  return readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [];
    throw error;
  });
}

describe("copilotModelId", () => {
  it("maps Anthropic's dash form of a Claude id to Copilot's dot form, leaves others alone", () => {
    expect(copilotModelId("claude-haiku-4-5")).toBe("claude-haiku-4.5");
    expect(copilotModelId("claude-sonnet-4-5")).toBe("claude-sonnet-4.5");
    expect(copilotModelId("claude-haiku-4.5")).toBe("claude-haiku-4.5");
    expect(copilotModelId("gpt-4.1")).toBe("gpt-4.1");
    expect(copilotModelId("claude-haiku-4-5-20251001")).toBe("claude-haiku-4-5-20251001");
  });
});
