// Public API: re-exports only. The Copilot SDK connector has its own entry point
// (`second-look/copilot-sdk`), so using the engine or the corrective pass never loads the SDK.

export { type BotDefinition, discoverBots, loadBot } from "./bots/discovery.js";
export { openBotBackend } from "./connectors/open-bot-backend.js";
export * from "./corrective/corrective-config.js";
export * from "./corrective/index.js";
export { createKnowledgeGrader } from "./corrective/knowledge-grader.js";
export { KnowledgeEngine, UnknownCollectionError } from "./knowledge/engine.js";
export { HuginnBackend } from "./knowledge/huginn.js";
export type { IndexableDocument, IndexableSection } from "./knowledge/index/collection-index.js";
export { openEmbeddedEngine } from "./knowledge/open-embedded.js";
export * from "./llm/index.js";
export * from "./protocol/index.js";
export * from "./strategies/index.js";
export * from "./telemetry/index.js";
export type * from "./types.js";
