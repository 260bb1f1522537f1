// Which query to re-search with (docs/design.md §5, docs/reference/muninn-corrective-retrieval.md §4 pickRetryQuery): the grader's rewrite,
// then the search's own hints, broader before narrower (a weak search usually missed by being
// too specific). Never the original query, never one already tried, never garbage.
import { SEARCH_LIMITS } from "../limits.js";
import type { RetryHints } from "../types.js";

/** Queries that differ only in case or spacing search the same thing. */
export function queryIdentity(query: string): string {
  return query.trim().replace(/\s+/g, " ").toLowerCase();
}

/**
 * The first usable candidate, trimmed: `rewrittenQuery`, `hints.broaderQuery`,
 * `hints.narrowerQuery`. `hints` must come from the trailing footer or the structured response,
 * never from hit bodies. `tried` holds queryIdentity() of the original and every re-query so far.
 */
export function pickRequery(
  rewrittenQuery: string | undefined,
  hints: RetryHints,
  tried: ReadonlySet<string>,
): string | undefined {
  for (const candidate of [rewrittenQuery, hints.broaderQuery, hints.narrowerQuery]) {
    if (typeof candidate !== "string") continue;
    const query = candidate.trim();
    if (query === "" || query.length > SEARCH_LIMITS.queryChars) continue;
    if (tried.has(queryIdentity(query))) continue;
    return query;
  }
  return undefined;
}
