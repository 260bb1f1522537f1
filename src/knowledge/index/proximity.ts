import type { LexicalIndex, QueryTermStats } from "./lexical-index.js";

/** Pairs further apart than this many terms do not count as near each other. */
const WINDOW = 5;

/**
 * Term-pair proximity (BM25TP, Rasolofo & Savoy 2003): for each pair of distinct query terms
 * occurring within WINDOW positions of each other in the same field, accumulate 1/d²; each
 * pair contributes min(weight_i, weight_j) · tp / (k1 + tp). It rewards documents where the
 * query's words stand together, which plain BM25's bag of words cannot see.
 *
 * Built once per query (the term → slot map and the pair matrix are reused for every unit).
 */
export class ProximityScorer {
  private readonly slot = new Map<number, number>();
  private readonly weights: number[];
  private readonly pairs: Float64Array;
  private readonly n: number;
  private readonly recentPos: number[] = [];
  private readonly recentSlot: number[] = [];

  constructor(
    private readonly index: LexicalIndex,
    stats: readonly QueryTermStats[],
  ) {
    stats.forEach((s, i) => {
      if (s.termId >= 0) this.slot.set(s.termId, i);
    });
    this.n = stats.length;
    this.weights = stats.map((s) => s.idf * s.queryFrequency);
    this.pairs = new Float64Array(this.slot.size >= 2 ? this.n * this.n : 0);
  }

  score(unit: number): number {
    if (this.slot.size < 2) return 0;
    this.pairs.fill(0);
    this.accumulate(this.index.titleStream(unit));
    this.accumulate(this.index.bodyStream(unit));
    const k1 = this.index.params.k1;
    const n = this.n;
    let total = 0;
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const tp = this.pairs[i * n + j]!;
        if (tp === 0) continue;
        total += (Math.min(this.weights[i]!, this.weights[j]!) * tp) / (k1 + tp);
      }
    }
    return total;
  }

  private accumulate(stream: Uint32Array) {
    // The query-term occurrences still inside the window, oldest first.
    const recentPos = this.recentPos;
    const recentSlot = this.recentSlot;
    recentPos.length = 0;
    recentSlot.length = 0;
    const n = this.n;
    for (let p = 0; p < stream.length; p++) {
      const q = this.slot.get(stream[p]!);
      if (q === undefined) continue;
      let drop = 0;
      while (drop < recentPos.length && p - recentPos[drop]! > WINDOW) drop++;
      if (drop) {
        recentPos.splice(0, drop);
        recentSlot.splice(0, drop);
      }
      for (let r = 0; r < recentPos.length; r++) {
        const other = recentSlot[r]!;
        if (other === q) continue;
        const d = p - recentPos[r]!;
        const cell = other < q ? other * n + q : q * n + other;
        this.pairs[cell]! += 1 / (d * d);
      }
      recentPos.push(p);
      recentSlot.push(q);
    }
  }
}
