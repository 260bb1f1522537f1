// The query's rarity the weak-flag study reads (not a product feature: the term built on it was
// studied and not shipped, docs/quality-and-speed.md).
import { idf } from "../../src/knowledge/index/bm25.js";
import type { QueryTermStats } from "../../src/knowledge/index/lexical-index.js";

/**
 * How rare the query's rarest word is in the collection: its idf over the idf of a word found in
 * a single section (a word in no section reads above 1, by how much the collection's size says).
 * 0 for a query with no terms.
 */
export function queryRarity(stats: readonly QueryTermStats[], unitCount: number): number {
  const single = idf(unitCount, 1);
  if (!stats.length || !(single > 0)) return 0;
  return Math.max(...stats.map((s) => s.idf)) / single;
}

/** The term studied: `weight · (reference − rarity)` added to a search's log-odds. */
export const STUDIED_TERM = { weight: 2, reference: 0.975 } as const;
