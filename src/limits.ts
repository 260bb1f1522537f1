// Bounds that more than one layer enforces, in one place so they cannot drift apart: what the
// model may ask for in one search (the tool's declared schema, the engine, the Huginn client, the
// corrective pass and the hook all cut or refuse at the same numbers).

export const SEARCH_LIMITS = {
  /** Longer queries are refused by the tools and cut by the backends: bounded work per search. */
  queryChars: 4_000,
  /** Hits per search when the caller does not say. */
  defaultHits: 10,
  /** Hits per search at most, whatever the caller asks. */
  maxHits: 100,
  /** A collection name (slugs in config; longer ones are not ours). */
  collectionNameChars: 256,
  /** Collections named in one call. */
  collectionsPerCall: 64,
  /** A document id on a doc-id line. */
  docIdChars: 1_000,
} as const;

/**
 * How large a search result the corrective pass takes on. Three bounds, one per step, kept
 * here together so that they are read side by side.
 */
export const RESULT_LIMITS = {
  /**
   * The entry point every host calls (src/corrective/correct-tool-result.ts): larger results are
   * passed through unexamined, since the merge would have to copy them.
   */
  correctableChars: 16 * 1024 * 1024,
  /**
   * The Copilot hook's default (its `maxResultChars` option): it passes larger results through
   * before calling the entry point at all.
   */
  hookResultChars: 1_000_000,
  /** Results up to this many characters are graded whole; a larger one from its head and tail. */
  gradedViewChars: 256 * 1024,
} as const;

/** A hit count within 1..maxHits; anything that is not a finite number gives the default. */
export function clampHitLimit(limit: unknown): number {
  if (typeof limit !== "number" || !Number.isFinite(limit)) return SEARCH_LIMITS.defaultHits;
  return Math.max(1, Math.min(SEARCH_LIMITS.maxHits, Math.floor(limit)));
}

/** `n` when it is a finite number above zero, else undefined (unset options fall to defaults). */
export function positiveOrUndefined(n: number | undefined): number | undefined {
  return typeof n === "number" && Number.isFinite(n) && n > 0 ? n : undefined;
}

/** `n` floored when it is a finite number of at least 1, else undefined. */
export function wholeAtLeastOne(n: unknown): number | undefined {
  return typeof n === "number" && Number.isFinite(n) && n >= 1 ? Math.floor(n) : undefined;
}

/** A count read from untrusted data (a reply's token usage): a whole number of at least one, else 0. */
export function countOrZero(value: unknown): number {
  return wholeAtLeastOne(value) ?? 0;
}
