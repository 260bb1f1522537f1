// Span capture for one CLI run (`second-look ask --trace`): registers a tracer provider that
// keeps finished spans in memory, plus OTLP/HTTP export when OTEL_EXPORTER_OTLP_ENDPOINT (or
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set. This is the one place the SDK is used, so
// @opentelemetry/sdk-trace-base is a runtime dependency, and @opentelemetry/exporter-trace-otlp-http
// one as well; both are imported lazily here, so the library itself loads @opentelemetry/api only.
import { context, trace } from "@opentelemetry/api";
import type { ReadableSpan, SpanProcessor } from "@opentelemetry/sdk-trace-base";
import { AsyncLocalContextManager } from "./async-context.js";
import type { Logger } from "./logger.js";

export interface SpanCapture {
  /** Spans finished so far, in the order they ended (still available after shutdown). */
  spans(): ReadableSpan[];
  /** True when spans are also sent to an OTLP/HTTP endpoint. */
  readonly otlp: boolean;
  /** Flushes the OTLP export (if any) and unregisters what this capture registered. */
  shutdown(): Promise<void>;
}

export interface CaptureOptions {
  /** Where the OTLP endpoint variables are read (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Told when OTLP export cannot be set up; the capture itself still works. */
  log?: Logger;
}

/**
 * Registers the global tracer provider and an AsyncLocalStorage context manager (so span
 * parents survive `await`). Throws when another tracer provider is already registered: spans
 * would go there and the capture would silently stay empty.
 */
export async function captureSpans(options: CaptureOptions = {}): Promise<SpanCapture> {
  const env = options.env ?? process.env;
  const sdk = await import("@opentelemetry/sdk-trace-base");
  const memory = new sdk.InMemorySpanExporter();
  const processors: SpanProcessor[] = [new sdk.SimpleSpanProcessor(memory)];
  let otlp = false;
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (endpoint) {
    try {
      // The exporter reads the OTEL_EXPORTER_OTLP_* variables itself (endpoint, headers).
      const { OTLPTraceExporter } = await import("@opentelemetry/exporter-trace-otlp-http");
      processors.push(new sdk.BatchSpanProcessor(new OTLPTraceExporter()));
      otlp = true;
    } catch (error) {
      options.log?.warn({ err: error }, "OTLP trace export unavailable; spans are only captured locally");
    }
  }
  const provider = new sdk.BasicTracerProvider({ spanProcessors: processors });
  const contextManager = new AsyncLocalContextManager();
  const ownsContext = context.setGlobalContextManager(contextManager);
  if (!trace.setGlobalTracerProvider(provider)) {
    if (ownsContext) context.disable();
    await provider.shutdown();
    throw new Error("captureSpans: a tracer provider is already registered");
  }
  // Shutting the provider down empties the in-memory exporter; keep what it held.
  let kept: ReadableSpan[] | undefined;
  return {
    spans: () => kept ?? memory.getFinishedSpans(),
    otlp,
    async shutdown() {
      if (kept) return;
      kept = [...memory.getFinishedSpans()];
      try {
        await provider.forceFlush();
        kept = [...memory.getFinishedSpans()];
      } finally {
        trace.disable();
        if (ownsContext) context.disable();
        await provider.shutdown();
      }
    },
  };
}
