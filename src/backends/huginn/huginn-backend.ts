// A remote Huginn server as a KnowledgeBackend (docs/design.md §1, docs/reference/huginn-search-contract.md §2–§5): searches go
// to `GET /api/search` over undici, always scoped to the bot's allow-list, and the answer is
// normalised to our SearchResponse (huginn/huginn-response.ts) without trusting it. All scoping
// happens here, as in Huginn's adapter: the server has no per-caller scoping of its own.
import type { Dispatcher } from "undici";
import { DEADLINES } from "../../deadline.js";
import { UnknownCollectionError } from "../../errors.js";
import { normalizeSearchRequest } from "../../search-request.js";
import { type Logger, logger } from "../../telemetry/logger.js";
import type { KnowledgeBackend, SearchRequest, SearchResponse } from "../../types.js";
import { type CollectionSummary, normalizeCollections } from "./huginn-collections.js";
import { type HuginnDoc, normalizeDocument } from "./huginn-document.js";
import { failedError, HuginnError } from "./huginn-error.js";
import { HuginnHttp } from "./huginn-http.js";
import { documentPath, scopedCollections, searchQueryString } from "./huginn-query.js";
import { normalizeSearchResponse } from "./huginn-response.js";

export type { CollectionSummary } from "./huginn-collections.js";
export type { HuginnDoc } from "./huginn-document.js";
export { HuginnError } from "./huginn-error.js";

/** The adapter's httpx timeout. */
export const DEFAULT_HUGINN_TIMEOUT_MS = DEADLINES.huginnSearchMs;
/** A search answer is at most 100 hits of bounded fields; anything near this is not Huginn's. */
const MAX_SEARCH_BYTES = 16 * 1024 * 1024;
/** A document answer holds its text and its chunks, roughly twice the text. */
const MAX_DOCUMENT_BYTES = 24 * 1024 * 1024;
const MAX_LISTING_BYTES = 1024 * 1024;

export interface HuginnBackendOptions {
  /** The server's base URL, e.g. http://localhost:8321 (a trailing slash is ignored). */
  url: string;
  /** The allow-list: every search is scoped to these. */
  collections: readonly string[];
  /** Per request (default 30 s, as the adapter). */
  timeoutMs?: number;
  /** Tests inject one; by default the backend owns a connection pool. */
  dispatcher?: Dispatcher;
  log?: Logger;
}

export class HuginnBackend implements KnowledgeBackend {
  readonly url: string;
  readonly timeoutMs: number;
  private readonly allowed: readonly string[];
  private readonly allowedSet: ReadonlySet<string>;
  private readonly http: HuginnHttp;
  private readonly log: Logger;

  constructor(options: HuginnBackendOptions) {
    this.url = options.url.replace(/\/+$/, "");
    this.allowed = [...new Set(options.collections)];
    this.allowedSet = new Set(this.allowed);
    this.timeoutMs =
      typeof options.timeoutMs === "number" && options.timeoutMs > 0
        ? options.timeoutMs
        : DEFAULT_HUGINN_TIMEOUT_MS;
    this.http = new HuginnHttp(this.url, options.dispatcher ? { dispatcher: options.dispatcher } : {});
    this.log = options.log ?? logger();
  }

  collections(): string[] {
    return [...this.allowed];
  }

  /**
   * Throws UnknownCollectionError (no call made) for a collection outside the allow-list,
   * HuginnError worded as the adapter words it for a failed call, or the signal's reason.
   */
  async search(request: SearchRequest, options: { signal?: AbortSignal } = {}): Promise<SearchResponse> {
    const normalized = normalizeSearchRequest(request);
    const collections = scopedCollections(normalized.collections, this.allowed);
    const json = await this.http.getJson(`/api/search?${searchQueryString(normalized, collections)}`, {
      timeoutMs: this.timeoutMs,
      maxBytes: MAX_SEARCH_BYTES,
      startHint: this.allowed,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const answer = normalizeSearchResponse(json, normalized.query, this.allowedSet, normalized.limit);
    if (!answer) throw failedError("unexpected response: it has no results list");
    const { malformed, outOfScope } = answer.dropped;
    if (malformed > 0 || outOfScope > 0) {
      this.log.warn(
        { url: this.url, malformed, outOfScope },
        "huginn: hits left out (malformed, or from collections outside the bot's allow-list)",
      );
    }
    return answer.response;
  }

  /** Undefined when the server has no such document (404) or the id cannot name one. */
  async getDocument(
    collection: string,
    id: string,
    options: { signal?: AbortSignal } = {},
  ): Promise<HuginnDoc | undefined> {
    if (!this.allowedSet.has(collection)) throw new UnknownCollectionError(collection, this.allowed);
    const path = documentPath(collection, id);
    if (path === undefined) return undefined;
    let json: unknown;
    try {
      json = await this.http.getJson(path, {
        timeoutMs: this.timeoutMs,
        maxBytes: MAX_DOCUMENT_BYTES,
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (error) {
      if (error instanceof HuginnError && error.status === 404) return undefined;
      throw error;
    }
    const doc = normalizeDocument(json, collection, id);
    if (!doc) throw failedError("unexpected response: it is not a document");
    return doc;
  }

  /** The allowed collections the server has loaded, with its counts (`GET /api/collections`). */
  async describeCollections(options: { signal?: AbortSignal } = {}): Promise<CollectionSummary[]> {
    const json = await this.http.getJson("/api/collections", {
      timeoutMs: this.timeoutMs,
      maxBytes: MAX_LISTING_BYTES,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const summaries = normalizeCollections(json, this.allowed);
    if (!summaries) throw failedError("unexpected response: it has no collections list");
    return summaries;
  }

  /** Releases the connection pool. */
  async close(): Promise<void> {
    await this.http.close();
  }
}
