import type { Analyzer } from "../analysis/analyzer.js";
import { compoundPlan } from "../analysis/compounds.js";
import { idf } from "../index/bm25.js";
import { MAX_QUERY_TERMS } from "../index/ranker.js";

/**
 * A query's terms in one collection, in two steps so a backend that looks frequencies up in a
 * database can do it in one query: `lookups` are the terms whose collection frequencies decide
 * the rest (the analysed terms the ranker reads and every compound part or join that might
 * join them); `terms` then gives the query's terms — its analysis, plus the compound parts and
 * joins the collection holds.
 */
export interface QueryTermPlan {
  readonly lookups: readonly string[];
  terms(documentFrequency: (term: string) => number): string[];
}

export function queryTermPlan(query: string, analyzer: Analyzer): QueryTermPlan {
  const analyzed = analyzer.analyze(query);
  const compounds = compoundPlan(query, analyzer);
  return {
    lookups: [...new Set([...rankedQueryTerms(analyzed), ...compounds.candidates])],
    terms: (documentFrequency) => {
      if (!compounds.candidates.length) return analyzed;
      const extra = compounds.choose(documentFrequency);
      return extra.length ? [...analyzed, ...extra] : analyzed;
    },
  };
}

/** The distinct query terms the ranker scores, in query order (MAX_QUERY_TERMS bounds a huge query). */
export function rankedQueryTerms(queryTerms: readonly string[]): string[] {
  return [...new Set(queryTerms)].slice(0, MAX_QUERY_TERMS);
}

/**
 * The original query as term weights (idf × the term's count in the query) over the terms the
 * ranker scores that the collection holds: what a first-pass candidate search sums per section.
 */
export function queryTermWeights(
  queryTerms: readonly string[],
  unitCount: number,
  documentFrequency: (term: string) => number,
): Map<string, number> {
  const ranked = new Set(rankedQueryTerms(queryTerms));
  const weights = new Map<string, number>();
  for (const term of queryTerms) {
    const df = documentFrequency(term);
    if (!ranked.has(term) || !df) continue;
    weights.set(term, (weights.get(term) ?? 0) + idf(unitCount, df));
  }
  return weights;
}
