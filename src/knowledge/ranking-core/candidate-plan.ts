// What a backend that reads candidate sections (the PostgreSQL backend) asks the ranker while it
// gathers them, so that the candidates it hands the ranking core are those the embedded engine's
// ranker would reach over the whole collection. Each question runs the same ranker the search
// will run (index/ranker.ts) over the candidates read so far.

import type { CollectionAnalysis } from "../analysis/collection-analysis.js";
import { DEFAULT_BM25 } from "../index/bm25.js";
import { CollectionIndex, type TermedDocument } from "../index/collection-index.js";
import { expandQuery } from "../index/feedback.js";
import type { CollectionStatistics } from "../index/lexical-index.js";
import { PAGE_CANDIDATES, rankCollection, rankFirstPass } from "../index/ranker.js";

/**
 * Candidate documents of a larger collection as the ranking core ranks them: an index over the
 * documents given that scores with the whole collection's `statistics` (its unit count, average
 * lengths and document frequencies) and analyses queries in its `languages` (documents per
 * language, which an "auto" collection's query analysis reads).
 */
export function candidateCollection(
  name: string,
  documents: readonly TermedDocument[],
  statistics: CollectionStatistics,
  analysis: CollectionAnalysis,
  languages: ReadonlyMap<string, number>,
): CollectionIndex {
  return new CollectionIndex(name, documents, { params: DEFAULT_BM25, statistics, analysis, languages });
}

/** Whether any candidate section holds `term`. */
export function holdsTerm(candidates: CollectionIndex, term: string): boolean {
  return candidates.lexical.termId(term) !== undefined;
}

/**
 * The terms of every section of the documents the feedback pass reads (its relevance model reads
 * the first pass's leading units, weighing every term of their documents), in the order the
 * index holds them, those `wanted` keeps: the feedback pass needs their collection frequencies.
 */
export function feedbackVocabulary(
  candidates: CollectionIndex,
  queryTerms: readonly string[],
  wanted: (term: string) => boolean,
): Set<string> {
  const { feedbackUnits } = rankFirstPass(candidates, queryTerms);
  const topDocuments = new Set(feedbackUnits.map((unit) => candidates.unitDocument[unit]!));
  const vocabulary = new Set<string>();
  const { lexical } = candidates;
  // In document order, each document's sections in order: the order the index holds them.
  for (const document of [...topDocuments].sort((a, b) => a - b)) {
    const [from, to] = candidates.documentUnits(document);
    for (let unit = from; unit < to; unit++) {
      for (const stream of [lexical.titleStream(unit), lexical.bodyStream(unit)]) {
        for (const id of stream) {
          const term = lexical.term(id);
          if (wanted(term)) vocabulary.add(term);
        }
      }
    }
  }
  return vocabulary;
}

/**
 * The ids of the documents the page ranking weighs (ranker.ts withPageEvidence reads every
 * section of the PAGE_CANDIDATES leading documents, of the ranking with and without feedback).
 */
export function leadingDocumentIds(
  candidates: CollectionIndex,
  queryTerms: readonly string[],
  rerank: boolean,
): string[] {
  const leading = rankCollection(candidates, queryTerms, { rerank, limit: PAGE_CANDIDATES });
  return leading.weighedDocuments.map((document) => candidates.documents[document]!.id);
}

/**
 * The feedback pass's expanded query as term weights (idf × query frequency, terms the
 * collection holds), or undefined when the first pass has no feedback terms (the ranker then
 * runs no second pass).
 */
export function expandedQueryWeights(
  candidates: CollectionIndex,
  queryTerms: readonly string[],
): Map<string, number> | undefined {
  const ranking = rankFirstPass(candidates, queryTerms);
  if (!ranking.feedback.length) return undefined;
  const expanded = new Map<string, number>();
  for (const s of expandQuery(candidates.lexical, ranking.stats, ranking.feedback)) {
    if (s.documentFrequency > 0) expanded.set(s.term, s.idf * s.queryFrequency);
  }
  return expanded;
}
