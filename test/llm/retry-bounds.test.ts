// The retry policy as the SDK clients keep it (src/llm/sdk-chat-client.ts), for both providers
// against the loopback server: the forms of Retry-After, what is not a delay, the attempts
// ceiling, a Retry-After beyond what the call waits for, the caller's abort during a wait, the
// reply size bound, and event streams written with CRLF and comments.
import { afterEach, describe, expect, it } from "vitest";
import { createLlmClient } from "../../src/llm/create-llm-client.js";
import type { LlmError } from "../../src/llm/llm-error.js";
import { silent } from "../corrective/corrective-fixtures.js";
import {
  type ScriptedProviderServer,
  type Step,
  startScriptedProviderServer,
  text,
} from "./scripted-provider-server.js";

const servers: ScriptedProviderServer[] = [];
afterEach(async () => {
  while (servers.length) await servers.pop()!.close();
});

const ask = { messages: [{ role: "user" as const, content: "Question?" }], maxTokens: 50 };
const fast = { baseDelayMs: 1, maxDelayMs: 5 };

describe.each(["anthropic", "openai"] as const)("%s: retry bounds", (type) => {
  async function client(
    steps: Step[] | ((i: number) => Step),
    options: Parameters<typeof createLlmClient>[3] = {},
  ) {
    const server = await startScriptedProviderServer(steps);
    servers.push(server);
    const baseUrl = type === "anthropic" ? server.url : `${server.url}/v1`;
    return {
      server,
      llm: createLlmClient({ type, baseUrl }, "m", {}, { log: silent, retry: fast, ...options }),
    };
  }

  it("waits as long as an HTTP-date Retry-After says; retry-after-ms wins over Retry-After", async () => {
    // Written when the request arrives: 2–3 s ahead, the date having whole seconds.
    const at = () => new Date(Date.now() + 3_000).toUTCString();
    const dated = await client((i) =>
      i === 0 ? { status: 429, headers: { "retry-after": at() } } : text("ok"),
    );
    expect((await dated.llm.chat(ask)).text).toBe("ok");
    expect(dated.server.requests[1]!.at - dated.server.requests[0]!.at).toBeGreaterThanOrEqual(1_900);

    const both = await client([
      { status: 503, headers: { "retry-after": "9", "retry-after-ms": "120" } },
      text("ok"),
    ]);
    expect((await both.llm.chat(ask)).text).toBe("ok");
    const gap = both.server.requests[1]!.at - both.server.requests[0]!.at;
    expect(gap).toBeGreaterThanOrEqual(100);
    expect(gap).toBeLessThan(5_000); // not the 9 s of Retry-After
  });

  it("a Retry-After that is not a delay falls back to the backoff", async () => {
    const { server, llm } = await client((i) =>
      i < 2 ? { status: 429, headers: { "retry-after": i === 0 ? "soon" : "-1" } } : text("ok"),
    );
    expect((await llm.chat({ ...ask, timeoutMs: 5_000 })).text).toBe("ok");
    expect(server.requests).toHaveLength(3);
    expect(llm.usage?.()).toMatchObject({ calls: 1, failures: 0, retries: 2 });
  });

  it("caps the attempts at 10 whatever the policy says", async () => {
    const { server, llm } = await client([{ status: 500, body: "down" }], {
      retry: { ...fast, maxAttempts: 50 },
    });
    const error = (await llm.chat(ask).catch((e: unknown) => e)) as LlmError;
    expect(error.status).toBe(500);
    expect(server.requests).toHaveLength(10);
    expect(llm.usage?.()).toMatchObject({ calls: 1, failures: 1, retries: 9 });
  });

  it("a Retry-After beyond maxRetryAfterMs ends the call at once, naming the wait", async () => {
    const { server, llm } = await client([{ status: 429, headers: { "retry-after": "45" } }, text("late")]);
    const error = (await llm.chat({ ...ask, timeoutMs: 120_000 }).catch((e: unknown) => e)) as LlmError;
    expect(error.message).toContain("HTTP 429");
    expect(error.retryAfterMs).toBe(45_000);
    expect(server.requests).toHaveLength(1);
  });

  it("the caller's abort ends a Retry-After wait", async () => {
    const { server, llm } = await client([{ status: 429, headers: { "retry-after": "20" } }, text("late")], {
      retry: { ...fast, maxRetryAfterMs: 60_000 },
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const error = (await llm
      .chat({ ...ask, timeoutMs: 60_000, signal: controller.signal })
      .catch((e: unknown) => e)) as LlmError;
    expect(error.kind).toBe("aborted");
    expect(server.requests).toHaveLength(1);
  });

  it("a reply larger than 4 MB is a protocol error, not read to its end", async () => {
    const huge = JSON.stringify({ padding: "x".repeat(5 * 1024 * 1024) });
    const { llm } = await client([{ status: 200, body: huge }]);
    const error = (await llm.chat(ask).catch((e: unknown) => e)) as LlmError;
    expect(error.kind).toBe("protocol");
    expect(error.message).toContain("larger than 4194304 bytes");
  });
});

describe("event streams as servers write them", () => {
  it("a stream that breaks off (an overload event) is tried again within the attempts", async () => {
    const overloaded =
      'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"busy"}}\n\n';
    const server = await startScriptedProviderServer([
      { status: 200, headers: { "content-type": "text/event-stream" }, body: overloaded },
      text("ok"),
    ]);
    servers.push(server);
    const llm = createLlmClient(
      { type: "anthropic", baseUrl: server.url },
      "m",
      {},
      { retry: fast, stream: true },
    );
    expect((await llm.chat(ask)).text).toBe("ok");
    expect(server.requests).toHaveLength(2);
    expect(llm.usage?.()).toMatchObject({ calls: 1, failures: 0, retries: 1 });
    // With one attempt allowed, the break is the answer.
    const single = await startScriptedProviderServer([
      { status: 200, headers: { "content-type": "text/event-stream" }, body: overloaded },
      text("ok"),
    ]);
    servers.push(single);
    const once = createLlmClient(
      { type: "anthropic", baseUrl: single.url },
      "m",
      {},
      { retry: { maxAttempts: 1 } },
    );
    await expect(once.chat(ask)).rejects.toThrow("stream error: busy");
    expect(single.requests).toHaveLength(1);
  });

  it("reads CRLF line ends and comment lines", async () => {
    const events = [
      ": keep-alive",
      "event: message_start",
      'data: {"type":"message_start","message":{"model":"m","usage":{"input_tokens":3}}}',
      "",
      "event: content_block_delta",
      'data: {"type":"content_block_delta","delta":{"type":"text_delta","text":"Über"}}',
      "",
      "event: message_stop",
      'data: {"type":"message_stop"}',
      "",
      "",
    ].join("\r\n");
    const server = await startScriptedProviderServer([
      { status: 200, headers: { "content-type": "text/event-stream" }, body: events },
    ]);
    servers.push(server);
    const reply = await createLlmClient({ type: "anthropic", baseUrl: server.url }, "m", {}).chat(ask);
    expect(reply).toMatchObject({ text: "Über", model: "m", usage: { inputTokens: 3, outputTokens: 0 } });
  });
});
