// Public API of the Copilot SDK connector (`second-look/copilot-sdk`): re-exports only.
export type * from "./connectors/bot-runtime.js";
export { BotRuntimeError } from "./connectors/bot-runtime.js";
export * from "./connectors/copilot-sdk/index.js";
export { describeForRuntime, hasModel, openBotRuntime } from "./connectors/open-bot-runtime.js";
export { bindSearchTool, type SearchToolBinding } from "./connectors/search-tool-binding.js";
