// OTEL_TRACES_EXPORTER=console: one JSON line per finished span, on stderr. The SDK's own console
// exporter writes to stdout, which is the MCP JSON-RPC channel (and the CLI's answer), so it is
// never used; this one takes the stream it writes to.
import type { HrTime } from "@opentelemetry/api";
import type { ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace-base";

/** A span as the line shows it (the fields of the SDK's console exporter, times in µs since the epoch). */
export interface SpanLine {
  resource: Record<string, unknown>;
  traceId: string;
  parentSpanId?: string;
  id: string;
  name: string;
  kind: number;
  timestamp: number;
  duration: number;
  attributes: Record<string, unknown>;
  status: { code: number; message?: string };
  events: { name: string; time: number; attributes?: Record<string, unknown> }[];
}

export function spanLine(span: ReadableSpan): SpanLine {
  const line: SpanLine = {
    resource: { ...span.resource.attributes },
    traceId: span.spanContext().traceId,
    id: span.spanContext().spanId,
    name: span.name,
    kind: span.kind,
    timestamp: micros(span.startTime),
    duration: micros(span.duration),
    attributes: { ...span.attributes },
    status: span.status,
    events: span.events.map((event) => ({
      name: event.name,
      time: micros(event.time),
      ...(event.attributes ? { attributes: { ...event.attributes } } : {}),
    })),
  };
  const parent = span.parentSpanContext?.spanId;
  if (parent) line.parentSpanId = parent;
  return line;
}

export function stderrSpanExporter(stream: NodeJS.WritableStream): SpanExporter {
  let open = true;
  return {
    export(spans, done) {
      if (!open) {
        done({ code: 1, error: new Error("exporter is shut down") });
        return;
      }
      stream.write(spans.map((span) => `${JSON.stringify(spanLine(span))}\n`).join(""));
      done({ code: 0 });
    },
    async shutdown() {
      open = false;
    },
  };
}

function micros(time: HrTime): number {
  return Math.round(time[0] * 1e6 + time[1] / 1e3);
}
