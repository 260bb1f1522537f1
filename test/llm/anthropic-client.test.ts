// The anthropic provider against a loopback server speaking the Messages API: JSON and SSE
// replies, the request it sends, usage totals, the chat span, retries on 429 (Retry-After
// honoured) and 5xx, time bounds, aborts, and keys kept out of errors and logs.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createLlmClient } from "../../src/llm/create-llm-client.js";
import { LlmError } from "../../src/llm/llm-error.js";
import { captureSpans, type SpanCapture } from "../../src/telemetry/capture-spans.js";
import { ATTR } from "../../src/telemetry/span-names.js";
import { captureLog } from "./log-capture.js";
import {
  type ScriptedProviderServer,
  type Step,
  startScriptedProviderServer,
  text,
} from "./scripted-provider-server.js";

const KEY = "sk-ant-test-0123456789-secret";
const env = { ANTHROPIC_TEST_KEY: KEY };
const servers: ScriptedProviderServer[] = [];
let spans: SpanCapture;

beforeAll(async () => {
  spans = await captureSpans({ env: {} });
});
afterAll(async () => {
  await spans.shutdown();
});
afterEach(async () => {
  while (servers.length) await servers.pop()!.close();
});

async function serve(steps: Step[] | ((i: number) => Step)) {
  const server = await startScriptedProviderServer(steps);
  servers.push(server);
  return server;
}

function client(server: ScriptedProviderServer, options: Parameters<typeof createLlmClient>[3] = {}) {
  return createLlmClient(
    { type: "anthropic", baseUrl: server.url, apiKeyEnv: "ANTHROPIC_TEST_KEY" },
    "claude-haiku-4-5",
    env,
    { retry: { baseDelayMs: 1, maxDelayMs: 5 }, ...options },
  );
}

const ask = {
  system: "Grade.",
  messages: [{ role: "user" as const, content: "Question?" }],
  maxTokens: 300,
  temperature: 0,
};

