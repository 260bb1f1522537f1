import { errorMessage, SecondLookError } from "../errors.js";
/** The cli layer's error codes (docs/errors.md). */
export const CLI_ERROR_CODES = ["usage"] as const;
export type CliErrorCode = (typeof CLI_ERROR_CODES)[number];

/** An error meant for the user: printed as one line on stderr, with this exit code. */
export class CliError extends SecondLookError<CliErrorCode> {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super("cli", "usage", message);
    this.name = "CliError";
  }
}

/** The one line a failed command prints: the message only, never a stack. */
export function errorLine(command: string, error: unknown): string {
  const message = errorMessage(error);
  return `second-look ${command}: ${message.split("\n").join(" ")}\n`;
}
