// The corrective spans, captured with the SDK's in-memory exporter: real parent/child links to
// the tool-call span, the attributes of docs/design.md §9, and silence for an uneventful signal check.
import { context, trace } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { correctToolResult } from "../../src/corrective/correct-tool-result.js";
import { captureSpans, type SpanCapture } from "../../src/telemetry/capture-spans.js";
import {
  ATTR,
  EVALUATION_NAME,
  SPAN_EXECUTE_TOOL_SEARCH_KNOWLEDGE,
  SPAN_KNOWLEDGE_GRADE,
  SPAN_KNOWLEDGE_REQUERY,
} from "../../src/telemetry/span-names.js";
import { withToolSpan } from "../../src/telemetry/tool-span.js";
import { tracer } from "../../src/telemetry/tracer.js";
import type { KnowledgeBackend } from "../../src/types.js";
import {
  hit,
  oldDocText,
  response,
  scriptedGrader,
  silent,
  stubBackend,
  textB,
  widerHit,
} from "../corrective/corrective-fixtures.js";

const args = { query: "LA_BUC_02 obscure phrasing", collection: "wiki" };
const confident = `## Good (90.0% relevant · high)\ncollection: \`wiki\` doc_id: \`g\`\n\nbody`;

function byName(spans: ReadableSpan[], name: string): ReadableSpan[] {
  return spans.filter((s) => s.name === name);
}

function searchInToolSpan(resultText: string, backend: KnowledgeBackend, extra: object = {}) {
  return withToolSpan("search_knowledge", args, () =>
    correctToolResult(
      { toolName: "search_knowledge", toolArgs: args, resultText },
      { backend, allowedCollections: ["wiki"], log: silent, ...extra },
    ),
  );
}

