// The doc-id line every rendered hit carries: collection: `<c>` doc_id: `<id>`. It is the only
// place doc keys are read from (dedupe of re-query hits against the results already shown).
import type { Hit } from "../types.js";
import { escapeControlCharacters } from "./untrusted-text.js";

const PREFIX = "collection: `";
const SEPARATOR = "` doc_id: `";

/** `collection/id`, the identity used to dedupe hits across searches. */
export function docKey(hit: Pick<Hit, "collection" | "id">): string {
  return `${hit.collection}/${hit.id}`;
}

/**
 * The doc-id line without indentation (brief mode indents it by three spaces). Control
 * characters in the id or collection (a file name may contain a newline) are escaped, so the
 * line stays one line and cannot forge another doc-id line or a footer after it.
 */
export function renderDocIdLine(hit: Pick<Hit, "collection" | "id">): string {
  return `${PREFIX}${escapeControlCharacters(hit.collection)}${SEPARATOR}${escapeControlCharacters(hit.id)}\``;
}

/**
 * The collection and id of a whole doc-id line (leading spaces or tabs allowed, trailing
 * whitespace ignored), else undefined. The collection ends at the first "` doc_id: `"; the id
 * runs to the last backtick, so an id may itself contain backticks.
 */
export function parseDocIdLine(line: string): { collection: string; id: string } | undefined {
  let start = 0;
  while (start < line.length && (line[start] === " " || line[start] === "\t")) start++;
  if (!line.startsWith(PREFIX, start)) return undefined;
  let end = line.length;
  while (end > start && /\s/.test(line[end - 1]!)) end--;
  if (line[end - 1] !== "`") return undefined;
  const separator = line.indexOf(SEPARATOR, start + PREFIX.length);
  if (separator < 0 || separator + SEPARATOR.length > end - 1) return undefined;
  const collection = line.slice(start + PREFIX.length, separator);
  const id = line.slice(separator + SEPARATOR.length, end - 1);
  if (collection === "" || id === "") return undefined;
  return { collection, id };
}

/**
 * The `collection/id` keys of every doc-id line in `text`, in order of first appearance, each
 * once. Only whole doc-id lines count; our renderer defuses doc-id-shaped lines in document
 * text (Huginn does not, so a Huginn document can add a key: it can only make a re-query hit
 * look like a duplicate, never inject text).
 */
export function extractDocKeys(text: string): string[] {
  const keys = new Set<string>();
  for (const line of text.split("\n")) {
    const parsed = parseDocIdLine(line);
    if (parsed) keys.add(docKey(parsed));
  }
  return [...keys];
}
