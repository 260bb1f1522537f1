// Huginn `/api/search` JSON as its formatter emits it (docs/reference/huginn-search-contract.md §2), overridable field
// by field, for the loopback server's handlers.

export interface HuginnHitJson {
  collection: string;
  id: string;
  title: string;
  url: string;
  relevance: number;
  confidenceBand: "high" | "medium" | "low";
  snippet?: string;
  matchedChunks?: { content: string; heading: string | null; relevance: number }[];
  [key: string]: unknown;
}

export function huginnHit(over: Partial<HuginnHitJson> & { id: string }): HuginnHitJson {
  const relevance = over.relevance ?? 0.9;
  return {
    collection: "wiki",
    title: over.id.split("/").pop() ?? over.id,
    url: `https://wiki.example/${over.id}`,
    relevance,
    confidenceBand: relevance >= 0.65 ? "high" : relevance >= 0.4 ? "medium" : "low",
    matchedChunks: [{ content: `Text of ${over.id}.`, heading: null, relevance }],
    ...over,
  };
}

export function huginnSearch(
  results: HuginnHitJson[],
  over: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    results,
    bestScore: results[0]?.relevance ?? 0,
    reranked: true,
    ...(results.length === 0 ? { noConfidentResults: true } : {}),
    ...over,
  };
}
