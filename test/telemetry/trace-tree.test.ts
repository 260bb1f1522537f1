// The trace tells the truth: a search through an assembled bot (its traced backend, its rendered
// text, its corrective pass, a model grader on the fake model server where the grader is one)
// yields one `execute_tool search_knowledge` holding exactly one knowledge_grade whose verdicts
// are the outcome's, exactly one knowledge_requery per re-query that ran with the outcome's
// queries, collections and new hits, a `chat` span per model call, and every child inside its
// parent's time. For budgets 1 and 2, for signal, haiku and auto, for a grader that fails and a
// re-query that fails.
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BotConfigSchema } from "../../src/bots/config-schema.js";
import { assembleBot } from "../../src/connectors/assemble-bot.js";
import type { CorrectResult } from "../../src/connectors/bot-runtime.js";
import { GRADER_SYSTEM_PROMPT } from "../../src/corrective/knowledge-grader.js";
import { AUTO_ASK_BELOW } from "../../src/corrective/signal-grader.js";
import { captureSpans, type SpanCapture } from "../../src/telemetry/capture-spans.js";
import { setLogger } from "../../src/telemetry/logger.js";
import {
  ATTR,
  SPAN_EXECUTE_TOOL_SEARCH_KNOWLEDGE,
  SPAN_KNOWLEDGE_GRADE,
  SPAN_KNOWLEDGE_REQUERY,
} from "../../src/telemetry/span-names.js";
import type { CorrectiveMetadata, SearchRequest, SearchResponse } from "../../src/types.js";
import { WEAK_BEST_SCORE } from "../../src/weakness.js";
import { hit, response, silent, stubBackend } from "../corrective/corrective-fixtures.js";
import { freePort } from "../support/free-port.js";
import { type ModelServer, startModelServer } from "../support/model-server/model-server.js";

const QUERY = "quarterly offsite budget";
let model: ModelServer;
let capture: SpanCapture;

beforeAll(async () => {
  setLogger(silent);
  // The grader: "ambiguous" with a rewrite numbered by its call, so each round has new queries.
  model = await startModelServer({
    script: (request) => {
      const system = request.messages.find((m) => m.role === "system");
      const graded = model.requests.length;
      if (system && "text" in system && system.text === GRADER_SYSTEM_PROMPT) {
        return {
          kind: "text",
          text: `{"verdict":"ambiguous","rewrittenQuery":"rewrite ${graded}","reason":"partly relevant"}`,
        };
      }
      return { kind: "text", text: "not a grader request" };
    },
  });
});
afterAll(async () => {
  await model?.close();
});
beforeEach(async () => {
  capture = await captureSpans({ env: {} });
});
afterEach(async () => {
  await capture.shutdown();
});

/** Just above the weak line and below auto's ask line: auto asks the model about every round. */
const BORDERLINE = Math.round(((WEAK_BEST_SCORE + AUTO_ASK_BELOW) / 2) * 1000) / 1000;

/**
 * A backend whose every search is weak (hints sent; best relevance borderline) and new: each
 * answer has hits no earlier one had, and hints that name a query not searched yet, so every
 * round adds hits and the pass goes on while its budget lasts. `failRequeries` makes every search
 * after the first throw.
 */
function weakBackend(options: { failRequeries?: boolean } = {}) {
  let n = 0;
  return stubBackend((request: SearchRequest): SearchResponse => {
    n += 1;
    if (options.failRequeries && n > 1) throw new Error("backend down");
    return response(
      request.query,
      [hit("wiki", `doc-${n}-a`, `Page ${n}a`, BORDERLINE), hit("wiki", `doc-${n}-b`, `Page ${n}b`, 0.22)],
      { narrowerQuery: `${request.query} more` },
    );
  });
}

type Grader = "signal" | "haiku" | "auto";

interface Run {
  metadata: CorrectiveMetadata | undefined;
  spans: ReadableSpan[];
  modelCalls: number;
}

async function searchThroughBot(options: {
  grader: Grader;
  budget: number;
  graderDown?: boolean;
  failRequeries?: boolean;
}): Promise<Run> {
  const baseUrl = options.graderDown ? `http://127.0.0.1:${await freePort()}/v1` : model.openAiBaseUrl;
  const config = BotConfigSchema.parse({
    knowledge: { backend: "embedded", collections: { wiki: { paths: ["*.md"] } } },
    correctiveRetrieval: {
      enabled: true,
      retryBudget: options.budget,
      grader: options.grader,
      graderModel: "grader-model",
      graderTimeoutMs: 3_000,
      graderProvider: { type: "openai", baseUrl },
    },
  });
  const bot = assembleBot({ config }, weakBackend({ failRequeries: options.failRequeries }), {});
  const before = model.requests.length;
  const request: SearchRequest = { query: QUERY, collections: ["wiki"] };
  const call = await bot.search(request, ["wiki"]);
  const correct = bot.correctFor();
  expect(correct).toBeDefined();
  const corrected: CorrectResult | null | undefined = await correct?.({
    toolName: "search_knowledge",
    toolArgs: { query: QUERY, collection: "wiki" },
    resultText: call.text,
    signal: AbortSignal.timeout(20_000),
    scope: ["wiki"],
    searchCall: call,
  });
  return {
    metadata: corrected?.metadata,
    spans: capture.spans(),
    modelCalls: model.requests.length - before,
  };
}

