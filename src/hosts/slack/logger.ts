// Bolt, its Web API client and the Socket Mode client log through this instead of their console
// logger, which writes to stdout (stdout belongs to the CLI): their lines join the process's
// pino log on stderr, with secrets redacted there.
import { LogLevel, type Logger as SlackLogger } from "@slack/bolt";
import type { Logger } from "../../telemetry/logger.js";
import { platformLogMethods } from "../platform-log-message.js";

export function slackLogger(log: Logger): SlackLogger {
  let level: LogLevel = LogLevel.INFO;
  let name = "slack";
  return {
    ...platformLogMethods(log, () => name),
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
