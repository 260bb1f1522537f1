// The Teams SDK's default ConsoleLogger writes to stdout (stdout belongs to the CLI); this sends
// its lines to the process's pino log on stderr instead.
import type { AppOptions } from "@microsoft/teams.apps";
import type { Logger } from "../../telemetry/logger.js";
import { type PlatformLogLevel, platformLogMethods } from "../platform-log-message.js";

const LEVELS: Record<string, PlatformLogLevel> = {
  error: "error",
  warn: "warn",
  info: "info",
  debug: "debug",
  trace: "debug",
};

/** The SDK's logger interface, named through the package we depend on (teams.common is its dependency). */
type TeamsLogger = NonNullable<AppOptions<never>["logger"]>;

export function teamsLogger(log: Logger, name = "teams"): TeamsLogger {
  const methods = platformLogMethods(log, () => name);
  return {
    ...methods,
    trace: methods.debug,
    log: (level: string, ...args: unknown[]) => methods[LEVELS[level] ?? "info"](...args),
    child: (childName: string) => teamsLogger(log, `${name}/${childName}`),
  };
}
