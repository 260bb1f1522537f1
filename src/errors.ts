// Every error this library throws on purpose is a SecondLookError: `layer` says which part of
// the code raised it and `code` what went wrong, so a caller can branch on data instead of
// parsing messages. Each layer has its own subclasses (LlmError, KnowledgeError, BotConfigError,
// CliError, …) and one union of its codes, in the module that owns the layer's errors; the
// constructor is protected so no code is a free string. Every code, with its layer and what it
// means, is in docs/errors.md. Messages are written by us and safe to show and log.

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

export class SecondLookError<Code extends string = string> extends Error {
  protected constructor(
    readonly layer: ErrorLayer,
    readonly code: Code,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options?.cause !== undefined ? { cause: options.cause } : undefined);
    this.name = "SecondLookError";
  }
}

/**
 * The base class of one layer's errors: its code union, its layer, its name. Written once here so
 * each layer's class is one line (`class KnowledgeError extends layerError<KnowledgeErrorCode>(…) {}`).
 */
export function layerError<Code extends string>(layer: ErrorLayer, name: string) {
  return class extends SecondLookError<Code> {
    constructor(code: Code, message: string, options?: { cause?: unknown }) {
      super(layer, code, message, options);
      this.name = name;
    }
  };
}

/** The message of anything thrown, for a one-line report (an Error's message, else its text). */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

/**
 * A search or a document request named a collection outside what the backend (or the bot) may
 * search. Here, beside SecondLookError, because every backend raises it alike — the embedded
 * engine, the PostgreSQL backend and the Huginn client — and none should import another for it.
 */
export class UnknownCollectionError extends SecondLookError<"unknown-collection"> {
  constructor(
    readonly collection: string,
    readonly available: readonly string[],
  ) {
    // Huginn's adapter wording, so a model sees the same text whichever backend answered.
    super(
      "knowledge",
      "unknown-collection",
      `Collection '${collection}' is not available. Available: ${available.join(", ")}`,
    );
    this.name = "UnknownCollectionError";
  }
}
