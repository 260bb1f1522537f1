// `second-look/engine`: knowledge backends. The in-process lexical engine (open it over a bot's
// collections with openEmbeddedEngine, or fill one yourself), and the client of a Huginn server.

export { analyzerDefinitionOf } from "./knowledge/analysis/registry.js";
export { KnowledgeEngine, UnknownCollectionError } from "./knowledge/engine.js";
export { HuginnBackend, type HuginnBackendOptions, HuginnError } from "./knowledge/huginn.js";
export type { IndexableDocument, IndexableSection } from "./knowledge/index/collection-index.js";
export type { RefreshProgress, RefreshReport } from "./knowledge/index/refresh.js";
export { openEmbeddedEngine } from "./knowledge/open-embedded.js";
export type { Doc, Hit, KnowledgeBackend, SearchRequest, SearchResponse } from "./types.js";
