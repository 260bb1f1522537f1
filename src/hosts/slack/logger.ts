// Bolt, its Web API client and the Socket Mode client log through this instead of their console
// logger, which writes to stdout (stdout belongs to the CLI): their lines join the process's
// pino log on stderr, with secrets redacted there.
import { LogLevel, type Logger as SlackLogger } from "@slack/bolt";
import type { Logger } from "../../telemetry/logger.js";
import { platformLogEntry } from "../platform-log-message.js";

export function slackLogger(log: Logger): SlackLogger {
  let level: LogLevel = LogLevel.INFO;
  let name = "slack";
  const write = (method: "debug" | "info" | "warn" | "error", args: unknown[]) => {
    const { message, detail } = platformLogEntry(args);
    log[method]({ ...detail, sdk: name }, message);
  };
  return {
    debug: (...args: unknown[]) => write("debug", args),
    info: (...args: unknown[]) => write("info", args),
    warn: (...args: unknown[]) => write("warn", args),
    error: (...args: unknown[]) => write("error", args),
    // The level is pino's to decide; Bolt only asks so it can skip building debug strings.
    setLevel: (next: LogLevel) => {
      level = next;
    },
    getLevel: () => level,
    setName: (next: string) => {
      name = next;
    },
  };
}
