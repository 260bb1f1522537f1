// The SDKs log with console-style argument lists (`log.info("listening on", port)`); pino wants
// one message and one object. Errors keep their name and message as fields, never a stack in the
// message text.
import type { Logger } from "../telemetry/logger.js";

/** `(...args)` from an SDK logger as a pino message and detail object. */
export function platformLogEntry(args: readonly unknown[]): {
  message: string;
  detail: Record<string, unknown>;
} {
  const words: string[] = [];
  const detail: Record<string, unknown> = {};
  let extra = 0;
  for (const arg of args) {
    if (typeof arg === "string" || typeof arg === "number" || typeof arg === "boolean")
      words.push(String(arg));
    else if (arg instanceof Error) detail.err = arg;
    else if (arg !== undefined && arg !== null) detail[`arg${extra++}`] = arg;
  }
  return { message: words.join(" ") || "(no message)", detail };
}

export type PlatformLogLevel = "debug" | "info" | "warn" | "error";

/**
 * The level methods an SDK's logger has, each line written to our pino log (stderr) under the
 * SDK's name, read at each line since an SDK may rename its logger after building it.
 */
export function platformLogMethods(
  log: Logger,
  sdkName: () => string,
): Record<PlatformLogLevel, (...args: unknown[]) => void> {
  const method =
    (level: PlatformLogLevel) =>
    (...args: unknown[]) => {
      const { message, detail } = platformLogEntry(args);
      log[level]({ ...detail, sdk: sdkName() }, message);
    };
  return { debug: method("debug"), info: method("info"), warn: method("warn"), error: method("error") };
}
