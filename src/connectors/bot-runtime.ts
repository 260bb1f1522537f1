// The seam chat hosts (Slack, Teams, web, the CLI) call, and the injection points a connector
// needs (docs/design.md §8). Nothing here names a concrete backend, renderer or corrective engine, so
// the connector is testable with fakes and the real orchestrator plugs in without changes.

import type { SearchCall } from "../corrective/search-call.js";
import type { SearchArgs } from "../knowledge-tool/tool-arguments.js";
import type { CorrectiveMetadata, Doc, Hit, SearchRequest, SearchResponse } from "../types.js";
import { type BotRuntimeErrorCode, ConnectorsError } from "./connectors-error.js";

export interface ProviderDescription {
  type: "openai" | "anthropic" | "azure";
  baseUrl: string;
  /** Name of the environment variable holding the API key; the key itself is never stored or logged. */
  apiKeyEnv?: string;
}

export interface BotLimits {
  /** Tool calls allowed per question; the next one aborts the turn. */
  maxToolCalls: number;
  /** Wall-clock bound on one question, model and tools included. */
  timeoutMs: number;
}

export interface BotDescription {
  name: string;
  /** The bot folder; connector state lives under `<dir>/.second-look/`. */
  dir: string;
  /** The system prompt, verbatim (it replaces the runtime's default prompt). */
  persona: string;
  model?: string;
  provider?: ProviderDescription;
  limits: BotLimits;
}

/** One knowledge-search result handed to the corrective pass. */
export interface CorrectCall {
  /** The tool name as the runtime reported it (`search_knowledge`, `knowledge-search_knowledge`, …). */
  toolName: string;
  /** The model's arguments (always a plain object by the time `correct` sees them). */
  toolArgs: unknown;
  /** The text the model would receive. */
  resultText: string;
  /** Aborted when the hook's time bound or the question's deadline passes. */
  signal: AbortSignal;
  /**
   * The collections this call's caller may search: an HTTP token's scope, else the bot's own
   * list (stdio, the Copilot SDK session), as the connector's tools computed it. The pass, its
   * grader's prompt, every re-query and what it appends stay inside it (and inside the bot's).
   */
  scope: readonly string[];
  /** The user's question this search serves (for a model grader), when the connector knows it. */
  question?: string;
  /**
   * The search as one value, when it ran in this process: its arguments as our tool validated
   * them and its structured response travel with it, and the pass reads neither from the text.
   */
  searchCall?: SearchCall;
  /** An observed call's arguments, already read once (`parseSearchArgs`) by the connector. */
  args?: SearchArgs;
}

export interface CorrectResult {
  text: string;
  changed: boolean;
  metadata: CorrectiveMetadata;
  /** The hits the pass appended to the text, in the order shown (each inside the call's scope). */
  added?: Hit[];
}

/** Corrective retrieval for one call; `null` means "nothing to say" (an uneventful check). */
export type CorrectFn = (call: CorrectCall) => Promise<CorrectResult | null>;

/** The protocol renderer (docs/design.md §4): a search response as the text the model reads. */
export type RenderResult = (response: SearchResponse, brief: boolean) => string;

/**
 * A search run in-process as the one value the rest of the pipeline takes (`searchCall` in
 * search-pipeline.ts): its text rendered, `scope` the caller's allow-list travelling with it.
 */
export type RunSearch = (
  request: SearchRequest,
  scope: readonly string[],
  options?: { signal?: AbortSignal },
) => Promise<SearchCall>;

/** Renders a `get_document` result. */
export type RenderDocument = (doc: Doc) => string;

/** What the corrective pass did for one tool call. */
export interface CorrectiveRecord {
  /** True when the model received corrected text instead of the original. */
  changed: boolean;
  metadata: CorrectiveMetadata | null;
  /** Set when `correct` threw or overran its time bound; the original text passed through. */
  failure?: "error" | "timeout";
}

export interface ToolCallRecord {
  /** The runtime's tool call id. */
  id: string;
  name: string;
  args: unknown;
  /** The text the model received for this call (after any correction). */
  resultText: string;
  success: boolean;
  corrective?: CorrectiveRecord;
}

export interface AskOptions {
  /** Follow-ups with the same id continue the same session. */
  conversationId: string;
  /** Cancels the question (the session is aborted, not just abandoned). */
  signal?: AbortSignal;
}

export interface AskResult {
  answer: string;
  /** In completion order. */
  toolCalls: ToolCallRecord[];
}

export interface BotRuntime {
  ask(question: string, options: AskOptions): Promise<AskResult>;
  /** Ends every session and releases the shared runtime client. */
  close(): Promise<void>;
}

export type { BotRuntimeErrorCode } from "./connectors-error.js";

/** The one error type `ask` rejects with; `message` is a single line fit for a user. */
export class BotRuntimeError extends ConnectorsError {
  override readonly name = "BotRuntimeError";
  constructor(
    override readonly code: BotRuntimeErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}
