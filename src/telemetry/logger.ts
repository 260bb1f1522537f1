import { createRequire } from "node:module";
import type * as Pino from "pino";
import type { Level, Logger } from "pino";
import type PinoPretty from "pino-pretty";

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

/** pino's levels and their values (pino's own table, known here without loading pino). */
const LEVEL_VALUES: Readonly<Record<string, number>> = {
  fatal: 60,
  error: 50,
  warn: 40,
  info: 30,
  debug: 20,
  trace: 10,
};
const LEVELS: readonly string[] = [...Object.keys(LEVEL_VALUES), "silent"];
/** Spellings people use for a pino level that mean exactly one of them. */
const LEVEL_ALIASES: Readonly<Record<string, Level>> = { warning: "warn", err: "error", critical: "fatal" };

export type LogFormat = "json" | "pretty";

export interface LoggerOptions {
  /** A pino level; default SECOND_LOOK_LOG_LEVEL, else "info". */
  level?: string;
  /** Where lines go (default stderr). A given stream gets JSON unless `format` says otherwise. */
  destination?: NodeJS.WritableStream;
  /** Default SECOND_LOOK_LOG_FORMAT, else readable lines on a terminal and JSON otherwise. */
  format?: LogFormat;
  env?: NodeJS.ProcessEnv;
  /** Whether stderr is a terminal (default: process.stderr.isTTY). */
  stderrIsTty?: boolean;
}

/**
 * The process logger, on stderr (fd 2), never stdout, which belongs to the CLI and to MCP's
 * JSON-RPC. On a terminal the lines are readable (time, level, message, then the fields);
 * piped or redirected, or with SECOND_LOOK_LOG_FORMAT=json, one JSON object per line.
 * An unusable SECOND_LOOK_LOG_LEVEL / SECOND_LOOK_LOG_FORMAT is named in a warning, never fatal.
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const env = options.env ?? process.env;
  const problems: string[] = [];
  const level = options.level ?? levelFromEnv(env, problems);
  const format = logFormat(options, env, problems);
  const base = { level, base: undefined, redact: { paths: REDACT_PATHS, censor: "[redacted]" } };
  const { pino } = loadPino();
  const log =
    format === "pretty"
      ? pino(
          base,
          loadPinoPretty()({
            destination: options.destination ?? 2,
            sync: true,
            colorize: options.destination === undefined && process.stderr.isTTY === true,
            translateTime: "SYS:HH:MM:ss",
            ignore: "pid,hostname",
            // One line per entry: the message, and the fields (in one line) only where a reader
            // needs them: warnings and errors, or when debugging.
            hideObject: true,
            messageFormat: (entry, messageKey) =>
              humanMessage(entry, messageKey, level === "debug" || level === "trace"),
          }),
        )
      : pino(base, options.destination ?? pino.destination({ fd: 2, sync: true }));
  for (const problem of problems) log.warn(problem);
  return log;
}

/**
 * pino when the first logger is made, not when this module is imported: a command that logs
 * nothing (a search that finds its index as it was) never loads it. Synchronous, as a logger is
 * created synchronously; pino is a CommonJS package.
 */
function loadPino(): typeof Pino {
  return createRequire(import.meta.url)("pino") as typeof Pino;
}

/**
 * pino-pretty only when readable lines are asked for (a terminal, or SECOND_LOOK_LOG_FORMAT=pretty):
 * a library that logs JSON, or not at all, does not load it. Synchronous, because a logger is
 * created synchronously; pino-pretty is a CommonJS package.
 */
function loadPinoPretty(): typeof PinoPretty {
  return createRequire(import.meta.url)("pino-pretty") as typeof PinoPretty;
}

const ENTRY_KEYS = new Set(["level", "time", "msg", "pid", "hostname"]);

