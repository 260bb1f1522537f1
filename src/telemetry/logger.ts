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

/** One log record as a plain object: pino's fields (`level` as a number, `msg`, `time`, …). */
export type LogEntry = Record<string, unknown> & { level: number; msg?: string };
export type LogFunction = (entry: LogEntry) => void;

/**
 * Send the library's logs to a function instead of stderr (a host with its own logging).
 * Records are redacted as on stderr; a function that throws loses that record, never the work.
 */
export function setLogFunction(log: LogFunction, options: { level?: string } = {}): void {
  const destination = {
    write(line: string): void {
      try {
        log(JSON.parse(line) as LogEntry);
      } catch {
        // A log sink must never break the search it reports on.
      }
    },
  };
  setLogger(createLogger({ ...options, destination: destination as unknown as NodeJS.WritableStream }));
}
