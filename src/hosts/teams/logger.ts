// The Teams SDK's default ConsoleLogger writes to stdout (stdout belongs to the CLI); this sends
// its lines to the process's pino log on stderr instead.
import type { AppOptions } from "@microsoft/teams.apps";
import type { Logger } from "../../telemetry/logger.js";
import { platformLogEntry } from "../platform-log-message.js";

type Method = "debug" | "info" | "warn" | "error";

const LEVELS: Record<string, Method> = {
  error: "error",
  warn: "warn",
  info: "info",
  debug: "debug",
  trace: "debug",
};

/** The SDK's logger interface, named through the package we depend on (teams.common is its dependency). */
type TeamsLogger = NonNullable<AppOptions<never>["logger"]>;

export function teamsLogger(log: Logger, name = "teams"): TeamsLogger {
  const write = (method: Method, args: unknown[]) => {
    const { message, detail } = platformLogEntry(args);
    log[method]({ ...detail, sdk: name }, message);
  };
  return {
    debug: (...args: unknown[]) => write("debug", args),
    info: (...args: unknown[]) => write("info", args),
    warn: (...args: unknown[]) => write("warn", args),
    error: (...args: unknown[]) => write("error", args),
    trace: (...args: unknown[]) => write("debug", args),
    log: (level: string, ...args: unknown[]) => write(LEVELS[level] ?? "info", args),
    child: (childName: string) => teamsLogger(log, `${name}/${childName}`),
  };
}