/** A log entry as one readable line: its message, then `key=value` fields when they matter. */
export function humanMessage(entry: Record<string, unknown>, messageKey: string, verbose: boolean): string {
  const message = typeof entry[messageKey] === "string" ? (entry[messageKey] as string) : "";
  const level = typeof entry.level === "number" ? entry.level : 30;
  if (level < 40 && !verbose) return message;
  const fields: string[] = [];
  for (const [key, value] of Object.entries(entry)) {
    if (ENTRY_KEYS.has(key) || key === messageKey || value === undefined) continue;
    fields.push(`${key}=${fieldText(value)}`);
  }
  return fields.length > 0 ? `${message} (${fields.join(" ")})` : message;
}

function fieldText(value: unknown): string {
  if (typeof value === "string") return /[\s"=]/.test(value) ? JSON.stringify(value) : value;
  if (
    value !== null &&
    typeof value === "object" &&
    typeof (value as { message?: unknown }).message === "string"
  ) {
    // A serialised error: its message is what a reader acts on; the stack is for --debug JSON.
    return JSON.stringify((value as { message: string }).message);
  }
  return JSON.stringify(value) ?? String(value);
}

/** Readable lines on a terminal; JSON when piped, redirected, given a stream, or asked for. */
export function logFormat(
  options: LoggerOptions,
  env: NodeJS.ProcessEnv,
  problems: string[] = [],
): LogFormat {
  const asked = options.format ?? formatFromEnv(env, problems);
  if (asked) return asked;
  const tty = options.stderrIsTty ?? process.stderr.isTTY === true;
  return options.destination === undefined && tty ? "pretty" : "json";
}

function levelFromEnv(env: NodeJS.ProcessEnv, problems: string[]): string {
  const raw = env.SECOND_LOOK_LOG_LEVEL;
  if (raw === undefined || raw.trim() === "") return "info";
  const value = raw.trim().toLowerCase();
  if (LEVELS.includes(value)) return value;
  const alias = LEVEL_ALIASES[value];
  if (alias) return alias;
  problems.push(
    `SECOND_LOOK_LOG_LEVEL=${JSON.stringify(raw)} is not a log level (${LEVELS.join(", ")}); using info`,
  );
  return "info";
}

function formatFromEnv(env: NodeJS.ProcessEnv, problems: string[]): LogFormat | undefined {
  const raw = env.SECOND_LOOK_LOG_FORMAT;
  if (raw === undefined || raw.trim() === "") return undefined;
  const value = raw.trim().toLowerCase();
  if (value === "json" || value === "pretty") return value;
  problems.push(`SECOND_LOOK_LOG_FORMAT=${JSON.stringify(raw)} is neither json nor pretty; ignored`);
  return undefined;
}

let shared: Logger | undefined;

/**
 * Stands for the process logger until something is logged: holding it (a corrective pass, a
 * resolver, a server keeps one at hand) creates nothing, so a command that logs nothing (a
 * quiet search) never loads pino. Any use creates the process logger then and acts on it.
 */
const deferred: Logger = new Proxy({} as Logger, {
  get(_target, key) {
    // A call below the level the logger would be made with writes nothing: no logger for it.
    if (shared === undefined && typeof key === "string" && isBelowDefaultLevel(key)) return ignore;
    shared ??= createLogger();
    const value: unknown = Reflect.get(shared, key, shared);
    return typeof value === "function" ? value.bind(shared) : value;
  },
  set(_target, key, value) {
    shared ??= createLogger();
    return Reflect.set(shared, key, value, shared);
  },
  has(_target, key) {
    shared ??= createLogger();
    return Reflect.has(shared, key);
  },
});

const ignore = () => undefined;

/** Whether `method` is a level the default logger (SECOND_LOOK_LOG_LEVEL, else info) leaves out. */
function isBelowDefaultLevel(method: string): boolean {
  if (!Object.hasOwn(LEVEL_VALUES, method)) return false;
  const value = LEVEL_VALUES[method]!;
  const level = levelFromEnv(process.env, []);
  return level === "silent" || value < LEVEL_VALUES[level]!;
}

/** The process-wide logger, created on its first use (see `deferred`). */
export function logger(): Logger {
  return shared ?? deferred;
}

/** Replace the process-wide logger (tests, or a host that owns logging). */
export function setLogger(next: Logger): void {
  // Handing back what `logger()` gave before anything was logged restores the default logger.
  shared = next === deferred ? undefined : next;
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
