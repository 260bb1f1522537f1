// Spans leave every running process: a collector on 127.0.0.1 (test/support/otlp-receiver.ts)
// receives the spans of a Slack question answered by `serve` (real Copilot runtime, the fake
// model server calling search_knowledge, the fake Slack Web API) and of an MCP tool call to
// `mcp` over stdio, with service.name from OTEL_SERVICE_NAME and service.version from
// package.json; OTEL_TRACES_EXPORTER=console writes the spans to stderr and leaves stdout to
// JSON-RPC.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setLogger } from "../../src/telemetry/logger.js";
import { packageVersion } from "../../src/telemetry/package-version.js";
import { silent } from "../connectors/mcp/mcp-harness.js";
import { spawnStdioMcp } from "../connectors/mcp/stdio-client.js";
import {
  BOT_USER_ID,
  type FakeSlackApi,
  startFakeSlackApi,
  TEAM_ID,
} from "../hosts/support/fake-slack-api.js";
import { freePort } from "../support/free-port.js";
import { HANDBOOK_KNOWLEDGE, makeHandbookBot } from "../support/handbook-bot.js";
import { type ModelServer, startModelServer } from "../support/model-server/model-server.js";
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from "../support/otlp-receiver.js";
import { mentionEventBody, postSlackEvent, type ServeProcess, startServe } from "../support/serve-process.js";
import { directiveScript } from "./connector/fixtures.js";

/** Weak on the handbook; its rescue re-queries find pages the first search did not show. */
const WEAK_QUERY = "company car lease policy";
const SECRET = "otlp-e2e-signing-secret";
/** Exports every 100 ms instead of every 5 s: the test waits less, the code path is the same. */
const QUICK_BATCHES = { OTEL_BSP_SCHEDULE_DELAY: "100" };

let root: string;
let botDir: string;
let collector: OtlpReceiver;

beforeAll(async () => {
  setLogger(silent);
  collector = await startOtlpReceiver();
  root = await mkdtemp(join(tmpdir(), "second-look-otlp-"));
  botDir = join(root, "bots", "handbook");
  await makeHandbookBot(botDir, { correctiveRetrieval: { enabled: true, retryBudget: 1, grader: "signal" } });
}, 60_000);
afterAll(async () => {
  await collector?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

const byService = (service: string) => (spans: ReceivedSpan[]) => spans.filter((s) => s.service === service);

/** The corrective pass's spans under the tool call, in one trace, inside the tool call's time. */
function expectToolTree(spans: ReceivedSpan[]): ReceivedSpan {
  const tool = spans.find((s) => s.name === "execute_tool search_knowledge");
  expect(tool).toBeDefined();
  const grade = spans.find((s) => s.name === "knowledge_grade");
  const requery = spans.find((s) => s.name === "knowledge_requery");
  for (const child of [grade, requery]) {
    expect(child?.parentSpanId).toBe(tool!.spanId);
    expect(child?.traceId).toBe(tool!.traceId);
    expect(child!.startMs).toBeGreaterThanOrEqual(tool!.startMs);
    expect(child!.endMs).toBeLessThanOrEqual(tool!.endMs);
  }
  expect(requery?.attributes["corrective.collections"]).toEqual(["handbook"]);
  return tool!;
}

describe("mcp exports its spans", () => {
  it("an MCP tool call's spans reach the collector, service.name from OTEL_SERVICE_NAME", async () => {
    const mcp = await spawnStdioMcp(botDir, {
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_SERVICE_NAME: "handbook-mcp",
      OTEL_RESOURCE_ATTRIBUTES: "deployment.environment=e2e,service.name=overridden",
      ...QUICK_BATCHES,
    });
    try {
      const result = await mcp.call("search_knowledge", { query: WEAK_QUERY });
      expect(result.isError).toBe(false);
      expect(result.text).toContain("corrective retrieval");
      await collector.waitFor("the MCP call's spans", (spans) =>
        byService("handbook-mcp")(spans).some((s) => s.name === "knowledge_requery"),
      );
    } finally {
      await mcp.close();
    }
    const spans = byService("handbook-mcp")(collector.spans);
    const tool = expectToolTree(spans);
    expect(tool.attributes["gen_ai.retrieval.query.text"]).toBe(WEAK_QUERY);
    expect(tool.resource).toMatchObject({
      "service.name": "handbook-mcp",
      "service.version": packageVersion(),
      "deployment.environment": "e2e",
    });
    expect(mcp.clientErrors).toEqual([]);
  });

  it("spans still queued when the client closes stdin are flushed before the process exits", async () => {
    // A batch delay of a minute: only the flush at shutdown sends these spans in time.
    const mcp = await spawnStdioMcp(botDir, {
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_SERVICE_NAME: "handbook-mcp-flush",
      OTEL_BSP_SCHEDULE_DELAY: "60000",
    });
    const exited = new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        try {
          process.kill(mcp.pid, 0);
        } catch {
          clearInterval(poll);
          resolve();
        }
      }, 50);
    });
    await mcp.call("search_knowledge", { query: WEAK_QUERY });
    expect(byService("handbook-mcp-flush")(collector.spans)).toEqual([]);
    await mcp.close();
    await exited;
    expectToolTree(byService("handbook-mcp-flush")(collector.spans));
  });

  it("OTEL_TRACES_EXPORTER=console: span lines on stderr, nothing but JSON-RPC on stdout", async () => {
    const mcp = await spawnStdioMcp(botDir, { OTEL_TRACES_EXPORTER: "console", ...QUICK_BATCHES });
    try {
      const result = await mcp.call("search_knowledge", { query: WEAK_QUERY });
      expect(result.isError).toBe(false);
      const deadline = Date.now() + 20_000;
      while (!mcp.stderr().includes('"name":"execute_tool search_knowledge"') && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      await mcp.close();
    }
    const lines = mcp
      .stderr()
      .split("\n")
      .filter((l) => l.startsWith('{"resource"'))
      .map((l) => JSON.parse(l) as { name: string; resource: Record<string, unknown> });
    expect(lines.map((l) => l.name)).toContain("execute_tool search_knowledge");
    expect(lines.map((l) => l.name)).toContain("knowledge_requery");
    expect(lines[0]!.resource["service.name"]).toBe("second-look");
    // A stray line on stdout would have been a client error.
    expect(mcp.clientErrors).toEqual([]);
  });
});

