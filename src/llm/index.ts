// LLM providers (design §1 `llm/`): the LlmClient contract, the factory that builds one from a
// bot's provider config, and tolerant JSON extraction for model replies.
export { type CreateLlmClientOptions, createLlmClient, type LlmProvider } from "./create-llm-client.js";
export type {
  ChatMessage,
  ChatRequest,
  ChatResponse,
  ChatUsage,
  LlmClient,
  UsageTotals,
} from "./llm-client.js";
export { LlmError, type LlmErrorKind } from "./llm-error.js";
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry-policy.js";
export { extractJson, extractJsonObject } from "./tolerant-json.js";
