// The model grader end to end: the real corrective pass (correctToolResult → orchestrator),
// the real grader and the real HTTP providers, against loopback servers speaking each
// provider's wire format (JSON and SSE). The model's verdict decides; its rewrite drives the
// re-query; its collection is honoured only inside the allow-list; a slow, failing or
// unparseable grader leaves the original result untouched; keys never reach a log.
import { afterEach, describe, expect, it } from "vitest";
import { correctToolResult } from "../../src/corrective/correct-tool-result.js";
import { createKnowledgeGrader } from "../../src/corrective/knowledge-grader.js";
import { REASON_GRADER_UNAVAILABLE, REASON_GRADER_UNPARSEABLE } from "../../src/corrective/llm-grade.js";
import { renderSearchResponse } from "../../src/knowledge-tool/render.js";
import { createLlmClient } from "../../src/llm/create-llm-client.js";
import type { Logger } from "../../src/telemetry/logger.js";
import { captureLog } from "../llm/log-capture.js";
import {
  type ScriptedProviderServer,
  type Step,
  startScriptedProviderServer,
  text,
} from "../llm/scripted-provider-server.js";
import { hit, response, silent, stubBackend } from "./corrective-fixtures.js";

const KEY = "sk-grader-loopback-secret-123";
const QUERY = "leave carry over";
const servers: ScriptedProviderServer[] = [];
afterEach(async () => {
  while (servers.length) await servers.pop()!.close();
});

/** A weak handbook result (one low hit), as the model would have received it. */
const original = renderSearchResponse(
  response(QUERY, [hit("handbook", "old.md", "Old leave memo", 0.2, "Superseded memo.")], {
    broaderQuery: "leave",
    broaderQueryStrategy: "drop-last",
  }),
  { brief: false },
);

function backend() {
  return stubBackend(
    (request) =>
      response(request.query, [
        hit(request.collections?.[0] ?? "handbook", `new-${request.query}`, "Leave policy", 0.8),
      ]),
    ["handbook", "hr", "wiki"],
  );
}

type Wire = "anthropic" | "anthropic-sse" | "openai" | "openai-sse";

async function setup(
  steps: Step[] | ((i: number) => Step),
  options: { wire?: Wire; graderTimeoutMs?: number; log?: Logger } = {},
) {
  const server = await startScriptedProviderServer(steps);
  servers.push(server);
  const wire = options.wire ?? "anthropic";
  const provider = wire.startsWith("anthropic")
    ? { type: "anthropic" as const, baseUrl: server.url, apiKeyEnv: "GRADER_KEY" }
    : { type: "openai" as const, baseUrl: `${server.url}/v1`, apiKeyEnv: "GRADER_KEY" };
  const log = options.log ?? silent;
  const client = createLlmClient(
    provider,
    "claude-haiku-4-5",
    { GRADER_KEY: KEY },
    {
      stream: wire.endsWith("-sse"),
      retry: { baseDelayMs: 1, maxDelayMs: 5 },
      log,
    },
  );
  const graderTimeoutMs = options.graderTimeoutMs ?? 8_000;
  const grade = createKnowledgeGrader(client, {
    timeoutMs: graderTimeoutMs,
    collections: ["handbook", "hr"],
    log,
  });
  const search = backend();
  const run = (toolArgs: Record<string, unknown> = { query: QUERY, collection: "handbook" }) =>
    correctToolResult(
      { toolName: "search_knowledge", toolArgs, resultText: original },
      {
        backend: search,
        allowedCollections: ["handbook", "hr"],
        grader: "haiku",
        grade,
        graderTimeoutMs,
        log,
      },
    );
  return { server, search, run, client };
}

const verdict = (v: Record<string, unknown>) => text(JSON.stringify(v));

describe.each<Wire>(["anthropic", "anthropic-sse", "openai", "openai-sse"])(
  "haiku grader over %s",
  (wire) => {
    it("applies the model's verdict: its rewrite drives the re-query", async () => {
      const { server, search, run } = await setup(
        [
          verdict({
            verdict: "insufficient",
            rewrittenQuery: "annual leave carryover policy",
            reason: "only an old memo",
          }),
        ],
        { wire },
      );
      const corrected = await run();
      expect(server.requests).toHaveLength(1); // one call per search; none after the last re-query
      expect(search.requests.map((r) => r.query)).toEqual(["annual leave carryover policy"]);
      expect(corrected!.outcome.metadata).toMatchObject({
        graderMode: "haiku",
        // The final verdict is the signal's on the merged set: no model call after the last re-query.
        verdicts: ["insufficient", "correct"],
        queriesTried: ["annual leave carryover policy"],
        collectionsTried: [["handbook"]],
        retries: 1,
      });
      expect(corrected!.outcome.changed).toBe(true);
      expect(corrected!.text.startsWith(original.replace(/\n\n\*Weak match[^\n]*$/, ""))).toBe(true);
      expect(corrected!.text).toContain(
        'graded "insufficient" (only an old memo); re-searched "annual leave carryover policy"',
      );
    });

    it("a 'correct' verdict leaves the weak original as it is (the model overrules the signal)", async () => {
      const { search, run } = await setup([verdict({ verdict: "correct", reason: "the memo answers it" })], {
        wire,
      });
      const corrected = await run();
      expect(search.requests).toHaveLength(0);
      expect(corrected!.text).toBe(original);
      expect(corrected!.outcome.metadata).toMatchObject({
        graderMode: "haiku",
        verdicts: ["correct"],
        retries: 0,
      });
    });
  },
);

