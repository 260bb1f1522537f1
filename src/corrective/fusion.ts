// Reciprocal rank fusion (Cormack, Clarke & Büttcher, SIGIR 2009) of the rankings several rescue
// candidates returned: a hit's fused score is the sum over rankings of 1 / (k + rank). It needs
// no comparable scores across queries (a hit's calibrated relevance is relative to the query
// that found it), rewards agreement between candidates, and is stable: ties keep the order of
// first appearance (earlier ranking, then earlier rank), so the first candidate leads a tie.
import { docKey } from "../knowledge-tool/result-text.js";
import type { Hit } from "../types.js";

/** The customary constant; it damps the weight of the very top ranks. */
export const RRF_K = 60;

export interface FusedHit {
  hit: Hit;
  /** Sum of 1 / (k + rank) over the rankings that returned it (rank 1-based). */
  score: number;
  /** How many rankings returned it. */
  votes: number;
}

/**
 * The fused ranking, best first. A hit returned by several rankings appears once, as the copy
 * with the highest relevance. Entries that are not hits with a collection and an id are skipped.
 * `weights` (default 1 each) scales a ranking's contribution.
 */
export function fuseRankings(
  rankings: readonly (readonly unknown[])[],
  options: { k?: number; weights?: readonly number[] } = {},
): FusedHit[] {
  const k = typeof options.k === "number" && options.k >= 0 ? options.k : RRF_K;
  const fused = new Map<string, FusedHit & { first: number }>();
  let order = 0;
  rankings.forEach((ranking, r) => {
    const weight = options.weights?.[r] ?? 1;
    if (!Array.isArray(ranking) || !(weight > 0)) return;
    const seenHere = new Set<string>();
    let rank = 0;
    for (const candidate of ranking) {
      if (!isHit(candidate)) continue;
      const key = docKey(candidate);
      if (seenHere.has(key)) continue;
      seenHere.add(key);
      rank++;
      const contribution = weight / (k + rank);
      const existing = fused.get(key);
      if (existing) {
        existing.score += contribution;
        existing.votes++;
        if (candidate.relevance > existing.hit.relevance) existing.hit = candidate;
      } else {
        fused.set(key, { hit: candidate, score: contribution, votes: 1, first: order++ });
      }
    }
  });
  return [...fused.values()]
    .sort((a, b) => b.score - a.score || a.first - b.first)
    .map(({ hit, score, votes }) => ({ hit, score, votes }));
}

function isHit(value: unknown): value is Hit {
  if (value === null || typeof value !== "object") return false;
  const hit = value as Partial<Hit>;
  return (
    typeof hit.collection === "string" && hit.collection !== "" && typeof hit.id === "string" && hit.id !== ""
  );
}
