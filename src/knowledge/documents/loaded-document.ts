import type { DocSection } from "../../types.js";

/**
 * A file turned into plain text and a flattened section tree, ready for indexing.
 * It carries no collection: the same loaded file can be indexed under any collection name.
 */
export interface LoadedDocument {
  /** Path relative to the collection root, always with forward slashes. */
  id: string;
  title: string;
  url?: string;
  /** ISO 8601. From front matter (`updated:`/`modified:`) when present, else the file's mtime. */
  modifiedTime?: string;
  /** The whole document as plain text: each section's heading and content, blank-line separated. */
  text: string;
  /**
   * Sections in reading order. `headingPath` starts with the document title; an oversized
   * section appears as several consecutive parts sharing its headingPath, heading and level.
   */
  sections: DocSection[];
  /** sha256 (hex) of the raw file bytes, so a refresh can skip unchanged files cheaply. */
  contentHash: string;
  /** The encoding the file was read in when it is not UTF-8 and declares none: a guess, said in the index's warnings. */
  decodedAs?: string;
}

/** What a format parser (markdown, text, html) extracts from decoded text. */
export interface ParsedDocument {
  title: string;
  url?: string;
  modifiedTime?: string;
  /** Whole sections, before oversized ones are split. */
  sections: DocSection[];
}
