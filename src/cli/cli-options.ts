// Rules shared by the long-running commands (`serve`, `mcp --http`): whole-number options
// checked to a range with one clear line, and waiting for the signal that stops them.
import { CliError } from "./cli-error.js";

/** `raw` as a whole number from `min` to `max` (`fallback` when absent); else a CliError naming `name`. */
export function wholeOption(
  raw: string | undefined,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new CliError(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

/** Resolves with the signal's name at the first SIGTERM or SIGINT. */
export function untilSignal(): Promise<string> {
  return new Promise((resolve) => {
    const on = (signal: NodeJS.Signals) => {
      process.off("SIGTERM", on);
      process.off("SIGINT", on);
      resolve(signal);
    };
    process.once("SIGTERM", on);
    process.once("SIGINT", on);
  });
}
