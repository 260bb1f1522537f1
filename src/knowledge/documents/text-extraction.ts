// The version of what the loaders make of a file. An index stores the text the loaders
// extracted; when they extract differently, an index built before holds the old text, and a
// refresh that only re-reads changed files would keep it for ever. Raising the version, and
// naming the formats it changed, makes the next refresh re-read those files
// (src/knowledge/index/index-store.ts for the embedded index, pg-indexer.ts for PostgreSQL).
import { type DocumentFormat, documentFormatFor } from "./document-format.js";

export const TEXT_EXTRACTION_VERSION = 6;

/**
 * The formats whose text each version changed. 1: every version before the number was kept
 * (absent from older indexes). 2: HTML drops permalink marks and the site's name after a page's
 * title (page-chrome.ts). Raw HTML inside markdown also drops lone-symbol same-page links now;
 * markdown is not listed, so a PostgreSQL index is not re-read whole for a mark its sources
 * almost never hold. 3: HTML honours its declared charset (pages once refused are read) and
 * drops the site's frame (landmarks, link-dense blocks); a manual page's running header is no
 * longer a text or HTML file's title. 4: soft hyphens and word joiners are dropped (every format;
 * listed where they are common: published HTML and EPUB, documents, presentations, PDFs), a word
 * broken at a line's end is whole again (PDF, text), Word's non-breaking hyphen is read, and text
 * saved from a terminal loses its overstrikes and escape sequences. reStructuredText (`.rst`, Sphinx's
 * `.rst.txt`, once read as text) is read with its section titles. A file refused as not UTF-8
 * may now be read in a guessed encoding: every refusal is remembered with the version it was made
 * under (ingest-limits.ts boundsKey), so each is tried once more. 5: a long Excel or OpenDocument
 * sheet is cut into sections that each open with its first row (office-sections.ts
 * sheetSections), where only the first part held it. 6: an HTML section keeps the id of its
 * heading (heading-anchor.ts), which its hits' links open at. A Markdown heading's attribute list
 * (`## Install {#install-rules}`) is no longer part of its text since version 6 either, but Markdown
 * is not listed, as in version 2: re-reading every Markdown file of every index (PostgreSQL's
 * too) for lists most of them never hold costs more than it mends; a file gets it when it changes. A new format needs no version:
 * a file of a type no loader read was never remembered as refused (document-format.ts
 * unsupportedReason).
 */
const CHANGED_FORMATS: Readonly<Record<number, readonly DocumentFormat[]>> = {
  2: ["html"],
  3: ["html", "text"],
  4: ["html", "text", "rst", "pdf", "docx", "pptx", "odt", "odp", "epub"],
  5: ["xlsx", "ods"],
  6: ["html"],
};

/** Whether the text of `path` may differ from what extraction version `since` made of it. */
export function extractionChangedSince(since: number, path: string): boolean {
  const format = documentFormatFor(path);
  if (format === undefined) return false;
  for (let version = since + 1; version <= TEXT_EXTRACTION_VERSION; version++) {
    if (CHANGED_FORMATS[version]?.includes(format)) return true;
  }
  return false;
}

/** What an indexer says when a collection's stored text came from an older extraction (both backends). */
export function rereadMessage(collection: string, since: number): string {
  return `collection ${collection} was indexed from text extraction ${since}; this version extracts text as version ${TEXT_EXTRACTION_VERSION}: re-reading the files whose format it changed`;
}
