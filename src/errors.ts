// Every error this library throws on purpose is a SecondLookError: `layer` says which part of
// the code raised it and `code` what went wrong, so a caller can branch on data instead of
// parsing messages. Each layer has its own subclass (LlmError, KnowledgeError's kin, BotConfigError,
// CliError, …); their messages are written by us and safe to show and log.

export type ErrorLayer =
  | "deadline"
  | "telemetry"
  | "llm"
  | "knowledge"
  | "corrective"
  | "strategies"
  | "bots"
  | "connectors"
  | "hosts"
  | "evaluation"
  | "cli";

export class SecondLookError extends Error {
  constructor(
    readonly layer: ErrorLayer,
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options?.cause !== undefined ? { cause: options.cause } : undefined);
    this.name = "SecondLookError";
  }
}

/** The message of anything thrown, for a one-line report (an Error's message, else its text). */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}
