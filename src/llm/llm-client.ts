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

export interface LlmClient {
  /** The default model of this client (used for spans and logs). */
  readonly model: string;
  /** One model call. Rejects on timeout, abort, or when retries are exhausted. */
  chat(request: ChatRequest): Promise<ChatResponse>;
}
