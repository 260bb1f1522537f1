// `second-look/engine`: knowledge backends. The in-process lexical engine (open it over a bot's
// collections with openEmbeddedEngine, or fill one yourself), and the client of a Huginn server.

export { KnowledgeEngine, UnknownCollectionError } from "./backends/embedded/embedded-engine.js";
export { openEmbeddedEngine } from "./backends/embedded/open-embedded.js";
export { HuginnBackend, type HuginnBackendOptions, HuginnError } from "./backends/huginn/huginn-backend.js";
export { analyzerDefinitionOf } from "./knowledge/analysis/registry.js";
export type { IndexableDocument, IndexableSection } from "./knowledge/index/collection-index.js";
export type { RefreshProgress, RefreshReport } from "./knowledge/index/refresh.js";
export { KnowledgeError, type KnowledgeErrorCode } from "./knowledge/knowledge-error.js";
export type { Doc, Hit, KnowledgeBackend, SearchRequest, SearchResponse } from "./types.js";
