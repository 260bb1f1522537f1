// Huginn's `/api/document/{collection}/{doc_id}` JSON (roughly `{id, url, modifiedTime, text,
// chunks, metadata?}`) as our Doc. The collection and id are the ones asked for, not the
// server's; the text is bounded, because it goes to the model whole.
import type { Doc } from "../../types.js";
import { boundedMetadata, boundedString, isObject } from "./json-fields.js";

/** Longest document text handed on; the rest is cut with a note saying so. */
export const MAX_DOCUMENT_CHARS = 1_000_000;

/** A Huginn document keeps its metadata (the adapter shows it, and the WIP banner reads it). */
export interface HuginnDoc extends Doc {
  metadata?: Record<string, string>;
}

/** Undefined when the body is not a document (not an object, no text or chunk content). */
export function normalizeDocument(json: unknown, collection: string, id: string): HuginnDoc | undefined {
  if (!isObject(json)) return undefined;
  const text = documentText(json);
  if (text === undefined) return undefined;
  const doc: HuginnDoc = {
    collection,
    id,
    // The adapter's fallback: Huginn's document JSON usually has no title.
    title: boundedString(json.title, 500) ?? id,
    text,
  };
  const url = boundedString(json.url, 2_000);
  if (url) doc.url = url;
  const modifiedTime = boundedString(json.modifiedTime, 64);
  if (modifiedTime) doc.modifiedTime = modifiedTime;
  const metadata = boundedMetadata(json.metadata, 32, 1_000);
  if (metadata) doc.metadata = metadata;
  return doc;
}

// `text`, or else the chunks' contents in order (what the document is made of).
function documentText(json: Record<string, unknown>): string | undefined {
  let text: string | undefined;
  if (typeof json.text === "string") text = json.text;
  else if (Array.isArray(json.chunks)) {
    const parts: string[] = [];
    let size = 0;
    for (const chunk of json.chunks) {
      const content = isObject(chunk) ? chunk.content : chunk;
      if (typeof content !== "string" || content === "") continue;
      parts.push(content);
      size += content.length;
      if (size > MAX_DOCUMENT_CHARS) break;
    }
    if (parts.length > 0) text = parts.join("\n\n");
  }
  if (text === undefined) return undefined;
  if (text.length <= MAX_DOCUMENT_CHARS) return text;
  const rest = text.length - MAX_DOCUMENT_CHARS;
  return `${text.slice(0, MAX_DOCUMENT_CHARS)}\n\n[document cut here: ${rest} more characters not shown]`;
}
