import { extname } from "node:path";

/** Zip containers of XML parts: Office Open XML, OpenDocument, EPUB (office-loader.ts). */
export type OfficeFormat = "docx" | "pptx" | "xlsx" | "odt" | "odp" | "ods" | "epub";
export type DocumentFormat = "markdown" | "mdx" | "rst" | "text" | "html" | "pdf" | OfficeFormat;

const FORMAT_BY_EXTENSION: Readonly<Record<string, DocumentFormat>> = {
  ".md": "markdown",
  ".markdown": "markdown",
  ".mdx": "mdx",
  ".rst": "rst",
  ".rest": "rst",
  ".txt": "text",
  ".text": "text",
  ".html": "html",
  ".htm": "html",
  ".pdf": "pdf",
  ".docx": "docx",
  ".pptx": "pptx",
  ".xlsx": "xlsx",
  ".odt": "odt",
  ".odp": "odp",
  ".ods": "ods",
  ".epub": "epub",
};

/** The formats read from zip containers of XML parts (office-loader.ts), not from text. */
const OFFICE_FORMATS: ReadonlySet<DocumentFormat> = new Set<OfficeFormat>([
  "docx",
  "pptx",
  "xlsx",
  "odt",
  "odp",
  "ods",
  "epub",
]);

export function isOfficeFormat(format: DocumentFormat): format is OfficeFormat {
  return OFFICE_FORMATS.has(format);
}

/** File extensions the loaders read (lower case, with the dot), e.g. for an indexer's globs. */
export const SUPPORTED_EXTENSIONS: readonly string[] = Object.keys(FORMAT_BY_EXTENSION);

/** The loader for a path, by extension (case-insensitive); undefined when none applies. */
export function documentFormatFor(path: string): DocumentFormat | undefined {
  // Sphinx publishes each page's reStructuredText source as `_sources/<page>.rst.txt`.
  if (path.toLowerCase().endsWith(".rst.txt")) return "rst";
  return FORMAT_BY_EXTENSION[extname(path).toLowerCase()];
}
