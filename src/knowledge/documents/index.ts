// The document loaders' public surface (re-exports only).

export { type DecodedText, decodeText } from "./decode-text.js";
export {
  type DocumentFormat,
  documentFormatFor,
  type OfficeFormat,
  SUPPORTED_EXTENSIONS,
} from "./document-format.js";
export { documentIdFor } from "./document-id.js";
export { documentText } from "./document-text.js";
export { type FrontMatter, splitFrontMatter } from "./front-matter.js";
export { htmlFragmentText, parseHtml } from "./html-loader.js";
export {
  contentHashOf,
  DEFAULT_MAX_DOCUMENT_BYTES,
  type DocumentBytes,
  type LoadDocumentOptions,
  type LoadDocumentResult,
  loadDocument,
  parseDocumentBytes,
  readDocumentFile,
} from "./load-document.js";
export type { LoadedDocument, ParsedDocument } from "./loaded-document.js";
export { type MarkdownOptions, parseMarkdown } from "./markdown-loader.js";
export { type OfficeParseOptions, parseOffice } from "./office-loader.js";
export { OfficeParseError } from "./office-zip.js";
export { buildSections, type SectionBucket } from "./section-tree.js";
export { DEFAULT_MAX_SECTION_CHARS, splitContent, splitOversizedSections } from "./split-oversized.js";
export { parseText } from "./text-loader.js";
