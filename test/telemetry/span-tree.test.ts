import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { context, SpanStatusCode, trace } from "@opentelemetry/api";
import { BasicTracerProvider } from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it } from "vitest";
import { correctToolResult } from "../../src/corrective/correct-tool-result.js";
import { captureSpans, renderSpanTree, type SpanCapture } from "../../src/telemetry/span-tree.js";
import { withToolSpan } from "../../src/telemetry/tool-span.js";
import { tracer } from "../../src/telemetry/tracer.js";
import { response, silent, stubBackend, textB, widerHit } from "../corrective/corrective-fixtures.js";

let capture: SpanCapture | undefined;
afterEach(async () => {
  await capture?.shutdown();
  capture = undefined;
});

describe("renderSpanTree", () => {
  it("draws the corrective pass under its tool call, with durations and key attributes", async () => {
    capture = await captureSpans({ env: {} });
    const backend = stubBackend(() => response("LA_BUC concepts", [widerHit]));
    await tracer().startActiveSpan("invoke_agent demo", async (root) => {
      await withToolSpan("search_knowledge", { query: "LA_BUC_02" }, () =>
        correctToolResult(
          { toolName: "search_knowledge", toolArgs: { query: "LA_BUC_02" }, resultText: textB },
          { backend, allowedCollections: ["wiki"], log: silent },
        ),
      );
      root.end();
    });
    const lines = renderSpanTree(capture.spans()).split("\n");
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^invoke_agent demo {2}\d+\.\d+ ms$/);
    expect(lines[1]).toMatch(/^└─ execute_tool search_knowledge {2}\d+\.\d+ ms$/);
    expect(lines[2]).toMatch(
      /^ {3}├─ knowledge_grade {2}\d+\.\d+ ms {2}mode="signal" {2}verdicts=insufficient,correct {2}final="correct" {2}retries=1$/,
    );
    expect(lines[3]).toMatch(
      /^ {3}└─ knowledge_requery {2}\d+\.\d+ ms {2}queries="LA_BUC concepts" {2}collections=wiki {2}new_hits=1$/,
    );
  });

  it("marks failed spans, treats spans with a missing parent as roots, and clips long values", async () => {
    capture = await captureSpans({ env: {} });
    const parent = tracer().startSpan("parent-not-captured");
    const orphan = tracer().startSpan(
      "orphan",
      { attributes: { "corrective.final_verdict": `${"q".repeat(200)}\nnext` } },
      trace.setSpan(context.active(), parent),
    );
    orphan.setStatus({ code: SpanStatusCode.ERROR, message: "it broke" });
    orphan.end();
    const tree = renderSpanTree(capture.spans());
    expect(tree.startsWith("orphan  ")).toBe(true);
    expect(tree).toContain(`final="${"q".repeat(80)}…"`);
    expect(tree.endsWith("ERROR: it broke")).toBe(true);
    expect(renderSpanTree([])).toBe("");
  });
});

describe("captureSpans", () => {
  it("keeps the spans after shutdown, and shutdown is idempotent", async () => {
    capture = await captureSpans({ env: {} });
    tracer().startSpan("one").end();
    await capture.shutdown();
    await capture.shutdown();
    expect(capture.spans().map((s) => s.name)).toEqual(["one"]);
    expect(capture.otlp).toBe(false);
    // Unregistered: a new capture can start.
    const next = await captureSpans({ env: {} });
    await next.shutdown();
  });

  it("refuses to run when another tracer provider is registered", async () => {
    const other = new BasicTracerProvider();
    trace.setGlobalTracerProvider(other);
    try {
      await expect(captureSpans({ env: {} })).rejects.toThrow("already registered");
    } finally {
      trace.disable();
      await other.shutdown();
    }
  });

  it("exports over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT is set", async () => {
    const received: { url: string | undefined; bytes: number }[] = [];
    const server = createServer((req, res) => {
      let bytes = 0;
      req.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
      });
      req.on("end", () => {
        received.push({ url: req.url, bytes });
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const saved = process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = endpoint;
    try {
      capture = await captureSpans();
      expect(capture.otlp).toBe(true);
      tracer().startSpan("exported").end();
      await capture.shutdown();
      expect(received.some((r) => r.url === "/v1/traces" && r.bytes > 0)).toBe(true);
      expect(capture.spans().map((s) => s.name)).toEqual(["exported"]);
    } finally {
      if (saved === undefined) delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
      else process.env.OTEL_EXPORTER_OTLP_ENDPOINT = saved;
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
