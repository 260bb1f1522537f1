// A tiny OTLP/HTTP trace receiver on 127.0.0.1: accepts POST /v1/traces with the JSON encoding
// (what @opentelemetry/exporter-trace-otlp-http sends; gzip or not) and keeps every span,
// flattened with its resource's attributes. For tests and benches of what a process exports.
// `mode: "hang"` accepts requests and never answers: a collector that is there but dead.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";

export interface ReceivedSpan {
  /** The resource's service.name. */
  service: string;
  resource: Record<string, unknown>;
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  /** Epoch milliseconds (from the nanosecond fields). */
  startMs: number;
  endMs: number;
  attributes: Record<string, unknown>;
  /** 2 is ERROR. */
  statusCode: number;
}

export interface OtlpReceiver {
  /** `http://127.0.0.1:<port>`: OTEL_EXPORTER_OTLP_ENDPOINT (the exporter appends /v1/traces). */
  url: string;
  spans: ReceivedSpan[];
  /** Export requests received (answered or not). */
  requests(): number;
  /** Polls until `check` holds over the spans so far; throws naming `what` after `timeoutMs`. */
  waitFor(what: string, check: (spans: ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: OtlpValue[] };
}
interface OtlpAttribute {
  key: string;
  value?: OtlpValue;
}
interface OtlpSpan {
  traceId?: string;
  spanId?: string;
  parentSpanId?: string;
  name?: string;
  startTimeUnixNano?: string | number;
  endTimeUnixNano?: string | number;
  attributes?: OtlpAttribute[];
  status?: { code?: number };
}
interface OtlpExport {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: { spans?: OtlpSpan[] }[];
  }[];
}

export async function startOtlpReceiver(options: { mode?: "answer" | "hang" } = {}): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  let requests = 0;
  const server: Server = createServer((req, res) => {
    requests += 1;
    if (options.mode === "hang") {
      req.resume();
      return;
    }
    readBody(req)
      .then((body) => {
        if (req.method !== "POST" || !req.url?.endsWith("/v1/traces")) {
          res.writeHead(404).end();
          return;
        }
        spans.push(...decode(JSON.parse(body) as OtlpExport));
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
      })
      .catch(() => res.writeHead(400).end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    spans,
    requests: () => requests,
    async waitFor(what, check, timeoutMs = 30_000) {
      const started = Date.now();
      while (!check(spans)) {
        if (Date.now() - started > timeoutMs) {
          throw new Error(`timed out waiting for ${what}; received: ${spans.map((s) => s.name).join(", ")}`);
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      try {
        resolve((req.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw).toString("utf8"));
      } catch (error) {
        reject(error);
      }
    });
    req.on("error", reject);
  });
}

function decode(payload: OtlpExport): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const resourceSpans of payload.resourceSpans ?? []) {
    const resource = attributesOf(resourceSpans.resource?.attributes);
    for (const scope of resourceSpans.scopeSpans ?? []) {
      for (const span of scope.spans ?? []) {
        const received: ReceivedSpan = {
          service: String(resource["service.name"] ?? ""),
          resource,
          name: span.name ?? "",
          traceId: span.traceId ?? "",
          spanId: span.spanId ?? "",
          startMs: Number(span.startTimeUnixNano ?? 0) / 1e6,
          endMs: Number(span.endTimeUnixNano ?? 0) / 1e6,
          attributes: attributesOf(span.attributes),
          statusCode: span.status?.code ?? 0,
        };
        if (span.parentSpanId) received.parentSpanId = span.parentSpanId;
        out.push(received);
      }
    }
  }
  return out;
}

function attributesOf(attributes: OtlpAttribute[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const attribute of attributes ?? []) out[attribute.key] = decodeValue(attribute.value);
  return out;
}

function decodeValue(value: OtlpValue | undefined): unknown {
  if (!value) return undefined;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(decodeValue);
  return undefined;
}
