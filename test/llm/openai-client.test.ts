// The openai-compatible provider (OpenAI, Azure, Ollama, vLLM, LM Studio) against a loopback
// server speaking chat completions: JSON and SSE replies, headers per flavour, the Azure URL
// forms, parameters a server rejects, retries, and keys kept out of errors and logs.
import { afterEach, describe, expect, it } from "vitest";
import { createLlmClient } from "../../src/llm/create-llm-client.js";
import type { LlmError } from "../../src/llm/llm-error.js";
import { silent } from "../corrective/corrective-fixtures.js";
import { captureLog } from "./log-capture.js";
import {
  type ScriptedProviderServer,
  type Step,
  startScriptedProviderServer,
  text,
} from "./scripted-provider-server.js";

const KEY = "sk-proj-test-abcdef0123456789";
const servers: ScriptedProviderServer[] = [];
afterEach(async () => {
  while (servers.length) await servers.pop()!.close();
});

async function serve(steps: Step[] | ((i: number) => Step)) {
  const server = await startScriptedProviderServer(steps);
  servers.push(server);
  return server;
}

const ask = {
  system: "Grade.",
  messages: [{ role: "user" as const, content: "Question?" }],
  maxTokens: 300,
  temperature: 0,
  json: true,
};
const fast = { baseDelayMs: 1, maxDelayMs: 5 };

