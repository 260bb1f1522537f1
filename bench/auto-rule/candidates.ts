// Candidate features for auto's ask rule that the product does not read (bench/auto-rule/study.ts
// tries each, leave one collection out): computed here from the embedded engine's own ranking of
// the search's query, so the product pays nothing for a feature that does not earn its place.
// The key terms are the ones QueryCoverage reads (the query's three heaviest by idf × count).

import type { KnowledgeEngine } from "../../src/backends/embedded/embedded-engine.js";
import { queryTermsFor } from "../../src/backends/embedded/embedded-engine.js";
import { idf } from "../../src/knowledge/index/bm25.js";
import type { CollectionIndex } from "../../src/knowledge/index/collection-index.js";
import { rankCollection } from "../../src/knowledge/index/ranker.js";
import type { SearchResponse } from "../../src/types.js";

export interface CandidateFeatures {
  /** Share of the key terms' weight held by the top hit's best single section (not its whole page). */
  keyTermsInTopSection: number;
  /** Share of the key terms' weight some page of hits 1–5 holds. */
  keyTermsInTop5: number;
  /** How many of hits 2–5 hold every key term (0..4): pages the ranking had to choose between. */
  fullKeyHitsBelowTop: number;
  /** Share of the whole query's weight the top hit's page holds. */
  queryTermsInTopHit: number;
  /** Mean idf of the key terms over the idf of a term in one section (rarity of what the query is about). */
  keyTermRarity: number;
  /** Query terms the ranking scores. */
  terms: number;
}

const KEY_TERMS = 3;

/** The candidates of one search's response, or undefined when its top hit is not the engine's. */
export function candidateFeatures(
  engine: KnowledgeEngine,
  query: string,
  response: SearchResponse,
): CandidateFeatures | undefined {
  const top = response.results[0];
  const index = top && engine.collectionIndex(top.collection);
  if (!top || !index) return undefined;
  const terms = queryTermsFor(query, index, index.queryAnalyzerFor(query));
  const { stats } = rankCollection(index, terms, { rerank: false, limit: 1 });
  const weighted = stats.map((s) => ({ id: s.termId, idf: s.idf, weight: s.idf * s.queryFrequency }));
  const total = weighted.reduce((sum, t) => sum + t.weight, 0);
  if (!(total > 0)) return undefined;
  const key = [...weighted].sort((a, b) => b.weight - a.weight).slice(0, KEY_TERMS);
  const keyWeight = key.reduce((sum, t) => sum + t.weight, 0);
  const share = (held: ReadonlySet<number>, of: typeof weighted) =>
    of.filter((t) => held.has(t.id)).reduce((sum, t) => sum + t.weight, 0);
  const pages = response.results
    .slice(0, 5)
    .map((hit) => (hit.collection === top.collection ? documentNumber(index, hit.id) : undefined));
  const topPage = pages[0];
  if (topPage === undefined) return undefined;
  const keyIds = key.map((t) => t.id);
  const union = new Set<number>();
  let fullBelow = 0;
  for (const [rank, page] of pages.entries()) {
    if (page === undefined) continue;
    const held = termsHeld(index, page, keyIds);
    for (const id of held) union.add(id);
    if (rank > 0 && keyWeight > 0 && share(held, key) >= keyWeight - 1e-12) fullBelow++;
  }
  const single = idf(index.lexical.unitCount, 1);
  return {
    keyTermsInTopSection: keyWeight > 0 ? share(bestSectionHeld(index, topPage, keyIds), key) / keyWeight : 0,
    keyTermsInTop5: keyWeight > 0 ? share(union, key) / keyWeight : 0,
    fullKeyHitsBelowTop: fullBelow,
    queryTermsInTopHit:
      share(
        termsHeld(
          index,
          topPage,
          weighted.map((t) => t.id),
        ),
        weighted,
      ) / total,
    keyTermRarity: single > 0 ? key.reduce((sum, t) => sum + t.idf, 0) / key.length / single : 0,
    terms: weighted.length,
  };
}

function documentNumber(index: CollectionIndex, id: string): number | undefined {
  const at = index.documents.findIndex((d) => d.id === id);
  return at >= 0 ? at : undefined;
}

function unitTerms(index: CollectionIndex, unit: number, wanted: ReadonlySet<number>): Set<number> {
  const held = new Set<number>();
  for (const stream of [index.lexical.titleStream(unit), index.lexical.bodyStream(unit)]) {
    for (const id of stream) if (wanted.has(id)) held.add(id);
  }
  return held;
}

function termsHeld(index: CollectionIndex, page: number, ids: readonly number[]): Set<number> {
  const wanted = new Set(ids.filter((id) => id >= 0));
  const held = new Set<number>();
  const [first, end] = index.documentUnits(page);
  for (let unit = first; unit < end; unit++) for (const id of unitTerms(index, unit, wanted)) held.add(id);
  return held;
}

function bestSectionHeld(index: CollectionIndex, page: number, ids: readonly number[]): Set<number> {
  const wanted = new Set(ids.filter((id) => id >= 0));
  let best = new Set<number>();
  const [first, end] = index.documentUnits(page);
  for (let unit = first; unit < end; unit++) {
    const held = unitTerms(index, unit, wanted);
    if (held.size > best.size) best = held;
  }
  return best;
}
