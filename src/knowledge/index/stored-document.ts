import type { StoredTermsDocument } from "./collection-index.js";

/**
 * A document as the index store keeps it: the analysed document (its terms packed as a parser
 * thread hands them back, or as ids when loaded from a segment) plus what a refresh compares.
 */
export interface StoredDocument extends StoredTermsDocument {
  /** Path relative to the bot folder (forward slashes); also the document id. */
  path: string;
  size: number;
  mtimeMs: number;
  contentHash: string;
}

/** A stored document without its sections' terms and text: what a segment's header holds. */
export type StoredDocumentHeader = Omit<StoredDocument, "sections"> & {
  sections: Omit<StoredDocument["sections"][number], "titleTerms" | "bodyTerms" | "content">[];
};

/**
 * The fields every later step relies on, of a document without its sections' terms and text (the
 * checksum already rules out torn or edited bytes).
 */
export function isStoredDocumentHeader(value: unknown): value is StoredDocumentHeader {
  if (typeof value !== "object" || value === null) return false;
  const d = value as Record<string, unknown>;
  if (
    typeof d.id !== "string" ||
    typeof d.path !== "string" ||
    typeof d.title !== "string" ||
    typeof d.size !== "number" ||
    typeof d.mtimeMs !== "number" ||
    typeof d.contentHash !== "string" ||
    (d.language !== undefined && typeof d.language !== "string") ||
    !Array.isArray(d.sections)
  ) {
    return false;
  }
  return d.sections.every(
    (s: unknown) =>
      typeof s === "object" && s !== null && Array.isArray((s as Record<string, unknown>).headingPath),
  );
}

/** A record of a version-2 (JSON) segment: the whole document, its sections' text and packed terms. */
export function isPackedStoredDocument(value: unknown): value is StoredDocument {
  return (
    isStoredDocumentHeader(value) &&
    value.sections.every((s) => {
      const section = s as Record<string, unknown>;
      return (
        typeof section.content === "string" &&
        typeof section.titleTerms === "string" &&
        typeof section.bodyTerms === "string"
      );
    })
  );
}
