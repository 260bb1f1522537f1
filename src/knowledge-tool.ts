// `second-look/knowledge-tool` (also exported as `second-look/protocol`, its name before 0.2): the
// knowledge tools' contract — the text a model reads (Huginn's search and document renderings)
// and how it is read back, the signal rules every backend shares, and the tools' schemas.

export { renderDocument } from "./knowledge-tool/document.js";
export { type RenderOptions, renderSearchResponse } from "./knowledge-tool/render.js";
export {
  extractDocKeys,
  extractTrailingFooter,
  parseDocIdLine,
  parseFooterHints,
  peelTraceMarker,
  scanResultText,
  stripTrailingFooter,
} from "./knowledge-tool/result-text.js";
export {
  GET_DOCUMENT_TOOL,
  getDocumentShape,
  parseSearchArgs,
  SEARCH_KNOWLEDGE_TOOL,
  searchKnowledgeShape,
} from "./knowledge-tool/tool-arguments.js";
export { bandFor, isWeak } from "./weakness.js";
