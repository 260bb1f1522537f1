import { UnknownCollectionError } from "../../errors.js";
import { CollectionAnalysis } from "../../knowledge/analysis/collection-analysis.js";
import {
  analyzeDocument,
  CollectionIndex,
  type IndexableDocument,
} from "../../knowledge/index/collection-index.js";
import { RankingCore, toDoc } from "../../knowledge/ranking-core/index.js";
import type { Doc, KnowledgeBackend, SearchRequest, SearchResponse } from "../../types.js";

// Where they were defined before the ranking core and errors.ts held them; kept for importers.
export { UnknownCollectionError } from "../../errors.js";
export { queryTermsFor, toDoc } from "../../knowledge/ranking-core/index.js";

/**
 * The in-process knowledge engine: every document of its collections held in memory, searched
 * by the ranking core (src/knowledge/ranking-core/: BM25F with proximity over document sections,
 * an optional pseudo-relevance-feedback rerank pass, calibrated relevance and the weak-result
 * signal with retry hints). Searching is synchronous and bounded (milliseconds); the async
 * signature is the backend contract's.
 */
export class KnowledgeEngine extends RankingCore implements KnowledgeBackend {
  /** Build an engine from documents in memory (tests, evaluation, small corpora). */
  static fromDocuments(
    collections: Record<string, readonly IndexableDocument[]>,
    options: { language?: string } = {},
  ): KnowledgeEngine {
    const analysis = CollectionAnalysis.of(options.language);
    return new KnowledgeEngine(
      Object.entries(collections).map(
        ([name, docs]) =>
          new CollectionIndex(
            name,
            docs.map((doc) => analyzeDocument(doc, analysis.storedAnalyzer(doc.language))),
            { analysis },
          ),
      ),
    );
  }

  /**
   * Puts a rebuilt index of one of the engine's collections in place of the old one (a refresh
   * finished after the engine started answering). Searching is synchronous, so a search sees the
   * old index or the new one, never a mix.
   */
  replaceCollection(index: CollectionIndex): void {
    if (!this.indexes.has(index.name)) {
      throw new UnknownCollectionError(index.name, this.collections());
    }
    this.indexes.set(index.name, index);
  }

  async search(request: SearchRequest, options: { signal?: AbortSignal } = {}): Promise<SearchResponse> {
    options.signal?.throwIfAborted();
    return this.searchSync(request);
  }

  async getDocument(collection: string, id: string): Promise<Doc | undefined> {
    const index = this.indexes.get(collection);
    const position = index?.documentIndex(id);
    if (!index || position === undefined) return undefined;
    return toDoc(collection, index.documents[position]!);
  }
}
