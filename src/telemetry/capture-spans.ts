// Span capture for one CLI run (`second-look ask --trace`): registers a tracer provider that
// keeps finished spans in memory, plus OTLP/HTTP export when OTEL_EXPORTER_OTLP_ENDPOINT (or
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set. This is the one place the SDK is used, so
// @opentelemetry/sdk-trace-base is a runtime dependency, and @opentelemetry/exporter-trace-otlp-http
// one as well; both are imported lazily here, so the library itself loads @opentelemetry/api only.
import { context, trace } from "@opentelemetry/api";
import type { ReadableSpan, SpanProcessor } from "@opentelemetry/sdk-trace-base";
import { settleBy } from "../deadline.js";
import { AsyncLocalContextManager } from "./async-context.js";
import { type Logger, logger } from "./logger.js";

/**
 * How long the end of a run waits for the OTLP export (per request, and for the final flush):
 * telemetry must never hold up or change a command's result, and an unreachable collector
 * would otherwise cost the exporter's default 10 s, then fail the command.
 */
export const OTLP_EXPORT_TIMEOUT_MS = 3_000;

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
  /** Told (one line) when OTLP export cannot be set up or fails; the capture itself still works. */
  log?: Logger;
  /** Bound on the OTLP export at shutdown (default OTLP_EXPORT_TIMEOUT_MS). */
  exportTimeoutMs?: number;
}

/**
 * Registers the global tracer provider and an AsyncLocalStorage context manager (so span
 * parents survive `await`). Throws when another tracer provider is already registered: spans
 * would go there and the capture would silently stay empty.
 */
export async function captureSpans(options: CaptureOptions = {}): Promise<SpanCapture> {
  const env = options.env ?? process.env;
  const log = options.log ?? logger();
  const exportTimeoutMs = options.exportTimeoutMs ?? OTLP_EXPORT_TIMEOUT_MS;
  const sdk = await import("@opentelemetry/sdk-trace-base");
  const memory = new sdk.InMemorySpanExporter();
  const processors: SpanProcessor[] = [new sdk.SimpleSpanProcessor(memory)];
  let otlp = false;
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (endpoint) {
    try {
      // The exporter reads the OTEL_EXPORTER_OTLP_* variables itself (endpoint, headers).
      const { OTLPTraceExporter } = await import("@opentelemetry/exporter-trace-otlp-http");
      const ownTimeout = env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT || env.OTEL_EXPORTER_OTLP_TIMEOUT;
      processors.push(
        new sdk.BatchSpanProcessor(
          new OTLPTraceExporter(ownTimeout ? {} : { timeoutMillis: exportTimeoutMs }),
          { exportTimeoutMillis: exportTimeoutMs },
        ),
      );
      otlp = true;
    } catch (error) {
      log.warn({ err: error }, "OTLP trace export unavailable; spans are only captured locally");
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
      // Never throws and never waits past the bound: an export that fails or hangs is one
      // warning line, and the command's result stays what it was.
      const failure = await settleBy(
        provider.forceFlush().then(
          () => undefined,
          (error: unknown) => (error instanceof Error ? error.message : String(error)),
        ),
        AbortSignal.timeout(exportTimeoutMs),
        `no answer within ${exportTimeoutMs} ms`,
      );
      kept = [...memory.getFinishedSpans()];
      if (otlp && failure !== undefined) {
        log.warn(
          { endpoint },
          `OTLP trace export to ${endpoint} failed (${failure}); the spans are printed locally only`,
        );
      }
      trace.disable();
      if (ownsContext) context.disable();
      // After a failed export, shutting down would only try the same collector again.
      const shutdownBound = failure === undefined ? exportTimeoutMs : Math.min(exportTimeoutMs, 500);
      await settleBy(provider.shutdown(), AbortSignal.timeout(shutdownBound), undefined);
    },
  };
}
