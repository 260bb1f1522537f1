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
