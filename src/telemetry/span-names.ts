// Span and attribute names (docs/design.md §9), in one place so emitters, tests and the span-tree
// renderer cannot drift apart. `gen_ai.*` names follow the OpenTelemetry GenAI conventions;
// `corrective.*` are ours.
import { SEARCH_KNOWLEDGE_TOOL } from "../types.js";

/** The tool call a corrective pass belongs to: `execute_tool <tool>`. */
export const EXECUTE_TOOL_PREFIX = "execute_tool";
export const SPAN_EXECUTE_TOOL_SEARCH_KNOWLEDGE = `${EXECUTE_TOOL_PREFIX} ${SEARCH_KNOWLEDGE_TOOL}`;
/** One per eventful corrective pass: the grading verdicts and the final verdict. */
export const SPAN_KNOWLEDGE_GRADE = "knowledge_grade";
/** One per corrective re-query (a round of candidate searches), with what the outcome records. */
export const SPAN_KNOWLEDGE_REQUERY = "knowledge_requery";
/** Each LLM call: `chat <model>`. */
export const CHAT_PREFIX = "chat";

export function executeToolSpanName(toolName: string): string {
  return `${EXECUTE_TOOL_PREFIX} ${toolName}`;
}

export function chatSpanName(model: string): string {
  return `${CHAT_PREFIX} ${model}`;
}

export const ATTR = {
  // knowledge_grade
  correctiveMode: "corrective.mode",
  correctiveVerdicts: "corrective.verdicts",
  correctiveFinalVerdict: "corrective.final_verdict",
  correctivePasses: "corrective.passes",
  correctiveRetries: "corrective.retries",
  evaluationName: "gen_ai.evaluation.name",
  evaluationScoreLabel: "gen_ai.evaluation.score.label",
  evaluationExplanation: "gen_ai.evaluation.explanation",
  // knowledge_requery
  correctiveQuery: "corrective.query",
  correctiveQueries: "corrective.queries",
  correctiveCollections: "corrective.collections",
  correctiveNewHits: "corrective.new_hits",
  retrievalQueryText: "gen_ai.retrieval.query.text",
  // execute_tool
  operationName: "gen_ai.operation.name",
  toolName: "gen_ai.tool.name",
  // chat
  requestModel: "gen_ai.request.model",
  responseModel: "gen_ai.response.model",
  providerName: "gen_ai.provider.name",
  /** The older name of gen_ai.provider.name, still what many backends group by. */
  system: "gen_ai.system",
  usageInputTokens: "gen_ai.usage.input_tokens",
  usageOutputTokens: "gen_ai.usage.output_tokens",
  finishReasons: "gen_ai.response.finish_reasons",
  // invoke_agent
  agentName: "gen_ai.agent.name",
} as const;

/**
 * `gen_ai.provider.name` for a provider type of ours: the convention's well-known values where
 * there is one (azure → azure.ai.openai), else the type itself.
 */
export function genAiProviderName(provider: string): string {
  if (provider === "azure") return "azure.ai.openai";
  if (provider === "copilot") return "github.copilot";
  return provider;
}

/** The provider attributes of a `chat` span (gen_ai.provider.name and gen_ai.system). */
export function providerAttributes(provider: string): Record<string, string> {
  const name = genAiProviderName(provider);
  return { [ATTR.providerName]: name, [ATTR.system]: name };
}

/** `gen_ai.evaluation.name` on knowledge_grade: what was evaluated. */
export const EVALUATION_NAME = "knowledge_search_relevance";
