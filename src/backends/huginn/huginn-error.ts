// Failures of a Huginn call, worded as Huginn's own MCP adapter words them
// (docs/reference/huginn-search-contract.md §4 "Error strings"), so a model sees the same text whether it reaches Huginn
// through the adapter or through second-look. The message is the whole model-facing text; the
// tools return it as a failure result.

import { KnowledgeError } from "../../knowledge/knowledge-error.js";
import { type ScrubOptions, scrubSecrets, urlWithoutCredentials } from "../../secret-text.js";
import { clipText } from "../../text-clip.js";

export type HuginnErrorKind = "unreachable" | "status" | "failed";

/** Longest server error body quoted in a message: enough for FastAPI's `{"detail": …}`. */
export const MAX_QUOTED_BODY_CHARS = 500;

export class HuginnError extends KnowledgeError {
  override readonly name = "HuginnError";
  constructor(
    readonly kind: HuginnErrorKind,
    message: string,
    /** The HTTP status, for `status` errors. */
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(`huginn-${kind}`, message, options);
  }
}

/**
 * `Knowledge API server is not running at <URL>.` The search tool adds the adapter's start hint,
 * naming the bot's collections where the adapter prints a `<name>` placeholder.
 */
export function unreachableError(baseUrl: string, startHintCollections?: readonly string[], cause?: unknown) {
  const hint =
    startHintCollections && startHintCollections.length > 0
      ? ` Start it with: uv run knowledge_api_server.py --collections ${startHintCollections.join(" ")}`
      : "";
  return new HuginnError(
    "unreachable",
    `Knowledge API server is not running at ${urlWithoutCredentials(baseUrl)}.${hint}`,
    undefined,
    {
      cause,
    },
  );
}

/**
 * `API returned <status>: <body>`, the body cut to one bounded line after `secrets` (the
 * credentials in the server's URL) are scrubbed from it; `truncated`: the body was read only in part.
 */
export function statusError(
  status: number,
  body: string,
  secrets: readonly string[] = [],
  options: ScrubOptions = {},
): HuginnError {
  return new HuginnError(
    "status",
    `API returned ${status}: ${quoteBody(scrubSecrets(body, secrets, options))}`,
    status,
  );
}

/** `Error calling Knowledge API: <what>`. */
export function failedError(what: string, cause?: unknown): HuginnError {
  return new HuginnError("failed", `Error calling Knowledge API: ${what}`, undefined, { cause });
}

// The body is the server's text: one line (a newline could forge a protocol line in the tool
// result), control characters dropped, bounded.
function quoteBody(body: string): string {
  const line = body.replace(/[\u0000-\u001f\u007f]+/g, " ").trim();
  return clipText(line, MAX_QUOTED_BODY_CHARS);
}
