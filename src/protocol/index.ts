// The tool-result text format (design §4): render a search response, and read one back.
export {
  appendCorrection,
  appendNote,
  CORRECTIVE_NOTE_START,
  NOT_COVERED_NOTE_START,
  type NotCoveredNote,
  type RequeryNote,
  renderNotCoveredNote,
  renderRequeryNote,
} from "./corrective-note.js";
export { docKey, extractDocKeys, parseDocIdLine, renderDocIdLine } from "./doc-id-line.js";
export {
  classifyFooterLine,
  extractTrailingFooter,
  type FooterKind,
  renderFooter,
  stripTrailingFooter,
  type TrailingFooter,
} from "./footer.js";
export { parseFooterHints } from "./footer-hints.js";
export { formatRelevancePercent, parseHeaderRelevance } from "./relevance-text.js";
export { type RenderHitsOptions, type RenderOptions, renderHits, renderSearchResponse } from "./render.js";
export { classifyTextSignal, type ResultTextScan, scanResultText, type TextSignal } from "./text-signal.js";
export { type PeeledTraceMarker, peelTraceMarker } from "./trace-marker.js";
export { bandFor, HIGH_BAND_MIN, isWeak, MEDIUM_BAND_MIN, WEAK_BEST_SCORE } from "./weakness.js";
