// The one place the OpenTelemetry SDK is used: a tracer provider for a process (`serve`, `mcp`,
// `ask`, or a host calling startTracing), set up from the standard OTEL_* environment, plus an
// in-memory copy of the finished spans for `ask --trace`. @opentelemetry/sdk-trace-base,
// @opentelemetry/resources and @opentelemetry/exporter-trace-otlp-http are imported lazily
// here, so a process that exports nothing loads @opentelemetry/api only.
//
// What the environment can ask for (the OpenTelemetry SDK configuration names):
// - OTEL_TRACES_EXPORTER: `otlp`, `console` (one JSON line per span on stderr: stdout is the
//   MCP JSON-RPC channel), `none`, or a comma list; unset means `otlp` when an endpoint is set.
// - OTEL_EXPORTER_OTLP_ENDPOINT / OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, _HEADERS, _TIMEOUT: read
//   by the OTLP/HTTP exporter itself (JSON encoding).
// - OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES: the resource; service.name defaults to
//   `second-look`, service.version to the package's version.
// - OTEL_BSP_*: the batch processor's queue (default 2048 spans, beyond which spans are
//   dropped, never waited for), batch size and delay.
// - OTEL_SDK_DISABLED=true: nothing is exported.
import { context, trace } from "@opentelemetry/api";
import type { ReadableSpan, SpanExporter, SpanProcessor } from "@opentelemetry/sdk-trace-base";
import { DEADLINES, settleBy } from "../deadline.js";
import { errorMessage } from "../errors.js";
import { loadOptional } from "../optional-package.js";
import { AsyncLocalContextManager } from "./async-context.js";
import { type Logger, logger } from "./logger.js";
import { packageVersion } from "./package-version.js";
import { stderrSpanExporter } from "./stderr-span-exporter.js";
import { TelemetryError } from "./telemetry-error.js";
import { endOpenToolSpans } from "./tool-span.js";

/** An optional peer dependency: only a process that exports spans over OTLP needs it. */
const OTLP_EXPORTER_PACKAGE = "@opentelemetry/exporter-trace-otlp-http";

/**
 * Bound on one OTLP export request and on the final flush: telemetry must never hold up or
 * change a command's result, and an unreachable collector would otherwise cost the exporter's
 * default 10 s at exit.
 */
export const OTLP_EXPORT_TIMEOUT_MS = DEADLINES.otlpExportMs;

/** service.name when neither OTEL_SERVICE_NAME nor OTEL_RESOURCE_ATTRIBUTES names one. */
export const DEFAULT_SERVICE_NAME = "second-look";

export interface SpanCapture {
  /** Spans finished so far, in the order they ended (empty unless kept; still there after shutdown). */
  spans(): ReadableSpan[];
  /** True when spans are also sent to an OTLP/HTTP endpoint. */
  readonly otlp: boolean;
  /** True when spans are also written to stderr (OTEL_TRACES_EXPORTER=console). */
  readonly console: boolean;
  /** Flushes the exports (bounded, never throws) and unregisters what this capture registered. */
  shutdown(): Promise<void>;
}

export interface CaptureOptions {
  /** Where the OTEL_* variables are read (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Told (one line) when an export cannot be set up or fails; the capture itself still works. */
  log?: Logger;
  /** Bound on the export at shutdown (default OTLP_EXPORT_TIMEOUT_MS). */
  exportTimeoutMs?: number;
  /** Keep finished spans for spans() (default true: `ask --trace` prints them). */
  keepSpans?: boolean;
  /** Where the console exporter writes (default process.stderr). */
  consoleStream?: NodeJS.WritableStream;
}

/** Which exporters the environment asks for. */
export interface TraceExportPlan {
  otlp: boolean;
  console: boolean;
  /** The OTLP endpoint as configured (for messages), when one is set. */
  endpoint?: string;
  /** OTEL_TRACES_EXPORTER entries this process cannot export to (e.g. `zipkin`). */
  unsupported: string[];
}

