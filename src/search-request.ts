// What a search request means once its bounds and defaults are applied, in one place: every
// backend (the embedded engine, the PostgreSQL backend, the Huginn client) normalises the
// request it is given with this function, once, at its entry, and passes the result on; the
// ranking core (src/knowledge/ranking-core/) accepts only the normalised form, so no backend
// can clip, clamp or default a second time or differently.
import { clampHitLimit, SEARCH_LIMITS } from "./limits.js";
import type { SearchRequest } from "./types.js";

/** A SearchRequest with the limits applied and the defaults filled in. */
export interface NormalizedSearchRequest {
  /** The query, cut at SEARCH_LIMITS.queryChars; anything that is not a string is "". */
  readonly query: string;
  /** Hits to return: clampHitLimit's 1..maxHits, the default when unset or not a number. */
  readonly limit: number;
  readonly brief: boolean;
  /** The pass to run: as asked, else Huginn's default, rerank unless brief. */
  readonly rerank: boolean;
  /**
   * The caller's own choice, undefined when it made none: a backend that forwards the request
   * (Huginn's `rerank` parameter is sent only when set) must not turn the default into a choice.
   */
  readonly rerankAsked: boolean | undefined;
  /** The collections named, undefined or empty for every collection the backend may search. */
  readonly collections: readonly string[] | undefined;
  /** Only when it is a number (a backend or the server may bound it further). */
  readonly minRelevance: number | undefined;
}

export function normalizeSearchRequest(request: SearchRequest): NormalizedSearchRequest {
  const brief = request.brief === true;
  const rerankAsked = typeof request.rerank === "boolean" ? request.rerank : undefined;
  return {
    query: typeof request.query === "string" ? request.query.slice(0, SEARCH_LIMITS.queryChars) : "",
    limit: clampHitLimit(request.limit),
    brief,
    // Huginn's default: rerank unless brief (a brief call is the quick overview).
    rerank: rerankAsked ?? !brief,
    rerankAsked,
    collections: request.collections,
    minRelevance: typeof request.minRelevance === "number" ? request.minRelevance : undefined,
  };
}
