// What `list_collections` can say about the bot's collections, whichever backend it has: a
// Huginn server's own counts (filtered to the allow-list), the embedded engine's document and
// section counts, or, for any other backend, just the names; with each collection's document
// language where the bot's config (or, for "auto", the embedded index or the database) knows it.

import { KnowledgeEngine } from "../../backends/embedded/embedded-engine.js";
import type { CollectionSummary } from "../../backends/huginn/huginn-backend.js";
import { HuginnBackend } from "../../backends/huginn/huginn-backend.js";
import type { BotConfig } from "../../bots/config-schema.js";
import type { CollectionLanguage, KnowledgeBackend } from "../../types.js";
import { collectionLanguages } from "../collection-languages.js";

export interface CollectionListing {
  summaries: CollectionSummary[];
  /** Collection → its documents' language, where known (read now: an "auto" index may have changed). */
  languages: Record<string, CollectionLanguage>;
  style: "huginn" | "embedded";
}

export async function collectionSummaries(
  backend: KnowledgeBackend,
  signal: AbortSignal,
  config?: Pick<BotConfig, "knowledge">,
): Promise<CollectionListing> {
  const languages = config ? collectionLanguages(config, backend) : {};
  if (backend instanceof HuginnBackend) {
    return { summaries: await backend.describeCollections({ signal }), style: "huginn", languages };
  }
  const names = backend.collections();
  if (backend instanceof KnowledgeEngine) {
    const summaries = names.map((name): CollectionSummary => {
      const index = backend.collectionIndex(name);
      return index
        ? { name, documents: index.documents.length, chunks: index.unitDocument.length }
        : { name };
    });
    return { summaries, style: "embedded", languages };
  }
  return { summaries: names.map((name) => ({ name })), style: "embedded", languages };
}
