// Tracing for one CLI process (`serve`, `mcp`, `ask`): the OTEL_* environment decides what is
// exported (src/telemetry/capture-spans.ts), `ask --trace` also keeps the spans to print them,
// and the exports are flushed (bounded) when the command ends: after `serve` stopped on
// SIGTERM/SIGINT, after `mcp` saw stdin close or a signal, after `ask` answered.
import { captureSpans, type SpanCapture, startTracing } from "../telemetry/capture-spans.js";

/**
 * Runs `command` with tracing set up from the environment; `keepSpans` also keeps every span
 * for `command` to read. A process the environment asks nothing of registers nothing.
 */
export async function withTracing<T>(
  options: { keepSpans: boolean },
  command: (capture: SpanCapture | undefined) => Promise<T>,
): Promise<T> {
  const capture = options.keepSpans ? await captureSpans() : await startTracing();
  try {
    return await command(capture);
  } finally {
    await capture?.shutdown();
  }
}
