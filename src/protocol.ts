// `second-look/protocol`: the text a model reads (Huginn's search and document renderings) and
// how it is read back, the signal rules every backend shares, and the knowledge tools' schemas.

export { extractDocKeys, parseDocIdLine } from "./protocol/doc-id-line.js";
export { renderDocument } from "./protocol/document.js";
export { extractTrailingFooter, stripTrailingFooter } from "./protocol/footer.js";
export { parseFooterHints } from "./protocol/footer-hints.js";
export { type RenderOptions, renderSearchResponse } from "./protocol/render.js";
export { scanResultText } from "./protocol/text-signal.js";
export {
  GET_DOCUMENT_TOOL,
  getDocumentShape,
  parseSearchArgs,
  SEARCH_KNOWLEDGE_TOOL,
  searchKnowledgeShape,
} from "./protocol/tool-arguments.js";
export { peelTraceMarker } from "./protocol/trace-marker.js";
export { bandFor, isWeak } from "./protocol/weakness.js";
