// Every backend a bot opens answers with links people can open: each hit's and document's own
// address when it is a safe http(s) URL, else the collection's `url` template filled
// (src/knowledge/document-links.ts), on the embedded, PostgreSQL and Huginn backends alike.

import type { BotConfig } from "../bots/config-schema.js";
import { DocumentLinks } from "../knowledge/document-links.js";
import type { KnowledgeBackend } from "../types.js";

/**
 * Sets the links on `backend`'s answers, in place: the same object (callers tell backends apart
 * with instanceof and reach their own methods, e.g. a calibration's `engineFor`), its `search`
 * and `getDocument` now returning linked hits and documents.
 */
export function linkDocuments(
  backend: KnowledgeBackend,
  knowledge: Pick<BotConfig["knowledge"], "collections">,
): void {
  const links = DocumentLinks.of(knowledge.collections);
  const search = backend.search.bind(backend);
  backend.search = async (request, options) => links.linkResponse(await search(request, options));
  const getDocument = backend.getDocument?.bind(backend);
  if (getDocument) {
    backend.getDocument = async (collection, id) => {
      const doc = await getDocument(collection, id);
      return doc && links.linkDocument(doc);
    };
  }
}
