// Huginn's `GET /api/collections` (`{collections: [{name, document_count, chunk_count,
// embedding_count, updatedTime, …}]}`), filtered to the bot's allow-list as the adapter's
// list_collections filters it, and bounded.
import { boundedString, isObject } from "./json-fields.js";

/** What a backend can say about one of its collections; counts absent when unknown. */
export interface CollectionSummary {
  name: string;
  documents?: number;
  chunks?: number;
  embeddings?: number;
  updatedTime?: string;
}

/** In allow-list order; undefined when the body is not a collection listing. */
export function normalizeCollections(
  json: unknown,
  allowed: readonly string[],
): CollectionSummary[] | undefined {
  if (!isObject(json) || !Array.isArray(json.collections)) return undefined;
  const byName = new Map<string, CollectionSummary>();
  for (const entry of json.collections.slice(0, 1_000)) {
    if (!isObject(entry) || typeof entry.name !== "string" || !allowed.includes(entry.name)) continue;
    if (byName.has(entry.name)) continue;
    const summary: CollectionSummary = { name: entry.name };
    const documents = count(entry.document_count);
    if (documents !== undefined) summary.documents = documents;
    const chunks = count(entry.chunk_count);
    if (chunks !== undefined) summary.chunks = chunks;
    const embeddings = count(entry.embedding_count);
    if (embeddings !== undefined) summary.embeddings = embeddings;
    const updated = boundedString(entry.updatedTime, 64);
    if (updated) summary.updatedTime = updated;
    byName.set(entry.name, summary);
  }
  return allowed.flatMap((name) => byName.get(name) ?? []);
}

function count(value: unknown): number | undefined {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}
