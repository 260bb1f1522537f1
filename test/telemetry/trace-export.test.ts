// What the OTEL_* environment asks of a process: which exporters, which resource, and nothing at
// all when it asks nothing. The console exporter writes one JSON line per span to the stream it
// is given (stderr in a process), never stdout.
import { Writable } from "node:stream";
import { context, trace } from "@opentelemetry/api";
import { afterEach, describe, expect, it } from "vitest";
import {
  captureSpans,
  DEFAULT_SERVICE_NAME,
  resourceAttributes,
  type SpanCapture,
  startTracing,
  traceExportPlan,
} from "../../src/telemetry/capture-spans.js";
import { packageVersion } from "../../src/telemetry/package-version.js";
import { withOpenToolSpan } from "../../src/telemetry/tool-span.js";
import { tracer } from "../../src/telemetry/tracer.js";
import { silent } from "../corrective/corrective-fixtures.js";

let capture: SpanCapture | undefined;
afterEach(async () => {
  await capture?.shutdown();
  capture = undefined;
});

describe("traceExportPlan", () => {
  it("exports over OTLP when an endpoint is set, and only then by default", () => {
    expect(traceExportPlan({})).toMatchObject({ otlp: false, console: false });
    expect(traceExportPlan({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" })).toMatchObject({
      otlp: true,
      console: false,
      endpoint: "http://127.0.0.1:4318",
    });
    expect(
      traceExportPlan({
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://c:4318/v1/traces",
        OTEL_EXPORTER_OTLP_ENDPOINT: "x",
      }).endpoint,
    ).toBe("http://c:4318/v1/traces");
  });

  it("follows OTEL_TRACES_EXPORTER: console, otlp, none, a list, and names what it cannot do", () => {
    expect(traceExportPlan({ OTEL_TRACES_EXPORTER: "console" })).toMatchObject({
      otlp: false,
      console: true,
    });
    expect(traceExportPlan({ OTEL_TRACES_EXPORTER: " OTLP , console" })).toMatchObject({
      otlp: true,
      console: true,
    });
    expect(
      traceExportPlan({ OTEL_TRACES_EXPORTER: "none", OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:1" }),
    ).toMatchObject({ otlp: false, console: false });
    expect(traceExportPlan({ OTEL_TRACES_EXPORTER: "zipkin,console" })).toMatchObject({
      console: true,
      unsupported: ["zipkin"],
    });
    expect(
      traceExportPlan({ OTEL_SDK_DISABLED: "true", OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:1" }),
    ).toMatchObject({ otlp: false, console: false });
  });
});

describe("resourceAttributes", () => {
  it("defaults service.name to second-look and service.version to the package's", () => {
    expect(resourceAttributes({}, "1.2.3")).toEqual({
      "service.name": DEFAULT_SERVICE_NAME,
      "service.version": "1.2.3",
    });
  });

  it("reads OTEL_RESOURCE_ATTRIBUTES (percent-decoded), with OTEL_SERVICE_NAME over its service.name", () => {
    const env = {
      OTEL_RESOURCE_ATTRIBUTES:
        "service.name=from-attrs,deployment.environment=prod,team=a%2Cb,broken,=x,bad=%E0%A4%A",
    };
    expect(resourceAttributes(env, "1")).toEqual({
      "service.name": "from-attrs",
      "service.version": "1",
      "deployment.environment": "prod",
      team: "a,b",
    });
    expect(resourceAttributes({ ...env, OTEL_SERVICE_NAME: "ask-bot" }, "1")["service.name"]).toBe("ask-bot");
  });
});

describe("startTracing", () => {
  it("registers nothing when the environment asks for no export", async () => {
    capture = await startTracing({ env: {}, log: silent });
    expect(capture).toBeUndefined();
    // With no provider registered, spans are the API's no-op ones.
    expect(tracer().startSpan("x").isRecording()).toBe(false);
  });

  it("console: one JSON line per span on the given stream, with the resource", async () => {
    let written = "";
    const stream = new Writable({
      write(chunk, _e, done) {
        written += String(chunk);
        done();
      },
    });
    capture = await startTracing({
      env: { OTEL_TRACES_EXPORTER: "console", OTEL_SERVICE_NAME: "console-test" },
      log: silent,
      consoleStream: stream,
    });
    expect(capture?.console).toBe(true);
    const parent = tracer().startSpan("parent");
    const child = tracer().startSpan(
      "child",
      { attributes: { "corrective.new_hits": 2 } },
      trace.setSpan(context.active(), parent),
    );
    child.end();
    parent.end();
    await capture!.shutdown();
    const lines = written
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.name)).toEqual(["child", "parent"]);
    expect(lines[0]).toMatchObject({
      parentSpanId: (lines[1] as { id: string }).id,
      attributes: { "corrective.new_hits": 2 },
      resource: { "service.name": "console-test", "service.version": packageVersion() },
    });
    capture = undefined;
  });
});

describe("open tool spans", () => {
  it("a tool span nobody ends is ended at its result when the capture shuts down", async () => {
    capture = await captureSpans({ env: {}, log: silent });
    const { span } = await withOpenToolSpan("search_knowledge", { query: "q" }, async () => "found");
    expect(capture.spans()).toHaveLength(0);
    await capture.shutdown();
    const [tool] = capture.spans();
    expect(tool?.name).toBe("execute_tool search_knowledge");
    span.end(); // a late end is a no-op
    expect(capture.spans()).toHaveLength(1);
    capture = undefined;
  });
});