describe("haiku grader: untrusted suggestions, failures", () => {
  it("a suggested collection inside the allow-list redirects the re-query there", async () => {
    const { search, run } = await setup([
      verdict({
        verdict: "ambiguous",
        rewrittenQuery: "carryover",
        suggestedCollection: "hr",
        reason: "HR owns this",
      }),
    ]);
    const corrected = await run();
    expect(search.requests).toEqual([{ query: "carryover", collections: ["hr"], rerank: true }]);
    expect(corrected!.outcome.metadata.collectionsTried).toEqual([["hr"]]);
  });

  it("a suggested collection outside the allow-list is ignored: the re-query stays in scope", async () => {
    const { log, text: logged } = captureLog();
    const { search, run } = await setup(
      [
        verdict({
          verdict: "ambiguous",
          rewrittenQuery: "carryover",
          suggestedCollection: "wiki",
          reason: "see wiki",
        }),
      ],
      { log },
    );
    const corrected = await run();
    // "wiki" exists on the backend, but this bot may not search it.
    expect(search.requests).toEqual([{ query: "carryover", collections: ["handbook"], rerank: true }]);
    expect(corrected!.outcome.metadata.collectionsTried).toEqual([["handbook"]]);
    expect(logged()).toContain("suggested collection is outside the call's allow-list; ignored");
  });

  it("a grader slower than its timeout leaves the original untouched within timeout + 1 s", async () => {
    const { search, run } = await setup(
      [{ ...verdict({ verdict: "insufficient", rewrittenQuery: "x" }), delayMs: 6_000 }],
      {
        graderTimeoutMs: 500,
      },
    );
    const started = Date.now();
    const corrected = await run();
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(corrected!.text).toBe(original);
    expect(corrected!.outcome.changed).toBe(false);
    expect(corrected!.outcome.metadata).toMatchObject({
      verdicts: ["correct"],
      reasons: [REASON_GRADER_UNAVAILABLE],
    });
    expect(search.requests).toHaveLength(0);
  });

  it("unparseable output means 'correct'", async () => {
    const { search, run } = await setup([text("The results look mostly fine to me, I would say.")]);
    const corrected = await run();
    expect(corrected!.text).toBe(original);
    expect(corrected!.outcome.metadata).toMatchObject({
      verdicts: ["correct"],
      reasons: [REASON_GRADER_UNPARSEABLE],
    });
    expect(search.requests).toHaveLength(0);
  });

  it("429 then success: the verdict after the retry is applied", async () => {
    const { server, search, run } = await setup([
      { status: 429, headers: { "retry-after": "1" }, body: '{"error":{"message":"slow down"}}' },
      verdict({ verdict: "insufficient", rewrittenQuery: "carryover rules", reason: "memo only" }),
    ]);
    const corrected = await run();
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.at - server.requests[0]!.at).toBeGreaterThanOrEqual(950);
    expect(search.requests.map((r) => r.query)).toEqual(["carryover rules"]);
    expect(corrected!.outcome.changed).toBe(true);
  });

  it("500 until the retries run out means 'correct', and the key is in no log line", async () => {
    const { log, text: logged } = captureLog();
    const { server, search, run, client } = await setup(
      [{ status: 500, body: JSON.stringify({ error: { message: `internal error for ${KEY}` } }) }],
      { log },
    );
    const corrected = await run();
    expect(server.requests).toHaveLength(3);
    expect(corrected!.text).toBe(original);
    expect(corrected!.outcome.metadata).toMatchObject({
      verdicts: ["correct"],
      reasons: [REASON_GRADER_UNAVAILABLE],
    });
    expect(search.requests).toHaveLength(0);
    expect(client.usage?.()).toMatchObject({ calls: 1, failures: 1, retries: 2 });
    expect(logged()).toContain("grader failed");
    expect(logged()).toContain("HTTP 500");
    expect(logged()).not.toContain(KEY);
  });
});
