// The Copilot SDK connector's public surface (re-exports only).

export { type CopilotBotRuntimeOptions, createCopilotBotRuntime } from "./copilot-bot-runtime.js";
export { type CorrectiveHookOptions, createCorrectiveHook, type HookTurnContext } from "./corrective-hook.js";
export {
  createKnowledgeTools,
  GET_DOCUMENT_TOOL,
  type KnowledgeToolsOptions,
  SEARCH_KNOWLEDGE_TOOL,
} from "./knowledge-tools.js";
export type {
  PostToolUseHandler,
  PostToolUseHookInput,
  PostToolUseHookOutput,
} from "./post-tool-use-types.js";
export { isKnowledgeSearchTool, parseToolName } from "./tool-name.js";