describe("anthropic provider", () => {
  it("sends a Messages request and reads a JSON reply", async () => {
    const server = await serve([text('{"verdict":"correct"}')]);
    const llm = client(server);
    const reply = await llm.chat(ask);
    expect(reply).toEqual({
      text: '{"verdict":"correct"}',
      model: "claude-haiku-4-5",
      usage: { inputTokens: 10, outputTokens: 5 },
      finishReason: "end_turn",
    });
    const [request] = server.requests;
    expect(request!.path).toBe("/v1/messages");
    expect(request!.headers["x-api-key"]).toBe(KEY);
    expect(request!.headers["anthropic-version"]).toBe("2023-06-01");
    expect(request!.body).toEqual({
      model: "claude-haiku-4-5",
      max_tokens: 300,
      system: "Grade.",
      temperature: 0,
      messages: [{ role: "user", content: "Question?" }],
      stream: false,
    });
  });

  it("reads an SSE reply (streamed when asked)", async () => {
    const server = await serve([text('{"verdict":"ambiguous"}')]);
    const reply = await client(server, { stream: true }).chat(ask);
    expect(server.requests[0]!.body.stream).toBe(true);
    expect(reply.text).toBe('{"verdict":"ambiguous"}');
    expect(reply.usage).toEqual({ inputTokens: 10, outputTokens: 5 });
    expect(reply.finishReason).toBe("end_turn");
  });

  it("reads an SSE reply the server sends without being asked, and a base URL ending in /v1", async () => {
    const server = await serve((i) =>
      i === 0
        ? {
            status: 200,
            headers: { "content-type": "text/event-stream" },
            body:
              'event: message_start\ndata: {"type":"message_start","message":{"model":"m","usage":{"input_tokens":7}}}\n\n' +
              'event: ping\ndata: {"type":"ping"}\n\n' +
              'event: content_block_delta\ndata: {"type":"content_block_delta","delta":{"type":"text_delta","text":"he"}}\n\n' +
              'event: content_block_delta\ndata: {"type":"content_block_delta","delta":{"type":"text_delta","text":"llo"}}\n\n' +
              'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"max_tokens"},"usage":{"output_tokens":2}}\n\n' +
              'event: message_stop\ndata: {"type":"message_stop"}\n\n',
          }
        : text("x"),
    );
    const llm = createLlmClient({ type: "anthropic", baseUrl: `${server.url}/v1/` }, "m", {});
    const reply = await llm.chat(ask);
    expect(server.requests[0]!.path).toBe("/v1/messages");
    expect(server.requests[0]!.headers["x-api-key"]).toBeUndefined();
    expect(reply).toEqual({
      text: "hello",
      model: "m",
      usage: { inputTokens: 7, outputTokens: 2 },
      finishReason: "max_tokens",
    });
  });

  it("keeps a running usage total and emits one chat span per call with gen_ai attributes", async () => {
    const server = await serve([text("a")]);
    const llm = client(server);
    const before = spans.spans().length;
    await llm.chat(ask);
    await llm.chat({ ...ask, model: "claude-sonnet-4-5" });
    expect(llm.usage?.()).toEqual({ calls: 2, failures: 0, retries: 0, inputTokens: 20, outputTokens: 10 });
    const chat = spans.spans().slice(before);
    expect(chat.map((s) => s.name)).toEqual(["chat claude-haiku-4-5", "chat claude-sonnet-4-5"]);
    expect(chat[0]!.attributes).toMatchObject({
      [ATTR.operationName]: "chat",
      [ATTR.providerName]: "anthropic",
      [ATTR.system]: "anthropic",
      [ATTR.requestModel]: "claude-haiku-4-5",
      [ATTR.usageInputTokens]: 10,
      [ATTR.usageOutputTokens]: 5,
      [ATTR.finishReasons]: ["end_turn"],
    });
  });

  it("429 then success: waits as long as Retry-After says, then answers", async () => {
    const server = await serve([
      { status: 429, headers: { "retry-after": "1" }, body: '{"error":{"message":"rate limited"}}' },
      text("ok"),
    ]);
    const llm = client(server);
    const reply = await llm.chat(ask);
    expect(reply.text).toBe("ok");
    expect(server.requests).toHaveLength(2);
    // The backoff alone would be ≤ 5 ms: the second attempt came after the provider's second.
    expect(server.requests[1]!.at - server.requests[0]!.at).toBeGreaterThanOrEqual(950);
    expect(llm.usage?.()).toMatchObject({ calls: 1, failures: 0, retries: 1 });
  });

  it("500 until the attempts run out: an LlmError naming the status, bounded attempts", async () => {
    const server = await serve([{ status: 500, body: '{"error":{"message":"boom"}}' }]);
    const llm = client(server, { retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2 } });
    const error = await llm.chat(ask).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmError);
    expect((error as LlmError).status).toBe(500);
    expect((error as LlmError).message).toBe(
      `anthropic: HTTP 500 from ${server.url.slice(7)}/v1/messages: boom`,
    );
    expect(server.requests).toHaveLength(3);
    expect(llm.usage?.()).toMatchObject({ calls: 1, failures: 1, retries: 2 });
    const span = spans.spans().at(-1)!;
    expect(span.name).toBe("chat claude-haiku-4-5");
    expect(span.status.code).toBe(2); // ERROR
  });

  it("does not retry a 400, and gives up at once when Retry-After exceeds the call's time", async () => {
    const bad = await serve([{ status: 400, body: '{"error":{"message":"bad request"}}' }]);
    await expect(client(bad).chat(ask)).rejects.toThrow("HTTP 400");
    expect(bad.requests).toHaveLength(1);
    const limited = await serve([{ status: 429, headers: { "retry-after": "20" } }]);
    await expect(client(limited, { timeoutMs: 2_000 }).chat(ask)).rejects.toThrow("HTTP 429");
    expect(limited.requests).toHaveLength(1);
  });

  it("a reply slower than the time bound rejects with a timeout soon after it", async () => {
    const server = await serve([{ ...text("late"), delayMs: 5_000 }]);
    const started = Date.now();
    const error = await client(server)
      .chat({ ...ask, timeoutMs: 300 })
      .catch((e: unknown) => e);
    expect((error as LlmError).kind).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(1_300);
  });

  it("the caller's signal cancels the call", async () => {
    const server = await serve([{ ...text("late"), delayMs: 5_000 }]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await client(server)
      .chat({ ...ask, signal: controller.signal })
      .catch((e: unknown) => e);
    expect((error as LlmError).kind).toBe("aborted");
  });

  it("a truncated stream or a stream error event is an error, never a partial answer", async () => {
    const truncated = await serve([
      {
        status: 200,
        headers: { "content-type": "text/event-stream" },
        body: 'event: content_block_delta\ndata: {"type":"content_block_delta","delta":{"type":"text_delta","text":"{\\"verdict\\""}}\n\n',
      },
    ]);
    await expect(client(truncated, { retry: { maxAttempts: 1 } }).chat(ask)).rejects.toThrow(
      "before message_stop",
    );
    const errored = await serve([
      {
        status: 200,
        headers: { "content-type": "text/event-stream" },
        body: 'event: error\ndata: {"type":"error","error":{"type":"invalid_request_error","message":"nope"}}\n\n',
      },
    ]);
    await expect(client(errored).chat(ask)).rejects.toThrow("stream error: nope");
  });

  it("never puts the key in an error message or a log line, even when the provider echoes it", async () => {
    const { log, text: logged } = captureLog();
    const server = await serve([
      { status: 503, body: JSON.stringify({ error: { message: `overloaded for key ${KEY}` } }) },
      { status: 401, body: JSON.stringify({ error: { message: `invalid x-api-key: ${KEY}` } }) },
    ]);
    const llm = client(server, { log });
    const error = (await llm.chat(ask).catch((e: unknown) => e)) as LlmError;
    expect(error.kind).toBe("http");
    expect(error.status).toBe(401);
    expect(error.message).toContain("invalid x-api-key: [redacted]");
    expect(error.message).not.toContain(KEY);
    expect(String(error.stack)).not.toContain(KEY);
    expect(logged()).toContain("llm: retrying");
    expect(logged()).not.toContain(KEY);
    expect(JSON.stringify(spans.spans().at(-1)!.events)).not.toContain(KEY);
  });

  it("names the unset key variable, never a value", () => {
    expect(() =>
      createLlmClient(
        { type: "anthropic", baseUrl: "http://127.0.0.1:9", apiKeyEnv: "MISSING_GRADER_KEY" },
        "m",
        {},
      ),
    ).toThrow(/MISSING_GRADER_KEY \(named by provider.apiKeyEnv\) is not set/);
  });
});