const ms = (time: [number, number]) => time[0] * 1e3 + time[1] / 1e6;
const startOf = (span: ReadableSpan) => ms(span.startTime);
const endOf = (span: ReadableSpan) => ms(span.endTime);
const named = (spans: ReadableSpan[], name: string) => spans.filter((s) => s.name === name);
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

/** What every tree must hold, whatever the pass did. */
function expectTruthfulTree(run: Run): {
  tool: ReadableSpan;
  requeries: ReadableSpan[];
  chats: ReadableSpan[];
} {
  const tools = named(run.spans, SPAN_EXECUTE_TOOL_SEARCH_KNOWLEDGE);
  expect(tools).toHaveLength(1);
  const tool = tools[0]!;
  const toolId = tool.spanContext().spanId;
  // Every span of the pass is the tool call's child, inside its time.
  for (const span of run.spans) {
    if (span === tool) continue;
    expect(parentOf(span), span.name).toBe(toolId);
    expect(startOf(span), `${span.name} starts inside its parent`).toBeGreaterThanOrEqual(startOf(tool));
    expect(endOf(span), `${span.name} ends inside its parent`).toBeLessThanOrEqual(endOf(tool));
  }
  const metadata = run.metadata!;
  const grades = named(run.spans, SPAN_KNOWLEDGE_GRADE);
  expect(grades).toHaveLength(1);
  expect(grades[0]!.attributes).toMatchObject({
    [ATTR.correctiveMode]: metadata.graderMode,
    [ATTR.correctiveVerdicts]: metadata.verdicts,
    [ATTR.correctiveFinalVerdict]: metadata.finalVerdict,
    [ATTR.correctivePasses]: metadata.verdicts.length,
    [ATTR.correctiveRetries]: metadata.retries,
  });
  const requeries = named(run.spans, SPAN_KNOWLEDGE_REQUERY).sort((a, b) => startOf(a) - startOf(b));
  const ran = requeries.filter((s) => s.status.code !== 2);
  // One span per re-query the outcome counts, with its queries, collections and new hits.
  expect(ran).toHaveLength(metadata.retries);
  expect(ran.flatMap((s) => s.attributes[ATTR.correctiveQueries] as string[])).toEqual(metadata.queriesTried);
  expect(ran.map((s) => s.attributes[ATTR.correctiveCollections])).toEqual(metadata.collectionsTried);
  expect(ran.map((s) => s.attributes[ATTR.correctiveNewHits])).toEqual(metadata.newHits);
  // One chat span per model call the grader made.
  const chats = run.spans.filter((s) => s.name.startsWith("chat "));
  expect(chats).toHaveLength(run.modelCalls);
  return { tool, requeries, chats };
}

describe("the trace of a corrective pass", () => {
  describe.each([1, 2])("budget %i", (budget) => {
    it("signal: one re-query span per round, no chat span", async () => {
      const run = await searchThroughBot({ grader: "signal", budget });
      // The signal stops after a re-query that is weak itself (nothing appended, one
      // not-covered line), so this search has one round whatever the budget.
      expect(run.metadata?.retries).toBe(1);
      expect(run.metadata?.newHits).toEqual([0]);
      const { requeries, chats } = expectTruthfulTree(run);
      expect(requeries).toHaveLength(1);
      expect(chats).toHaveLength(0);
      expect(run.metadata?.graderMode).toBe("signal");
    });

    it.each(["haiku", "auto"] as const)(
      "%s: the grader's chat spans sit beside the re-queries",
      async (grader) => {
        const run = await searchThroughBot({ grader, budget });
        expect(run.metadata?.graderMode).toBe("haiku");
        expect(run.metadata?.retries).toBe(budget);
        const { requeries, chats } = expectTruthfulTree(run);
        expect(requeries).toHaveLength(budget);
        // The model grades before each re-query; the pass after the last one is the signal's.
        expect(chats).toHaveLength(budget);
        // Each round leads with the model's rewrite.
        for (const requery of requeries) {
          expect(requery.attributes[ATTR.correctiveQuery]).toMatch(/^rewrite \d+$/);
        }
        for (const chat of chats) {
          expect(chat.attributes).toMatchObject({
            [ATTR.operationName]: "chat",
            [ATTR.providerName]: "openai",
            [ATTR.requestModel]: "grader-model",
          });
        }
      },
    );
  });

  it("a grader that fails: its chat span is an error, the grade says correct, no re-query", async () => {
    const run = await searchThroughBot({ grader: "haiku", budget: 1, graderDown: true });
    expect(run.metadata).toMatchObject({ graderMode: "haiku", verdicts: ["correct"], retries: 0 });
    const { requeries, chats } = expectTruthfulTree({ ...run, modelCalls: 1 });
    expect(requeries).toHaveLength(0);
    expect(chats[0]!.status.code).toBe(2);
  });

  it("a re-query that fails: one error knowledge_requery span, not counted by the outcome", async () => {
    const run = await searchThroughBot({ grader: "signal", budget: 2, failRequeries: true });
    expect(run.metadata).toMatchObject({ retries: 0, queriesTried: [], newHits: [] });
    const { requeries } = expectTruthfulTree(run);
    expect(requeries).toHaveLength(1);
    expect(requeries[0]!.status).toMatchObject({ code: 2, message: "backend down" });
    expect(requeries[0]!.attributes[ATTR.correctiveNewHits]).toBeUndefined();
    expect(requeries[0]!.events.map((e) => e.name)).toContain("exception");
  });
});
