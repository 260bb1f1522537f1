// `second-look/copilot-sdk`: a bot as a Copilot SDK runtime (openBotRuntime), or the parts for
// your own sessions: the knowledge tools and the onPostToolUse hook that corrects their results.

export type { AskOptions, AskResult, BotRuntime } from "./connectors/bot-runtime.js";
export { BotRuntimeError, type BotRuntimeErrorCode } from "./connectors/bot-runtime.js";
export {
  type CorrectiveHookOptions,
  createCorrectiveHook,
} from "./connectors/copilot-sdk/corrective-hook.js";
export {
  createKnowledgeTools,
  type KnowledgeToolsOptions,
} from "./connectors/copilot-sdk/knowledge-tools.js";
export { type OpenedBotRuntime, openBotRuntime } from "./connectors/open-bot-runtime.js";
