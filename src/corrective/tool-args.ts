// The model's search_knowledge arguments, read defensively: they are whatever the model sent
// (Huginn's parameter names), so nothing about their shape is assumed. Garbage yields no
// arguments (no correction), never an exception and never a re-query built from it.
import { MAX_QUERY_CHARS } from "./llm-grade.js";

export interface SearchArgs {
  query: string;
  /** From `collection` (a string or an array of strings); absent means all the bot may search. */
  collections?: string[];
  limit?: number;
  brief?: boolean;
  minRelevance?: number;
}

const MAX_COLLECTIONS = 64;
const MAX_COLLECTION_CHARS = 256;
const MAX_LIMIT = 100;

/** The arguments, or undefined when they are not a plain object with a usable query. */
export function parseSearchArgs(args: unknown): SearchArgs | undefined {
  if (args === null || typeof args !== "object" || Array.isArray(args)) return undefined;
  const raw = args as Record<string, unknown>;
  const query = raw.query;
  // Length first: a 100 KB "query" is not trimmed or copied, just refused.
  if (typeof query !== "string" || query.length > MAX_QUERY_CHARS) return undefined;
  const trimmed = query.trim();
  if (trimmed === "") return undefined;
  const parsed: SearchArgs = { query: trimmed };
  const collections = parseCollections(raw.collection);
  if (collections) parsed.collections = collections;
  const limit = raw.limit;
  if (typeof limit === "number" && Number.isFinite(limit) && limit >= 1) {
    parsed.limit = Math.min(MAX_LIMIT, Math.floor(limit));
  }
  if (typeof raw.brief === "boolean") parsed.brief = raw.brief;
  const minRelevance = raw.min_relevance ?? raw.minRelevance;
  if (
    typeof minRelevance === "number" &&
    Number.isFinite(minRelevance) &&
    minRelevance >= 0 &&
    minRelevance <= 1
  ) {
    parsed.minRelevance = minRelevance;
  }
  return parsed;
}

function parseCollections(value: unknown): string[] | undefined {
  const names: string[] = [];
  if (typeof value === "string") {
    const name = collectionName(value);
    if (name) names.push(name);
  } else if (Array.isArray(value)) {
    for (const entry of value.slice(0, MAX_COLLECTIONS)) {
      const name = collectionName(entry);
      if (name && !names.includes(name)) names.push(name);
    }
  }
  return names.length > 0 ? names : undefined;
}

function collectionName(value: unknown): string | undefined {
  if (typeof value !== "string" || value.length > MAX_COLLECTION_CHARS) return undefined;
  const name = value.trim();
  return name === "" ? undefined : name;
}
