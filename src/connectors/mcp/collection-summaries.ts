// What `list_collections` can say about the bot's collections, whichever backend it has: a
// Huginn server's own counts (filtered to the allow-list), the embedded engine's document and
// section counts, or, for any other backend, just the names.

import { KnowledgeEngine } from "../../knowledge/engine.js";
import type { CollectionSummary } from "../../knowledge/huginn.js";
import { HuginnBackend } from "../../knowledge/huginn.js";
import type { KnowledgeBackend } from "../../types.js";

export interface CollectionListing {
  summaries: CollectionSummary[];
  style: "huginn" | "embedded";
}

export async function collectionSummaries(
  backend: KnowledgeBackend,
  signal: AbortSignal,
): Promise<CollectionListing> {
  if (backend instanceof HuginnBackend) {
    return { summaries: await backend.describeCollections({ signal }), style: "huginn" };
  }
  const names = backend.collections();
  if (backend instanceof KnowledgeEngine) {
    const summaries = names.map((name): CollectionSummary => {
      const index = backend.collectionIndex(name);
      return index
        ? { name, documents: index.documents.length, chunks: index.unitDocument.length }
        : { name };
    });
    return { summaries, style: "embedded" };
  }
  return { summaries: names.map((name) => ({ name })), style: "embedded" };
}
