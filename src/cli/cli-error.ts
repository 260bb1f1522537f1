/** An error meant for the user: printed as one line on stderr, with this exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = "CliError";
  }
}

/** The one line a failed command prints: the message only, never a stack. */
export function errorLine(command: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return `second-look ${command}: ${message.split("\n").join(" ")}\n`;
}
