// Minimal hits and responses for protocol tests, overridable field by field.
import type { Hit, SearchResponse } from "../../src/types.js";

export const hit = (over: Partial<Hit> = {}): Hit => ({
  collection: "wiki",
  id: "a.md",
  title: "A",
  relevance: 0.8,
  band: "high",
  ...over,
});

export const response = (over: Partial<SearchResponse> = {}): SearchResponse => ({
  query: "q",
  results: [hit()],
  bestScore: 0.8,
  reranked: true,
  ...over,
});
