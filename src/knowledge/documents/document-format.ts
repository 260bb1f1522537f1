import { extname } from "node:path";

export type DocumentFormat = "markdown" | "mdx" | "text" | "html" | "pdf";

const FORMAT_BY_EXTENSION: Readonly<Record<string, DocumentFormat>> = {
  ".md": "markdown",
  ".markdown": "markdown",
  ".mdx": "mdx",
  ".txt": "text",
  ".text": "text",
  ".html": "html",
  ".htm": "html",
  ".pdf": "pdf",
};

/** File extensions the loaders read (lower case, with the dot), e.g. for an indexer's globs. */
export const SUPPORTED_EXTENSIONS: readonly string[] = Object.keys(FORMAT_BY_EXTENSION);

/** The loader for a path, by extension (case-insensitive); undefined when none applies. */
export function documentFormatFor(path: string): DocumentFormat | undefined {
  return FORMAT_BY_EXTENSION[extname(path).toLowerCase()];
}
