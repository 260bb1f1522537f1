// The library's tracer. Library code uses @opentelemetry/api only: with no SDK registered every
// call is a no-op, and a host that registers its own provider gets our spans in its traces.
import { type Tracer, trace } from "@opentelemetry/api";

export const TRACER_NAME = "second-look";

/**
 * The clock of every span we start and end: wall-clock milliseconds since the epoch with
 * sub-millisecond precision, one monotonic source. Passed explicitly to startSpan/end, because
 * the SDK's own clock anchors each span on Date.now() (whole milliseconds), which can put a
 * child's end up to a millisecond after its parent's.
 */
export function epochMs(): number {
  return performance.timeOrigin + performance.now();
}

/**
 * Looked up on every call, never cached: the API hands out proxy tracers that stick to the
 * first provider they saw, so a cached one would keep writing to a provider that a test (or a
 * CLI run) has since replaced.
 */
export function tracer(): Tracer {
  return trace.getTracer(TRACER_NAME);
}
