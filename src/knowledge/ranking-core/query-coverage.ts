import type { QueryCoverage } from "../../types.js";
import { defaultAnalyzer } from "../analysis/registry.js";
import type { CollectionIndex } from "../index/collection-index.js";
import type { QueryTermStats } from "../index/lexical-index.js";

/** The query's heaviest terms the top hit is checked for (relevance-features.ts's keyTermScore reads as many). */
const KEY_TERMS = 3;

/**
 * The query's words against the documents (types.ts QueryCoverage), from the ranking's own term
 * statistics and the top hit's document: which of the three heaviest terms its sections hold
 * (title or body), and how much of the query no document holds. Undefined for a query without
 * terms. Read once per search, over one document's sections.
 */
export function queryCoverage(
  index: CollectionIndex,
  query: string,
  stats: readonly QueryTermStats[],
  document: number,
): QueryCoverage | undefined {
  const weighted = stats.map((s) => ({ stat: s, weight: s.idf * s.queryFrequency }));
  const total = weighted.reduce((sum, t) => sum + t.weight, 0);
  if (!(total > 0)) return undefined;
  const unmatched = weighted
    .filter((t) => t.stat.documentFrequency === 0)
    .reduce((sum, t) => sum + t.weight, 0);
  // Stable sort: equal weights keep query order.
  const key = [...weighted].sort((a, b) => b.weight - a.weight).slice(0, KEY_TERMS);
  const keyWeight = key.reduce((sum, t) => sum + t.weight, 0);
  const held = termsHeld(
    index,
    document,
    key.map((t) => t.stat.termId),
  );
  const heldWeight = key.filter((t) => held.has(t.stat.termId)).reduce((sum, t) => sum + t.weight, 0);
  return {
    keyTermsInTopHit: keyWeight > 0 ? heldWeight / keyWeight : 0,
    unmatchedShare: unmatched / total,
    ownFunctionWords: ownFunctionWords(index, query),
  };
}

/** The query's words that the collection's analyzer calls stopwords and English's does not. */
function ownFunctionWords(index: CollectionIndex, query: string): number {
  const { analyzer } = index;
  const english = defaultAnalyzer();
  if (analyzer.language === english.language) return 0;
  return analyzer
    .words(query, { spacedOnly: true })
    .filter((word) => analyzer.isStopword(word) && !english.isStopword(word)).length;
}

/** Which of `termIds` (a term the index lacks has a negative id) some section of the document holds. */
function termsHeld(index: CollectionIndex, document: number, termIds: readonly number[]): Set<number> {
  const wanted = new Set(termIds.filter((id) => id >= 0));
  const held = new Set<number>();
  const [first, end] = index.documentUnits(document);
  for (let unit = first; unit < end && held.size < wanted.size; unit++) {
    for (const stream of [index.lexical.titleStream(unit), index.lexical.bodyStream(unit)]) {
      for (const id of stream) if (wanted.has(id)) held.add(id);
    }
  }
  return held;
}
