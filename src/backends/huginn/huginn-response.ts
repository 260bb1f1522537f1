// Huginn's `/api/search` JSON (docs/reference/huginn-search-contract.md §2) as our SearchResponse. Field names differ
// (confidenceBand → band, matchedChunks → chunks, graph_answer → graphAnswer, corrective →
// rescue), and nothing is taken on trust: each hit is checked on its own and dropped when it
// cannot be cited (no collection or id) or graded (no relevance), every string and list is
// bounded, and hits from collections outside the bot's allow-list are dropped, so a server that
// ignores the `collection` parameter cannot widen the bot's scope.

import { SEARCH_LIMITS } from "../../limits.js";
import type { Band, Chunk, Hit, RetryHints, SearchResponse, ServerRescue } from "../../types.js";
import { bandFor } from "../../weakness.js";
import { boundedMetadata, boundedString, boundedStrings, isObject, unitNumber } from "./json-fields.js";

/** Bounds on what one response may put in front of the model. */
export const RESPONSE_LIMITS = {
  hits: SEARCH_LIMITS.maxHits,
  chunksPerHit: 10,
  chunkChars: 8_000,
  snippetChars: 2_000,
  titleChars: 500,
  idChars: 1_000,
  urlChars: 2_000,
  lineChars: 1_000,
  metadataEntries: 32,
  graphContextEntries: 10,
  graphAnswerChars: 16_000,
  queryChars: SEARCH_LIMITS.queryChars,
  relatedTerms: 16,
  strategyChars: 64,
} as const;

const BANDS: ReadonlySet<string> = new Set<Band>(["high", "medium", "low"]);

export interface NormalizedSearch {
  response: SearchResponse;
  /** Hits left out: malformed, or from a collection outside the allow-list. */
  dropped: { malformed: number; outOfScope: number };
}

/** Undefined when the body is not a search response at all (no `results` list). */
export function normalizeSearchResponse(
  json: unknown,
  query: string,
  allowed: ReadonlySet<string>,
  limit: number,
): NormalizedSearch | undefined {
  if (!isObject(json) || !Array.isArray(json.results)) return undefined;
  const dropped = { malformed: 0, outOfScope: 0 };
  const results: Hit[] = [];
  // Huginn never returns more than `limit`; a server that does is cut, not trusted.
  for (const raw of json.results.slice(0, Math.min(limit, RESPONSE_LIMITS.hits))) {
    const hit = normalizeHit(raw);
    if (!hit) dropped.malformed++;
    else if (!allowed.has(hit.collection)) dropped.outOfScope++;
    else results.push(hit);
  }
  // The server's bestScore may be an out-of-scope hit's: then only the hits kept can say.
  const bestScore =
    dropped.outOfScope > 0 ? maxRelevance(results) : (unitNumber(json.bestScore) ?? maxRelevance(results));
  const response: SearchResponse = { query, results, bestScore, reranked: json.reranked === true };
  if (json.noConfidentResults === true || results.length === 0) response.noConfidentResults = true;
  const hints = normalizeHints(json.retryHints);
  if (hints) response.retryHints = hints;
  if (json.lowConfidence === true) response.lowConfidence = true;
  const graphAnswer = boundedString(json.graph_answer, RESPONSE_LIMITS.graphAnswerChars);
  if (graphAnswer) response.graphAnswer = graphAnswer;
  const rescue = normalizeRescue(json.corrective);
  if (rescue) response.rescue = rescue;
  return { response, dropped };
}

