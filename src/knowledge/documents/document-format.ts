import { extname } from "node:path";

/** Zip containers of XML parts: Office Open XML, OpenDocument, EPUB (office-loader.ts). */
export type OfficeFormat = "docx" | "pptx" | "xlsx" | "odt" | "odp" | "ods" | "epub";
export type DocumentFormat =
  | "markdown"
  | "mdx"
  | "rst"
  | "text"
  | "html"
  | "csv"
  | "tsv"
  | "pdf"
  | OfficeFormat;

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
  ".csv": "csv",
  ".tsv": "tsv",
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

/**
 * A text format's file compressed with gzip (`page.html.gz`, `guide.rst.gz`), as Debian ships
 * the larger pages under /usr/share/doc and many documentation trees keep old ones. PDF, Office
 * and EPUB files are compressed already, so `.pdf.gz` and the like are not read.
 */
export const GZIP_EXTENSION = ".gz";
const GZIP_READABLE: ReadonlySet<DocumentFormat> = new Set<DocumentFormat>([
  "markdown",
  "mdx",
  "rst",
  "text",
  "html",
  "csv",
  "tsv",
]);

/** Whether the loaders read `path` through gzip (its name ends in `.gz` after a text format's extension). */
export function isGzipped(path: string): boolean {
  return path.toLowerCase().endsWith(GZIP_EXTENSION) && documentFormatFor(path) !== undefined;
}

/** The loader for a path, by extension (case-insensitive); undefined when none applies. */
export function documentFormatFor(path: string): DocumentFormat | undefined {
  if (!path.toLowerCase().endsWith(GZIP_EXTENSION)) return uncompressedFormat(path);
  const inner = uncompressedFormat(path.slice(0, -GZIP_EXTENSION.length));
  return inner !== undefined && GZIP_READABLE.has(inner) ? inner : undefined;
}

/**
 * The end of a document's name that says how it is read, with its dots: `.md`, `.rst.txt`,
 * `.html.gz`; undefined for a file the loaders do not read. A glob of a collection's documents
 * is written from these.
 */
export function documentExtension(path: string): string | undefined {
  if (documentFormatFor(path) === undefined) return undefined;
  const gz = path.toLowerCase().endsWith(GZIP_EXTENSION) ? path.slice(-GZIP_EXTENSION.length) : "";
  const name = gz ? path.slice(0, -gz.length) : path;
  const inner = name.toLowerCase().endsWith(SPHINX_SOURCE)
    ? name.slice(-SPHINX_SOURCE.length)
    : extname(name);
  return `${inner}${gz}`;
}

/**
 * Why no loader reads `path` (`unsupported file type ".gz"`), or undefined for a document. The
 * indexers refuse such a file by its name and never remember the refusal, so a version that
 * reads the type takes the file on its next refresh, with nothing else re-read.
 */
export function unsupportedReason(path: string): string | undefined {
  if (documentFormatFor(path) !== undefined) return undefined;
  const extension = extname(path);
  return `${UNSUPPORTED_TYPE}${extension ? ` "${extension}"` : " (no extension)"}`;
}

const UNSUPPORTED_TYPE = "unsupported file type";

/**
 * Whether a refusal an index remembers is one by type: indexes written before the refusal was
 * no longer remembered hold them, and a file refused so is read if its type now is.
 */
export function isRefusedByType(reason: string): boolean {
  return reason.startsWith(UNSUPPORTED_TYPE);
}

// Sphinx publishes each page's reStructuredText source as `_sources/<page>.rst.txt`.
const SPHINX_SOURCE = ".rst.txt";

function uncompressedFormat(path: string): DocumentFormat | undefined {
  if (path.toLowerCase().endsWith(SPHINX_SOURCE)) return "rst";
  return FORMAT_BY_EXTENSION[extname(path).toLowerCase()];
}

/** Formats people keep documents in that no loader reads, and the one to save them as. */
const SAVE_AS: Readonly<Record<string, string>> = {
  ".doc": ".docx",
  ".rtf": ".docx",
  ".ppt": ".pptx",
  ".xls": ".xlsx",
  ".pages": ".docx",
  ".key": ".pptx",
  ".numbers": ".xlsx",
};

/** Files per extension (lower case, with its dot; "" for a name without one). */
export function countByExtension(paths: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const path of paths) {
    const extension = extname(path).toLowerCase();
    counts[extension] = (counts[extension] ?? 0) + 1;
  }
  return counts;
}

/**
 * Files no loader reads, in one phrase: how many, the commonest extensions first, and what to
 * save a document format among them as — "9 files of types no loader reads (5 .gz, 1 .png, …)",
 * "3 files of types no loader reads (2 .doc, 1 .xls; save .doc as .docx, .xls as .xlsx to have
 * them read)". One line however many files: a folder of images is not a page of warnings.
 */
export function describeUnreadTypes(counts: Readonly<Record<string, number>>): string {
  const entries = Object.entries(counts).sort(
    (a, b) => b[1] - a[1] || Number(a[0] === "") - Number(b[0] === "") || a[0].localeCompare(b[0]),
  );
  const total = entries.reduce((sum, [, n]) => sum + n, 0);
  const shown = entries.slice(0, 4).map(([extension, n]) => `${n} ${extension || "without an extension"}`);
  const more = entries.length > 4 ? ", …" : "";
  const advice = entries
    .filter(([extension]) => SAVE_AS[extension] !== undefined)
    .map(([extension]) => `${extension} as ${SAVE_AS[extension]}`);
  const save = advice.length > 0 ? `; save ${advice.join(", ")} to have them read` : "";
  return `${total} file${total === 1 ? "" : "s"} of types no loader reads (${shown.join(", ")}${more}${save})`;
}