describe("serve exports its spans", () => {
  let model: ModelServer;
  let slackApi: FakeSlackApi;
  let serve: ServeProcess;
  let slackPort = 0;

  beforeAll(async () => {
    model = await startModelServer({ script: directiveScript, maxRequests: 20 });
    slackApi = await startFakeSlackApi();
    slackPort = await freePort();
    await writeFile(
      join(botDir, "config.json"),
      JSON.stringify({
        model: "e2e-model",
        provider: { type: "openai", baseUrl: model.openAiBaseUrl, apiKeyEnv: "OTLP_E2E_KEY" },
        knowledge: HANDBOOK_KNOWLEDGE,
        correctiveRetrieval: { enabled: true, retryBudget: 1, grader: "signal" },
      }),
    );
    serve = await startServe(root, {
      OTLP_E2E_KEY: "sk-otlp-e2e",
      SLACK_BOT_TOKEN_HANDBOOK: "xoxb-e2e-token",
      SLACK_SIGNING_SECRET_HANDBOOK: SECRET,
      SLACK_PORT_HANDBOOK: String(slackPort),
      SLACK_API_URL: slackApi.url,
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_SERVICE_NAME: "handbook-slack",
      ...QUICK_BATCHES,
    });
  }, 90_000);
  afterAll(async () => {
    await serve?.stop();
    await slackApi?.close();
    await model?.close();
  });

  it("a Slack question's spans reach the collector: the agent, its model calls, the tool and the pass", async () => {
    const body = mentionEventBody(`search: ${WEAK_QUERY}`, { team: TEAM_ID, botUser: BOT_USER_ID });
    expect(await postSlackEvent(slackPort, SECRET, body)).toBe(200);
    await serve.waitFor("the reply", () => slackApi.of("chat.update").length > 0, 60_000);
    // The model echoed the search result it received: the handbook's pages.
    expect(slackApi.of("chat.update")[0]!.args.text).toContain("relevant");
    await collector.waitFor("the question's spans", (spans) =>
      byService("handbook-slack")(spans).some((s) => s.name === "invoke_agent handbook"),
    );
    const spans = byService("handbook-slack")(collector.spans);
    const agent = spans.find((s) => s.name === "invoke_agent handbook")!;
    const tool = expectToolTree(spans);
    expect(tool.parentSpanId).toBe(agent.spanId);
    const chats = spans.filter((s) => s.name === "chat e2e-model");
    expect(chats.length).toBeGreaterThanOrEqual(2);
    for (const chat of chats) {
      expect(chat.parentSpanId).toBe(agent.spanId);
      expect(chat.attributes).toMatchObject({
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": "openai",
        "gen_ai.request.model": "e2e-model",
      });
      expect(chat.attributes["gen_ai.usage.input_tokens"]).toBeGreaterThan(0);
    }
    expect(agent.resource).toMatchObject({
      "service.name": "handbook-slack",
      "service.version": packageVersion(),
    });
    expect(serve.stderr()).not.toContain("sk-otlp-e2e");
  });
});