function normalizeHit(raw: unknown): Hit | undefined {
  if (!isObject(raw)) return undefined;
  const L = RESPONSE_LIMITS;
  // Over-long names are refused rather than cut: a cut id would name another document.
  const collection = exactString(raw.collection, 256);
  const id = exactString(raw.id, L.idChars);
  const relevance = unitNumber(raw.relevance);
  if (collection === undefined || id === undefined || relevance === undefined) return undefined;
  const band =
    typeof raw.confidenceBand === "string" && BANDS.has(raw.confidenceBand)
      ? (raw.confidenceBand as Band)
      : bandFor(relevance);
  const hit: Hit = {
    collection,
    id,
    title: boundedString(raw.title, L.titleChars) ?? id,
    relevance,
    band,
  };
  const url = boundedString(raw.url, L.urlChars);
  if (url) hit.url = url;
  const heading = boundedString(raw.heading, L.lineChars);
  if (heading) hit.heading = heading;
  const breadcrumb = boundedString(raw.breadcrumb, L.lineChars);
  if (breadcrumb) hit.breadcrumb = breadcrumb;
  const snippet = boundedString(raw.snippet, L.snippetChars);
  if (snippet) hit.snippet = snippet;
  const modifiedTime = boundedString(raw.modifiedTime, 64);
  if (modifiedTime) hit.modifiedTime = modifiedTime;
  const chunks = normalizeChunks(raw.matchedChunks);
  if (chunks) hit.chunks = chunks.chunks;
  // Our Hit carries metadata once; Huginn repeats it per chunk, so the first chunk's stands in
  // when the hit has none of its own.
  const metadata = boundedMetadata(raw.metadata ?? chunks?.firstMetadata, L.metadataEntries, L.lineChars);
  if (metadata) hit.metadata = metadata;
  const graphContext = boundedStrings(raw.graph_context, L.graphContextEntries, L.lineChars);
  if (graphContext) hit.graphContext = graphContext;
  return hit;
}

function normalizeChunks(raw: unknown): { chunks: Chunk[]; firstMetadata: unknown } | undefined {
  if (!Array.isArray(raw)) return undefined;
  const chunks: Chunk[] = [];
  let firstMetadata: unknown;
  for (const entry of raw.slice(0, RESPONSE_LIMITS.chunksPerHit)) {
    if (!isObject(entry)) continue;
    const content = boundedString(entry.content, RESPONSE_LIMITS.chunkChars) ?? "";
    const heading = boundedString(entry.heading, RESPONSE_LIMITS.lineChars);
    if (content === "" && !heading) continue;
    chunks.push(heading ? { heading, content } : { content });
    firstMetadata ??= entry.metadata;
  }
  return chunks.length > 0 ? { chunks, firstMetadata } : undefined;
}

function normalizeHints(raw: unknown): RetryHints | undefined {
  if (!isObject(raw)) return undefined;
  const L = RESPONSE_LIMITS;
  const hints: RetryHints = {};
  const broader = boundedQuery(raw.broaderQuery);
  if (broader) {
    hints.broaderQuery = broader;
    const strategy = boundedString(raw.broaderQueryStrategy, L.strategyChars);
    if (strategy) hints.broaderQueryStrategy = strategy;
  }
  const narrower = boundedQuery(raw.narrowerQuery);
  if (narrower) {
    hints.narrowerQuery = narrower;
    const strategy = boundedString(raw.narrowerQueryStrategy, L.strategyChars);
    if (strategy) hints.narrowerQueryStrategy = strategy;
  }
  const related = boundedStrings(raw.relatedTerms, L.relatedTerms, L.lineChars);
  if (related) hints.relatedTerms = related;
  return Object.keys(hints).length > 0 ? hints : undefined;
}

function normalizeRescue(raw: unknown): ServerRescue | undefined {
  if (!isObject(raw)) return undefined;
  if (raw.verdict !== "rescued" && raw.verdict !== "still_weak") return undefined;
  const queriesTried = boundedStrings(raw.queriesTried, 8, RESPONSE_LIMITS.queryChars) ?? [];
  const rescue: ServerRescue = { verdict: raw.verdict, queriesTried };
  const strategy = boundedString(raw.rescueStrategy, RESPONSE_LIMITS.strategyChars);
  if (strategy) rescue.strategy = strategy;
  return rescue;
}

// A hint is a query we may search with: an over-long one is refused, never cut into another query.
function boundedQuery(value: unknown): string | undefined {
  const query = exactString(value, RESPONSE_LIMITS.queryChars);
  return query?.trim() ? query : undefined;
}

function exactString(value: unknown, max: number): string | undefined {
  return typeof value === "string" && value !== "" && value.length <= max ? value : undefined;
}

function maxRelevance(hits: readonly Hit[]): number {
  let best = 0;
  for (const hit of hits) if (hit.relevance > best) best = hit.relevance;
  return best;
}
