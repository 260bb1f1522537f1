import type { LexicalIndex, QueryTermStats } from "./lexical-index.js";

/** Pairs further apart than this many terms do not count as near each other. */
const WINDOW = 5;

/**
 * Term-pair proximity (BM25TP, Rasolofo & Savoy 2003): for each pair of distinct query terms
 * occurring within WINDOW positions of each other in the same field, accumulate 1/d²; each
 * pair contributes min(weight_i, weight_j) · tp / (k1 + tp). It rewards documents where the
 * query's words stand together, which plain BM25's bag of words cannot see.
 */
export function proximityScore(index: LexicalIndex, stats: readonly QueryTermStats[], unit: number): number {
  const slot = new Map<number, number>();
  stats.forEach((s, i) => {
    if (s.termId >= 0) slot.set(s.termId, i);
  });
  if (slot.size < 2) return 0;
  const n = stats.length;
  const pairs = new Float64Array(n * n);
  for (const stream of [index.titleStream(unit), index.bodyStream(unit)]) {
    accumulatePairs(stream, slot, pairs, n);
  }
  const k1 = index.params.k1;
  let total = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const tp = pairs[i * n + j]!;
      if (tp === 0) continue;
      const weight = Math.min(weightOf(stats[i]!), weightOf(stats[j]!));
      total += (weight * tp) / (k1 + tp);
    }
  }
  return total;
}

function weightOf(s: QueryTermStats): number {
  return s.idf * s.queryFrequency;
}

function accumulatePairs(stream: Uint32Array, slot: Map<number, number>, pairs: Float64Array, n: number) {
  // Ring of the most recent query-term occurrences still inside the window.
  const recentPos: number[] = [];
  const recentSlot: number[] = [];
  for (let p = 0; p < stream.length; p++) {
    const q = slot.get(stream[p]!);
    if (q === undefined) continue;
    while (recentPos.length && p - recentPos[0]! > WINDOW) {
      recentPos.shift();
      recentSlot.shift();
    }
    for (let r = 0; r < recentPos.length; r++) {
      const other = recentSlot[r]!;
      if (other === q) continue;
      const d = p - recentPos[r]!;
      const [i, j] = other < q ? [other, q] : [q, other];
      pairs[i * n + j]! += 1 / (d * d);
    }
    recentPos.push(p);
    recentSlot.push(q);
  }
}
