import { pino } from "pino";
import type { Logger } from "../../../src/telemetry/logger.js";

/** A logger that keeps its lines (to assert that errors were logged) and prints nothing. */
export function recordingLog(): { log: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const log = pino(
    { level: "debug", base: undefined },
    {
      write(line: string) {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      },
    },
  );
  return { log, lines };
}