export function traceExportPlan(env: NodeJS.ProcessEnv): TraceExportPlan {
  const endpoint =
    nonEmpty(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) ?? nonEmpty(env.OTEL_EXPORTER_OTLP_ENDPOINT);
  const plan: TraceExportPlan = { otlp: false, console: false, unsupported: [] };
  if (endpoint) plan.endpoint = endpoint;
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return plan;
  const named = (env.OTEL_TRACES_EXPORTER ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  if (named.length === 0) {
    plan.otlp = endpoint !== undefined;
    return plan;
  }
  if (named.includes("none")) return plan;
  for (const name of new Set(named)) {
    if (name === "otlp") plan.otlp = true;
    else if (name === "console") plan.console = true;
    else plan.unsupported.push(name);
  }
  return plan;
}

/**
 * The resource's attributes: OTEL_RESOURCE_ATTRIBUTES (`key=value,…`, values percent-encoded),
 * then OTEL_SERVICE_NAME over its service.name; service.name and service.version defaulted.
 */
export function resourceAttributes(env: NodeJS.ProcessEnv, version: string): Record<string, string> {
  const attributes: Record<string, string> = {
    "service.name": DEFAULT_SERVICE_NAME,
    "service.version": version,
  };
  for (const pair of (env.OTEL_RESOURCE_ATTRIBUTES ?? "").split(",").slice(0, 128)) {
    const at = pair.indexOf("=");
    if (at <= 0) continue;
    const key = decode(pair.slice(0, at).trim());
    const value = decode(pair.slice(at + 1).trim());
    if (key !== undefined && key !== "" && value !== undefined) attributes[key] = value;
  }
  const serviceName = nonEmpty(env.OTEL_SERVICE_NAME);
  if (serviceName) attributes["service.name"] = serviceName;
  return attributes;
}

/**
 * Tracing for a running process (`serve`, `mcp`, a host of the library) when the environment
 * asks for an export; undefined (nothing registered, nothing loaded) when it does not, or when
 * the host already registered its own tracer provider (our spans then go there).
 */
export async function startTracing(
  options: Omit<CaptureOptions, "keepSpans"> = {},
): Promise<SpanCapture | undefined> {
  const plan = traceExportPlan(options.env ?? process.env);
  if (!plan.otlp && !plan.console) {
    warnUnsupported(plan, options.log ?? logger());
    return undefined;
  }
  try {
    return await captureSpans({ ...options, keepSpans: false });
  } catch (error) {
    // E.g. a host registered its own tracer provider first: our spans go to it.
    (options.log ?? logger()).warn(
      { err: error },
      `tracing not started: ${error instanceof Error ? error.message : String(error)}`,
    );
    return undefined;
  }
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
  const plan = traceExportPlan(env);
  warnUnsupported(plan, log);
  const sdk = await import("@opentelemetry/sdk-trace-base");
  const { defaultResource, resourceFromAttributes } = await import("@opentelemetry/resources");
  const memory = options.keepSpans === false ? undefined : new sdk.InMemorySpanExporter();
  const processors: SpanProcessor[] = memory ? [new sdk.SimpleSpanProcessor(memory)] : [];
  const failures = failureReporter(log, plan.endpoint);
  // Queue size, batch size and delay come from OTEL_BSP_* when set; the export bound from
  // OTEL_BSP_EXPORT_TIMEOUT, else ours.
  const batchOptions = env.OTEL_BSP_EXPORT_TIMEOUT ? {} : { exportTimeoutMillis: exportTimeoutMs };
  let otlp = false;
  if (plan.otlp) {
    try {
      // The exporter reads the OTEL_EXPORTER_OTLP_* variables itself (endpoint, headers, timeout).
      // An optional peer dependency (src/optional-package.ts): a missing one is named in the warning.
      const { OTLPTraceExporter } = await loadOptional(
        { packages: [OTLP_EXPORTER_PACKAGE], neededFor: "OTLP trace export", layer: "telemetry" },
        () => import("@opentelemetry/exporter-trace-otlp-http"),
      );
      const ownTimeout = env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT || env.OTEL_EXPORTER_OTLP_TIMEOUT;
      const exporter = new OTLPTraceExporter(ownTimeout ? {} : { timeoutMillis: exportTimeoutMs });
      processors.push(new sdk.BatchSpanProcessor(reportingFailures(exporter, failures), batchOptions));
      otlp = true;
    } catch (error) {
      log.warn(
        { err: error },
        `OTLP trace export unavailable; spans are not exported: ${errorMessage(error)}`,
      );
    }
  }
  if (plan.console) {
    const exporter = stderrSpanExporter(options.consoleStream ?? process.stderr);
    processors.push(new sdk.BatchSpanProcessor(exporter, batchOptions));
  }
  const resource = defaultResource().merge(resourceFromAttributes(resourceAttributes(env, packageVersion())));
  const provider = new sdk.BasicTracerProvider({ resource, spanProcessors: processors });
  const contextManager = new AsyncLocalContextManager();
  const ownsContext = context.setGlobalContextManager(contextManager);
  if (!trace.setGlobalTracerProvider(provider)) {
    if (ownsContext) context.disable();
    await provider.shutdown();
    throw new TelemetryError("tracer-registered", "captureSpans: a tracer provider is already registered");
  }
  // Shutting the provider down empties the in-memory exporter; keep what it held.
  let kept: ReadableSpan[] | undefined;
  const finished = () => kept ?? memory?.getFinishedSpans() ?? [];
  return {
    spans: finished,
    otlp,
    console: plan.console,
    async shutdown() {
      if (kept) return;
      // A tool span still waiting for its corrective pass ends now, at its search's end.
      endOpenToolSpans();
      kept = [...finished()];
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
      kept = [...(memory?.getFinishedSpans() ?? [])];
      if (otlp && failure !== undefined) failures.failed(failure);
      trace.disable();
      if (ownsContext) context.disable();
      // After a failed export, shutting down would only try the same collector again.
      const shutdownBound =
        failure === undefined && !failures.any() ? exportTimeoutMs : Math.min(exportTimeoutMs, 500);
      await settleBy(provider.shutdown(), AbortSignal.timeout(shutdownBound), undefined);
    },
  };
}

interface FailureReporter {
  failed(reason: string): void;
  succeeded(): void;
  any(): boolean;
}

/**
 * One warning when exports start failing (naming the endpoint), one info line when they work
 * again; the failures in between are debug lines, so a dead collector cannot flood the log.
 */
function failureReporter(log: Logger, endpoint: string | undefined): FailureReporter {
  const where = endpoint ?? "the default OTLP endpoint";
  let failing = false;
  let ever = false;
  return {
    failed(reason) {
      ever = true;
      if (failing) {
        log.debug({ endpoint }, `OTLP trace export to ${where} failed again (${reason})`);
        return;
      }
      failing = true;
      log.warn(
        { endpoint },
        `OTLP trace export to ${where} failed (${reason}); spans are dropped until it works`,
      );
    },
    succeeded() {
      if (!failing) return;
      failing = false;
      log.info({ endpoint }, `OTLP trace export to ${where} works again`);
    },
    any: () => ever,
  };
}

function reportingFailures(exporter: SpanExporter, failures: FailureReporter): SpanExporter {
  return {
    export(spans, done) {
      exporter.export(spans, (result) => {
        if (result.code === 0) failures.succeeded();
        else failures.failed(result.error?.message ?? "export failed");
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    ...(exporter.forceFlush ? { forceFlush: () => exporter.forceFlush!() } : {}),
  };
}

function warnUnsupported(plan: TraceExportPlan, log: Logger): void {
  if (plan.unsupported.length === 0) return;
  log.warn(
    { exporters: plan.unsupported },
    `OTEL_TRACES_EXPORTER names ${plan.unsupported.join(", ")}, which second-look cannot export to (otlp, console or none)`,
  );
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