describe("corrective spans (context manager registered by captureSpans)", () => {
  let capture: SpanCapture;
  beforeEach(async () => {
    capture = await captureSpans({ env: {} });
  });
  afterEach(async () => {
    await capture.shutdown();
  });

  it("knowledge_grade and knowledge_requery are children of the tool span, with their attributes", async () => {
    const backend = stubBackend(() => response("LA_BUC concepts", [widerHit]));
    const out = await searchInToolSpan(textB, backend);
    expect(out?.outcome.changed).toBe(true);
    const spans = capture.spans();
    const [tool] = byName(spans, SPAN_EXECUTE_TOOL_SEARCH_KNOWLEDGE);
    const [grade] = byName(spans, SPAN_KNOWLEDGE_GRADE);
    const requeries = byName(spans, SPAN_KNOWLEDGE_REQUERY);
    expect(tool && grade).toBeTruthy();
    expect(requeries).toHaveLength(1);
    const toolId = tool!.spanContext().spanId;
    expect(grade!.parentSpanContext?.spanId).toBe(toolId);
    expect(requeries[0]!.parentSpanContext?.spanId).toBe(toolId);
    expect(grade!.spanContext().traceId).toBe(tool!.spanContext().traceId);
    expect(tool!.parentSpanContext).toBeUndefined();

    expect(grade!.attributes).toMatchObject({
      [ATTR.correctiveMode]: "signal",
      [ATTR.correctiveVerdicts]: ["insufficient", "correct"],
      [ATTR.correctiveFinalVerdict]: "correct",
      [ATTR.correctivePasses]: 2,
      [ATTR.correctiveRetries]: 1,
      [ATTR.evaluationName]: EVALUATION_NAME,
      [ATTR.evaluationScoreLabel]: "correct",
      [ATTR.evaluationExplanation]: "no low-confidence signal from the search",
    });
    expect(requeries[0]!.attributes).toMatchObject({
      [ATTR.correctiveQuery]: "LA_BUC concepts",
      [ATTR.retrievalQueryText]: "LA_BUC concepts",
      [ATTR.correctiveCollections]: ["wiki"],
      [ATTR.correctiveNewHits]: 1,
    });
    expect(tool!.attributes).toMatchObject({
      [ATTR.toolName]: "search_knowledge",
      [ATTR.operationName]: "execute_tool",
      [ATTR.retrievalQueryText]: args.query,
    });
    // The grade span covers the pass, so it starts no later than the re-query it led to.
    const ms = (t: [number, number]) => t[0] * 1e3 + t[1] / 1e6;
    expect(ms(grade!.startTime)).toBeLessThanOrEqual(ms(requeries[0]!.startTime));
    expect(ms(grade!.endTime)).toBeGreaterThanOrEqual(ms(requeries[0]!.endTime));
  });

  it("no corrective span for an uneventful signal-mode check", async () => {
    const out = await searchInToolSpan(
      confident,
      stubBackend(() => response("x", [])),
    );
    expect(out).toBeNull();
    expect(capture.spans().map((s) => s.name)).toEqual([SPAN_EXECUTE_TOOL_SEARCH_KNOWLEDGE]);
  });

  it("a weak result without a usable hint: one knowledge_grade, no knowledge_requery", async () => {
    await searchInToolSpan(
      `${oldDocText}\n\n*Weak match — try: related terms: a*`,
      stubBackend(() => response("x", [])),
    );
    const names = capture.spans().map((s) => s.name);
    expect(names.filter((n) => n === SPAN_KNOWLEDGE_GRADE)).toHaveLength(1);
    expect(names).not.toContain(SPAN_KNOWLEDGE_REQUERY);
  });

  it("a model grade that says 'correct' still emits knowledge_grade (mode haiku)", async () => {
    await searchInToolSpan(
      confident,
      stubBackend(() => response("x", [])),
      {
        grader: "haiku",
        grade: scriptedGrader({ verdict: "correct", reason: "fine" }),
      },
    );
    const [grade] = byName(capture.spans(), SPAN_KNOWLEDGE_GRADE);
    expect(grade?.attributes[ATTR.correctiveMode]).toBe("haiku");
    expect(grade?.attributes[ATTR.evaluationExplanation]).toBe("fine");
  });

  it("a failed re-query is an ERROR knowledge_requery span and leaves the text unchanged", async () => {
    const backend = stubBackend(() => {
      throw new Error("backend down");
    });
    const out = await searchInToolSpan(textB, backend);
    expect(out?.text).toBe(textB);
    const [requery] = byName(capture.spans(), SPAN_KNOWLEDGE_REQUERY);
    expect(requery?.status).toMatchObject({ code: 2, message: "backend down" });
    expect(requery?.attributes[ATTR.correctiveNewHits]).toBeUndefined();
    const [grade] = byName(capture.spans(), SPAN_KNOWLEDGE_GRADE);
    expect(grade?.attributes[ATTR.correctiveRetries]).toBe(0);
  });

  it("two re-queries: two knowledge_requery spans, one knowledge_grade", async () => {
    let n = 0;
    const backend = stubBackend((r) =>
      response(r.query, [hit("wiki", `n${++n}`, `New ${n}`, 0.3)], { narrowerQuery: "narrow" }),
    );
    // Model-graded: the signal stops after a re-query that is weak itself.
    const grades = [
      { verdict: "insufficient" as const, reason: "x", rewrittenQuery: "LA_BUC concepts" },
      { verdict: "insufficient" as const, reason: "x", rewrittenQuery: "narrow" },
    ];
    let call = 0;
    const grade = async () => grades[Math.min(call++, grades.length - 1)]!;
    await searchInToolSpan(textB, backend, { budget: 2, grader: "haiku", grade });
    const spans = capture.spans();
    expect(byName(spans, SPAN_KNOWLEDGE_REQUERY).map((s) => s.attributes[ATTR.correctiveQuery])).toEqual([
      "LA_BUC concepts",
      "narrow",
    ]);
    expect(byName(spans, SPAN_KNOWLEDGE_GRADE)).toHaveLength(1);
  });

  it("a backend's own spans nest under the knowledge_requery span", async () => {
    const backend: KnowledgeBackend = {
      collections: () => ["wiki"],
      async search(request) {
        await new Promise((resolve) => setTimeout(resolve, 1));
        return tracer().startActiveSpan("backend.search", async (span) => {
          span.end();
          return response(request.query, [widerHit]);
        });
      },
    };
    await searchInToolSpan(textB, backend);
    const spans = capture.spans();
    const [requery] = byName(spans, SPAN_KNOWLEDGE_REQUERY);
    const [inner] = byName(spans, "backend.search");
    expect(inner?.parentSpanContext?.spanId).toBe(requery?.spanContext().spanId);
  });
});

describe("corrective spans without a context manager", () => {
  let exporter: InMemorySpanExporter;
  let provider: BasicTracerProvider;
  beforeEach(() => {
    exporter = new InMemorySpanExporter();
    provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    trace.setGlobalTracerProvider(provider);
  });
  afterEach(async () => {
    trace.disable();
    context.disable();
    await provider.shutdown();
  });

  it("an explicit traceContext (withToolSpan hands it over) keeps the links real", async () => {
    const backend = stubBackend(() => response("LA_BUC concepts", [widerHit]));
    await withToolSpan("search_knowledge", args, (toolContext) =>
      correctToolResult(
        { toolName: "search_knowledge", toolArgs: args, resultText: textB },
        { backend, allowedCollections: ["wiki"], log: silent, traceContext: toolContext },
      ),
    );
    const spans = exporter.getFinishedSpans();
    const [tool] = byName(spans, SPAN_EXECUTE_TOOL_SEARCH_KNOWLEDGE);
    for (const name of [SPAN_KNOWLEDGE_GRADE, SPAN_KNOWLEDGE_REQUERY]) {
      expect(byName(spans, name)[0]?.parentSpanContext?.spanId).toBe(tool?.spanContext().spanId);
    }
  });
});
