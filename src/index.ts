// `second-look`: a bot from its folder, its knowledge backend, and the corrective pass over a
// search tool's result. Narrower entry points: `second-look/engine` (the in-process engine and
// the Huginn client), `second-look/corrective` (graders and the orchestrator),
// `second-look/protocol` (the tool-result text and the tools' argument schemas) and
// `second-look/copilot-sdk` (the Copilot SDK connector; the only entry that loads the SDK).

export { type BotDefinition, discoverBots, loadBot } from "./bots/discovery.js";
export { type OpenedBackend, openBotBackend } from "./connectors/open-bot-backend.js";
export {
  type CorrectedToolResult,
  type CorrectiveContext,
  correctToolResult,
  type ToolResultCall,
} from "./corrective/correct-tool-result.js";
export { type ResolvedCorrectiveConfig, resolveCorrectiveConfig } from "./corrective/corrective-config.js";
export { type ErrorLayer, errorMessage, SecondLookError } from "./errors.js";
export { type CreateLlmClientOptions, createLlmClient } from "./llm/create-llm-client.js";
export type { LlmClient } from "./llm/llm-client.js";
export { LlmError } from "./llm/llm-error.js";
export { type SpanCapture, startTracing } from "./telemetry/capture-spans.js";
export { type LogEntry, type LogFunction, setLogFunction, setLogger } from "./telemetry/logger.js";
export type * from "./types.js";
