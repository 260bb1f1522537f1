// `second-look/knowledge-tool` (also exported as `second-look/protocol`, its name before 0.2): the
// knowledge tools' contract — the text a model reads (Huginn's search and document renderings)
// and how it is read back, the signal rules every backend shares, and the tools' schemas.

export { extractDocKeys, parseDocIdLine } from "./knowledge-tool/doc-id-line.js";
export { renderDocument } from "./knowledge-tool/document.js";
export { extractTrailingFooter, stripTrailingFooter } from "./knowledge-tool/footer.js";
export { parseFooterHints } from "./knowledge-tool/footer-hints.js";
export { type RenderOptions, renderSearchResponse } from "./knowledge-tool/render.js";
export { scanResultText } from "./knowledge-tool/text-signal.js";
export {
  GET_DOCUMENT_TOOL,
  getDocumentShape,
  parseSearchArgs,
  SEARCH_KNOWLEDGE_TOOL,
  searchKnowledgeShape,
} from "./knowledge-tool/tool-arguments.js";
export { peelTraceMarker } from "./knowledge-tool/trace-marker.js";
export { bandFor, isWeak } from "./weakness.js";