describe("openai provider", () => {
  it("sends a chat-completions request with a Bearer key and reads a JSON reply", async () => {
    const server = await serve([text('{"verdict":"insufficient"}')]);
    const llm = createLlmClient(
      {
        type: "openai",
        baseUrl: `${server.url}/v1`,
        apiKeyEnv: "OPENAI_TEST_KEY",
        headers: { "x-team": "kb" },
      },
      "gpt-4o-mini",
      { OPENAI_TEST_KEY: KEY },
    );
    const reply = await llm.chat(ask);
    expect(reply).toEqual({
      text: '{"verdict":"insufficient"}',
      model: "gpt-4o-mini",
      usage: { inputTokens: 10, outputTokens: 5 },
      finishReason: "stop",
    });
    const [request] = server.requests;
    expect(request!.path).toBe("/v1/chat/completions");
    expect(request!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request!.headers["x-team"]).toBe("kb");
    expect(request!.body).toEqual({
      model: "gpt-4o-mini",
      messages: [
        { role: "system", content: "Grade." },
        { role: "user", content: "Question?" },
      ],
      stream: false,
      max_tokens: 300,
      temperature: 0,
      response_format: { type: "json_object" },
    });
  });

  it("reads an SSE reply with usage in the last chunk", async () => {
    const server = await serve([text('{"verdict":"correct"}')]);
    const llm = createLlmClient(
      { type: "openai", baseUrl: `${server.url}/v1` },
      "llama3.1",
      {},
      { stream: true },
    );
    const reply = await llm.chat(ask);
    expect(server.requests[0]!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    // A local server without a key gets no Authorization header at all.
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
    expect(reply).toEqual({
      text: '{"verdict":"correct"}',
      model: "llama3.1",
      usage: { inputTokens: 10, outputTokens: 5 },
      finishReason: "stop",
    });
  });

  it("sends the provider's wireModel unless told the provider is borrowed", async () => {
    const server = await serve([text("x")]);
    const provider = { type: "openai" as const, baseUrl: `${server.url}/v1`, wireModel: "wire-name" };
    await createLlmClient(provider, "graderModel", {}).chat(ask);
    await createLlmClient(provider, "graderModel", {}, { useWireModel: false }).chat(ask);
    expect(server.requests.map((r) => r.body.model)).toEqual(["wire-name", "graderModel"]);
  });

  it("azure: api-key header, deployment path and api-version; a /openai/v1 base takes neither", async () => {
    const server = await serve([text("x")]);
    const env = { AZURE_TEST_KEY: KEY };
    await createLlmClient(
      { type: "azure", baseUrl: server.url, apiKeyEnv: "AZURE_TEST_KEY" },
      "grader-deploy",
      env,
    ).chat(ask);
    await createLlmClient(
      {
        type: "azure",
        baseUrl: `${server.url}/openai/deployments/other?api-version=2025-01-01`,
        apiKeyEnv: "AZURE_TEST_KEY",
      },
      "m",
      env,
    ).chat(ask);
    await createLlmClient(
      { type: "azure", baseUrl: `${server.url}/openai/v1`, apiKeyEnv: "AZURE_TEST_KEY" },
      "m",
      env,
    ).chat(ask);
    expect(server.requests.map((r) => r.url)).toEqual([
      "/openai/deployments/grader-deploy/chat/completions?api-version=2024-10-21",
      "/openai/deployments/other/chat/completions?api-version=2025-01-01",
      "/openai/v1/chat/completions",
    ]);
    for (const r of server.requests) {
      expect(r.headers["api-key"]).toBe(KEY);
      expect(r.headers.authorization).toBeUndefined();
    }
  });

  it("leaves out a parameter the server rejects, resends, and remembers it", async () => {
    const server = await serve((i) =>
      i === 0
        ? { status: 400, body: '{"error":{"message":"Unsupported value: response_format.type json_object"}}' }
        : i === 1
          ? {
              status: 400,
              body: '{"error":{"message":"Unsupported parameter: \'max_tokens\'. Use \'max_completion_tokens\' instead."}}',
            }
          : text("ok"),
    );
    const llm = createLlmClient(
      { type: "openai", baseUrl: `${server.url}/v1` },
      "o-model",
      {},
      { log: silent },
    );
    expect((await llm.chat(ask)).text).toBe("ok");
    expect((await llm.chat(ask)).text).toBe("ok");
    const [first, second, third, fourth] = server.requests.map((r) => r.body);
    expect(first).toHaveProperty("response_format");
    expect(second).not.toHaveProperty("response_format");
    expect(third).toMatchObject({ max_completion_tokens: 300 });
    expect(third).not.toHaveProperty("max_tokens");
    expect(fourth).toEqual(third); // the next call starts from what the server accepts
    expect(server.requests).toHaveLength(4);
  });

  it("429 with retry-after-ms then success; 503 until the attempts run out", async () => {
    const limited = await serve([{ status: 429, headers: { "retry-after-ms": "300" } }, text("ok")]);
    const llm = createLlmClient({ type: "openai", baseUrl: `${limited.url}/v1` }, "m", {}, { retry: fast });
    expect((await llm.chat(ask)).text).toBe("ok");
    expect(limited.requests[1]!.at - limited.requests[0]!.at).toBeGreaterThanOrEqual(280);

    const down = await serve([{ status: 503, body: "upstream unavailable" }]);
    const failing = createLlmClient(
      { type: "openai", baseUrl: `${down.url}/v1` },
      "m",
      {},
      { retry: { ...fast, maxAttempts: 2 } },
    );
    const error = (await failing.chat(ask).catch((e: unknown) => e)) as LlmError;
    expect(error.message).toContain("HTTP 503");
    expect(error.message).toContain("upstream unavailable");
    expect(down.requests).toHaveLength(2);
  });

  it("a connection that cannot be made is a network error after bounded attempts", async () => {
    const server = await serve([text("x")]);
    const url = `${server.url}/v1`;
    await server.close();
    servers.pop();
    const llm = createLlmClient(
      { type: "openai", baseUrl: url },
      "m",
      {},
      { retry: { ...fast, maxAttempts: 2 } },
    );
    const error = (await llm.chat(ask).catch((e: unknown) => e)) as LlmError;
    expect(error.kind).toBe("network");
    expect(llm.usage?.()).toMatchObject({ calls: 1, failures: 1, retries: 1 });
  });

  it("keeps the key and secret headers out of errors and logs", async () => {
    const { log, text: logged } = captureLog();
    const gatewayToken = "gw-token-9876543210";
    const server = await serve([
      { status: 500, body: `{"error":{"message":"bad auth Bearer ${KEY} / ${gatewayToken}"}}` },
    ]);
    const llm = createLlmClient(
      {
        type: "openai",
        baseUrl: `${server.url}/v1`,
        apiKeyEnv: "K",
        headers: { "X-Gateway-Token": gatewayToken },
      },
      "m",
      { K: KEY },
      { log, retry: { ...fast, maxAttempts: 2 } },
    );
    const error = (await llm.chat(ask).catch((e: unknown) => e)) as LlmError;
    expect(error.message).not.toContain(KEY);
    expect(error.message).not.toContain(gatewayToken);
    expect(error.message).toContain("[redacted]");
    expect(logged()).not.toContain(KEY);
    expect(logged()).not.toContain(gatewayToken);
  });
});

describe("a key straddling the quote's 300-character cut", () => {
  // The key starts at character 290 of the provider's message: cut first, 10 characters of it
  // would survive (no longer equal to the key, so no longer scrubbed).
  const straddling = `${"x".repeat(290)} ${KEY} tail`;

  function client(url: string, log = captureLog().log) {
    return createLlmClient(
      { type: "openai", baseUrl: `${url}/v1`, apiKeyEnv: "K" },
      "m",
      { K: KEY },
      {
        log,
        retry: { ...fast, maxAttempts: 1 },
      },
    );
  }

  it("an error body: no part of the key reaches the error or the log", async () => {
    const { log, text: logged } = captureLog();
    const server = await serve([{ status: 400, body: JSON.stringify({ error: { message: straddling } }) }]);
    const error = (await client(server.url, log)
      .chat(ask)
      .catch((e: unknown) => e)) as LlmError;
    expect(error.message).not.toContain(KEY.slice(0, 8));
    expect(error.message).toContain("[redact");
    expect(logged()).not.toContain(KEY.slice(0, 8));
  });

  it("a stream error event: no part of the key reaches the error", async () => {
    const server = await serve([
      {
        status: 200,
        headers: { "content-type": "text/event-stream" },
        body: `data: ${JSON.stringify({ error: { message: straddling } })}\n\n`,
      },
    ]);
    const error = (await client(server.url)
      .chat(ask)
      .catch((e: unknown) => e)) as LlmError;
    expect(error.message).toMatch(/stream error/);
    expect(error.message).not.toContain(KEY.slice(0, 8));
    expect(error.message).toContain("[redact");
  });
});

describe("outbound proxy", () => {
  it("goes through HTTP(S)_PROXY from the client's env, and straight to hosts in NO_PROXY", async () => {
    const server = await serve([text("direct")]);
    const deadProxy = "http://127.0.0.1:9";
    const proxied = createLlmClient(
      { type: "openai", baseUrl: `${server.url}/v1` },
      "m",
      { HTTP_PROXY: deadProxy },
      { retry: { maxAttempts: 1 } },
    );
    const error = (await proxied.chat(ask).catch((e: unknown) => e)) as LlmError;
    expect(error.kind).toBe("network");
    expect(server.requests).toHaveLength(0);

    const bypassed = createLlmClient(
      { type: "openai", baseUrl: `${server.url}/v1` },
      "m",
      { HTTP_PROXY: deadProxy, NO_PROXY: "127.0.0.1" },
      { retry: { maxAttempts: 1 } },
    );
    expect((await bypassed.chat(ask)).text).toBe("direct");
  });
});
