// The re-queries a corrective round may run, and where: which queries (a model grade's, else the
// signal's hints and rescue candidates; never the original or one already tried) and inside which
// collections (the call's allow-list).

import { SEARCH_LIMITS } from "../limits.js";
import type { Grade, RetryHints } from "../types.js";

// Which query to re-search with (docs/design.md §5, docs/reference/muninn-corrective-retrieval.md §4 pickRetryQuery): the grader's rewrite,
// then the search's own hints, broader before narrower (a weak search usually missed by being
// too specific). Never the original query, never one already tried, never garbage.

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

// The re-queries one corrective round runs (in parallel, then fused): a model grader's rewrite,
// its alternatives and its hypothetical answer passage (query2doc-style expansion: the original
// query followed by the passage), or — from the signal — the rescue candidates the index derived
// for a weak search, else the footer's broader and narrower queries. Never the original query,
// never one already tried, never garbage: every candidate is one line, bounded, and distinct.

/** How a candidate was derived: a model's field, or the index's strategy name. */
export type CandidateOrigin = "rewrite" | "alternative" | "hypothetical_answer" | string;

export interface RequeryCandidate {
  query: string;
  origin: CandidateOrigin;
  /** The share of the original query's weight an index's rescue candidate keeps (RescueQuery.keptShare). */
  keptShare?: number;
}

/** The rewrite, 3 alternatives and the passage. */
export const MAX_MODEL_CANDIDATES = 5;
/** The index's rescue candidates run per round. */
export const MAX_SIGNAL_CANDIDATES = 6;

/** The model grader's candidates for this round, in the order given (rewrite first). */
export function modelCandidates(
  grade: Grade,
  originalQuery: string,
  tried: ReadonlySet<string>,
): RequeryCandidate[] {
  const out = new Accumulator(tried, MAX_MODEL_CANDIDATES);
  out.add(grade.rewrittenQuery, "rewrite");
  for (const alternative of Array.isArray(grade.alternativeQueries)
    ? grade.alternativeQueries.slice(0, 3)
    : []) {
    out.add(alternative, "alternative");
  }
  if (typeof grade.hypotheticalAnswer === "string" && grade.hypotheticalAnswer.trim() !== "") {
    // The query's own words lead, so the passage expands the question rather than replacing it;
    // the engine bounds the length and the number of distinct terms it reads.
    const expanded = `${oneLine(originalQuery)} ${oneLine(grade.hypotheticalAnswer)}`.slice(
      0,
      SEARCH_LIMITS.queryChars,
    );
    out.add(expanded, "hypothetical_answer");
  }
  return out.candidates;
}

/** The signal's candidates: the index's rescue queries when the search carried them, else the footer's. */
export function signalCandidates(hints: RetryHints, tried: ReadonlySet<string>): RequeryCandidate[] {
  const out = new Accumulator(tried, MAX_SIGNAL_CANDIDATES);
  const rescue = Array.isArray(hints.rescueQueries)
    ? hints.rescueQueries.slice(0, MAX_SIGNAL_CANDIDATES * 2)
    : [];
  if (rescue.length > 0) {
    for (const candidate of rescue) {
      if (candidate && typeof candidate === "object") {
        out.add(
          candidate.query,
          typeof candidate.strategy === "string" ? candidate.strategy : "index",
          candidate.keptShare,
        );
      }
    }
    return out.candidates;
  }
  // A text-only result (another backend, an MCP tool): the footer's hints, broader first.
  out.add(hints.broaderQuery, hints.broaderQueryStrategy ?? "broader_query");
  out.add(hints.narrowerQuery, hints.narrowerQueryStrategy ?? "narrower_query");
  return out.candidates;
}

class Accumulator {
  readonly candidates: RequeryCandidate[] = [];
  private readonly seen: Set<string>;

  constructor(
    tried: ReadonlySet<string>,
    private readonly limit: number,
  ) {
    this.seen = new Set(tried);
  }

  add(value: unknown, origin: CandidateOrigin, keptShare?: unknown): void {
    if (typeof value !== "string" || this.candidates.length >= this.limit) return;
    // Bounded before it is examined: a multi-megabyte "query" is refused, not scanned.
    if (value.length > SEARCH_LIMITS.queryChars * 2) return;
    const query = oneLine(value);
    if (query === "" || query.length > SEARCH_LIMITS.queryChars) return;
    const identity = queryIdentity(query);
    if (this.seen.has(identity)) return;
    this.seen.add(identity);
    const share = typeof keptShare === "number" && keptShare > 0 && keptShare <= 1 ? keptShare : undefined;
    this.candidates.push(share === undefined ? { query, origin } : { query, origin, keptShare: share });
  }
}

function oneLine(text: string): string {
  return text
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

// Where a re-query may search (docs/design.md §5; docs/reference/muninn-corrective-retrieval.md limitation 8): inside the call's
// allow-list (the caller's scope: an HTTP token's collections, else the bot's),
// always as an explicit list, so a backend never widens "no collection" to everything it has.

export interface RequeryScope {
  collections: string[];
  /** The grader's suggested collection was used. */
  redirected: boolean;
}

export type ScopeDecision = RequeryScope | { stop: string };

/**
 * - a suggested collection inside the allow-list → just it (a redirect);
 *   one outside it is ignored;
 * - else the collections the search was scoped to, those inside the allow-list; when the search
 *   named only collections outside it, there is nothing the bot may re-search: stop;
 * - else (no explicit collection) exactly the allow-list; an empty allow-list: stop.
 */
export function requeryScope(
  allowed: readonly string[],
  current: readonly string[] | undefined,
  suggested: string | undefined,
): ScopeDecision {
  const allowedSet = new Set(allowed);
  if (suggested !== undefined && allowedSet.has(suggested))
    return { collections: [suggested], redirected: true };
  if (current !== undefined && current.length > 0) {
    const inside = [...new Set(current)].filter((c) => allowedSet.has(c));
    if (inside.length === 0) return { stop: "the search's collections are outside the bot's allow-list" };
    return { collections: inside, redirected: false };
  }
  if (allowedSet.size === 0) return { stop: "the bot has no collections to search" };
  return { collections: [...allowedSet], redirected: false };
}
