// The query string of Huginn's `GET /api/search` (docs/reference/huginn-search-contract.md §2), in the order and with
// the encodings its MCP adapter uses: q, limit, brief, max_chunks_per_doc=2, one `collection`
// per allowed collection, then min_relevance and rerank only when set, booleans as
// "true"/"false".
import { UnknownCollectionError } from "../../errors.js";
import type { NormalizedSearchRequest } from "../../search-request.js";

/** The adapter hard-codes it: two chunks per document keep full-mode results readable. */
export const MAX_CHUNKS_PER_DOC = 2;

/**
 * The collections a search may name: the request's, each of which must be in the allow-list
 * (else UnknownCollectionError, before any call), or, when it names none, the whole allow-list,
 * sent explicitly so the server never widens "none" to everything it has loaded.
 */
export function scopedCollections(
  requested: readonly string[] | undefined,
  allowed: readonly string[],
): string[] {
  if (!requested || requested.length === 0) return [...allowed];
  const scope: string[] = [];
  for (const name of requested) {
    if (!allowed.includes(name)) throw new UnknownCollectionError(name, allowed);
    if (!scope.includes(name)) scope.push(name);
  }
  return scope;
}

/** The request as Huginn's search takes it (the query and limit already bounded: search-request.ts). */
export function searchQueryString(request: NormalizedSearchRequest, collections: readonly string[]): string {
  const params = new URLSearchParams();
  params.append("q", request.query);
  params.append("limit", String(request.limit));
  params.append("brief", request.brief ? "true" : "false");
  params.append("max_chunks_per_doc", String(MAX_CHUNKS_PER_DOC));
  for (const collection of collections) params.append("collection", collection);
  const minRelevance = request.minRelevance;
  if (
    typeof minRelevance === "number" &&
    Number.isFinite(minRelevance) &&
    minRelevance >= 0 &&
    minRelevance <= 1
  ) {
    params.append("min_relevance", String(minRelevance));
  }
  // Sent only when the caller chose: the server applies the same default itself.
  if (request.rerankAsked !== undefined) params.append("rerank", request.rerankAsked ? "true" : "false");
  return params.toString();
}

/**
 * `/api/document/<collection>/<doc_id>`, each path segment percent-encoded (Huginn's doc ids are
 * relative paths, matched by a `{doc_id:path}` route). Undefined for an id no document can have:
 * empty, over-long, or with empty, `.` or `..` segments, which a proxy or the server would
 * resolve to another path.
 */
export function documentPath(collection: string, id: string): string | undefined {
  if (id.length === 0 || id.length > 1_000) return undefined;
  const segments = id.split("/");
  if (segments.some((s) => s === "" || s === "." || s === "..")) return undefined;
  return `/api/document/${encodeURIComponent(collection)}/${segments.map(encodeURIComponent).join("/")}`;
}
