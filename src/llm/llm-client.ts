// The model-call contract the grader and the retrieval strategies are written against. The
// providers (anthropic, openai-compatible, copilot) implement it; tests script it turn by turn.

export interface ChatMessage {
  role: "user" | "assistant";
  content: string;
}

export interface ChatRequest {
  /** Overrides the client's default model for this call. */
  model?: string;
  /** The system prompt. */
  system?: string;
  messages: ChatMessage[];
  /** Upper bound on the reply's tokens. */
  maxTokens?: number;
  temperature?: number;
  /** Ask for a JSON object where the provider supports it; callers still parse tolerantly. */
  json?: boolean;
  /** Per-call bound; the client's default when absent. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface ChatUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface ChatResponse {
  text: string;
  model: string;
  usage: ChatUsage;
  finishReason?: string;
}

/** What a client has spent since it was created: every call it made, answered or not. */
export interface UsageTotals {
  /** Calls made (one per `chat`, however many HTTP attempts it took). */
  calls: number;
  /** Calls that ended in an error (timeout, abort, exhausted retries, unreadable reply). */
  failures: number;
  /** HTTP attempts beyond the first, over all calls. */
  retries: number;
  inputTokens: number;
  outputTokens: number;
}

export interface LlmClient {
  /** The default model of this client (used for spans and logs). */
  readonly model: string;
  /** `anthropic`, `openai`, `azure` or `copilot`; for logs. */
  readonly provider?: string;
  /** One model call. Rejects on timeout, abort, or when retries are exhausted. */
  chat(request: ChatRequest): Promise<ChatResponse>;
  /** The running total of this client's calls and tokens. */
  usage?(): UsageTotals;
}
