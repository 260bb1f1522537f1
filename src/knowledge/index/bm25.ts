/**
 * BM25F parameters. The defaults are Robertson's textbook values (k1 1.2, b 0.75 for the body;
 * a milder b for the short title field, which a title-weight of 2 counts double). They are
 * shared by every collection: the engine must not be tuned to one test collection
 * (docs/quality-and-speed.md). Held against a grid of others on every visible collection, leave
 * one collection out, no other setting gains on each (bench/ranking-params.bench.ts).
 */
export interface Bm25Params {
  k1: number;
  /** Length normalisation of the body field. */
  bBody: number;
  /** Length normalisation of the title field (document title + heading path). */
  bTitle: number;
  /** How much one title occurrence counts relative to one body occurrence. */
  titleWeight: number;
}

export const DEFAULT_BM25: Readonly<Bm25Params> = { k1: 1.2, bBody: 0.75, bTitle: 0.5, titleWeight: 2 };

/** Lucene's non-negative BM25 idf. */
export function idf(documentCount: number, documentFrequency: number): number {
  return Math.log(1 + (documentCount - documentFrequency + 0.5) / (documentFrequency + 0.5));
}

/** Saturated term weight in [0, 1): pseudo-frequency / (k1 + pseudo-frequency). */
export function saturate(pseudoFrequency: number, k1: number): number {
  return pseudoFrequency / (k1 + pseudoFrequency);
}
