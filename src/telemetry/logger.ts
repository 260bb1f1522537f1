import { type Logger, pino } from "pino";

export type { Logger };

// Paths pino blanks out wherever they appear in a log object: keys must never reach a log line.
const REDACT_PATHS = [
  "apiKey",
  "*.apiKey",
  "*.*.apiKey",
  "authorization",
  "*.authorization",
  "*.headers.authorization",
  "*.headers['x-api-key']",
  "headers['x-api-key']",
  "token",
  "*.token",
  "bearerToken",
  "*.bearerToken",
  "gitHubToken",
  "*.gitHubToken",
];

/**
 * The process logger: JSON lines on stderr (fd 2), never stdout, which belongs to the CLI and
 * to MCP's JSON-RPC. Level from SECOND_LOOK_LOG_LEVEL (default "info").
 */
export function createLogger(options: { level?: string; destination?: NodeJS.WritableStream } = {}): Logger {
  const level = options.level ?? process.env.SECOND_LOOK_LOG_LEVEL ?? "info";
  return pino(
    { level, base: undefined, redact: { paths: REDACT_PATHS, censor: "[redacted]" } },
    options.destination ?? pino.destination({ fd: 2, sync: true }),
  );
}

let shared: Logger | undefined;

/** The lazily created process-wide logger. */
export function logger(): Logger {
  shared ??= createLogger();
  return shared;
}

/** Replace the process-wide logger (tests, or a host that owns logging). */
export function setLogger(next: Logger): void {
  shared = next;
}
