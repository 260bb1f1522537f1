// A `get_document` result as Huginn's adapter renders it (docs/reference/huginn-search-contract.md §4): `# <title>`,
// the work-in-progress banner when the document's metadata says so, the URL, the visible
// metadata as `**k:** v | …`, a blank line, then the full text. Title, URL and metadata are
// kept to one line each; the text is the document's own, escaped as all document text is
// (escapeUntrusted: no control, bidirectional override or invisible character reaches the model raw).

import type { Doc } from "../types.js";
import { HIDDEN_METADATA_KEYS } from "./render.js";
import {
  escapeControlCharacters,
  escapeUntrusted,
  toSingleLine,
  unescapeControlCharacters,
} from "./untrusted-text.js";

/** Huginn's banner for a Confluence page marked as work in progress (`metadata.wip === "true"`). */
export const WIP_BANNER = "**[UNDER ARBEID]** Dette dokumentet er merket som under arbeid i Confluence.";

/** Backends that keep a document's metadata (Huginn) return it alongside the Doc fields. */
export type DocWithMetadata = Doc & { metadata?: Record<string, string> };

export function renderDocument(doc: DocWithMetadata): string {
  const lines = [`# ${toSingleLine(doc.title)}`];
  const metadata = doc.metadata ?? {};
  if (metadata.wip === "true") lines.push(WIP_BANNER);
  if (doc.url) lines.push(toSingleLine(doc.url));
  const visible = Object.entries(metadata).filter(([key, value]) => !HIDDEN_METADATA_KEYS.has(key) && value);
  if (visible.length > 0) {
    lines.push(visible.map(([key, value]) => `**${toSingleLine(key)}:** ${toSingleLine(value)}`).join(" | "));
  }
  return `${lines.join("\n")}\n\n${escapeUntrusted(doc.text, "text")}`;
}

/**
 * The document a `get_document` call names. A doc-id line shows an id whose file name holds
 * control characters escaped (knowledge-tool/result-text.ts), and a model copies what it was shown:
 * when the id as given finds nothing, the id it stands for is tried once.
 */
export async function fetchNamedDocument<T>(
  fetch: (id: string) => Promise<T | undefined>,
  id: string,
): Promise<T | undefined> {
  const found = await fetch(id);
  if (found !== undefined && found !== null) return found;
  const stored = unescapeControlCharacters(id);
  if (stored === id || escapeControlCharacters(stored) !== id) return found;
  return fetch(stored);
}
