// The knowledge tools' arguments: one zod shape per tool, the single source of truth for what
// the model is told (the JSON schema both connectors publish), for the strict validation a tool
// call of ours gets, and for the lenient reading of a search call we only observe (an external
// MCP server's `search_knowledge`, whose arguments were validated by someone else, if at all).
// Parameter names are Huginn's adapter's, so an agent prompted for Huginn works unchanged.
// `null` is accepted for "not set", as the adapter's Python signature allows and models often send.
import * as z from "zod";
import { closestKey } from "../edit-distance.js";
import { SEARCH_LIMITS } from "../limits.js";
import { clipText } from "../text-clip.js";
import type { SearchRequest } from "../types.js";

export { GET_DOCUMENT_TOOL, LIST_COLLECTIONS_TOOL, SEARCH_KNOWLEDGE_TOOL } from "../types.js";

/**
 * Some MCP clients send every argument as a string (the MCP Inspector release Node 20 gets does):
 * a decimal string is read as its number and "true"/"false" as the boolean, since neither can
 * mean anything else. Any other value goes to the schema unchanged, which judges it. The
 * published JSON schema is the number's or boolean's (zod describes a preprocess by its target).
 */
const DECIMAL = /^\s*-?(?:\d+(?:\.\d*)?|\.\d+)\s*$/;
function lenientNumber<T extends z.ZodType>(schema: T) {
  return z.preprocess(
    (value) => (typeof value === "string" && DECIMAL.test(value) ? Number(value) : value),
    schema,
  );
}
function lenientBoolean<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => {
    if (typeof value !== "string") return value;
    const word = value.trim().toLowerCase();
    return word === "true" ? true : word === "false" ? false : value;
  }, schema);
}

export const searchKnowledgeShape = {
  query: z
    .string()
    .min(1)
    .max(SEARCH_LIMITS.queryChars)
    .describe("What to search for, in the words the documents would use."),
  collection: z
    .string()
    .max(SEARCH_LIMITS.collectionNameChars)
    .nullish()
    .describe("Search only this collection (default: all collections of this knowledge base)."),
  limit: lenientNumber(z.number().int().min(1).max(SEARCH_LIMITS.maxHits))
    .nullish()
    .describe(`Maximum number of results (default ${SEARCH_LIMITS.defaultHits}).`),
  brief: lenientBoolean(z.boolean())
    .nullish()
    .describe(
      "true: titles and short snippets only (default false); use for an overview, then get_document.",
    ),
  min_relevance: lenientNumber(z.number().min(0).max(1))
    .nullish()
    .describe("Drop results whose relevance (0.0-1.0) is below this."),
  rerank: lenientBoolean(z.boolean())
    .nullish()
    .describe("Score the top candidates more carefully (default: unless brief)."),
};

export const getDocumentShape = {
  collection: z
    .string()
    .min(1)
    .max(SEARCH_LIMITS.collectionNameChars)
    .describe("The collection named on the result's doc-id line."),
  doc_id: z
    .string()
    .min(1)
    .max(SEARCH_LIMITS.docIdChars)
    .describe("The doc_id named on the result's doc-id line."),
};

/**
 * A tool's arguments as a strict object: a key the tool does not take (`collections`,
 * `minRelevance`) is refused, naming the closest valid key, instead of being silently dropped
 * (the model would believe its filter applied). This is what both connectors validate with.
 */
function strictArguments<Shape extends z.ZodRawShape>(shape: Shape) {
  const known = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys" ? unknownArgumentsMessage(issue.keys, known) : undefined,
  });
}

/**
 * The most members and elements (counted through every level) one call's arguments may hold: the
 * tools take at most six scalar arguments, so this is room for a client's extras, and a call with
 * 90,000 keys is refused after counting 65 of them, before any schema or message sees it.
 */
export const MAX_ARGUMENT_ELEMENTS = 64;
/** Unknown keys named one by one in the message; the rest are counted. */
export const NAMED_UNKNOWN_ARGUMENTS = 5;
/** Longer keys are cut in the message and get no suggestion (no valid key is near that long). */
const UNKNOWN_KEY_CHARS = 64;

/**
 * `unknown argument "collections" (did you mean "collection"?); this tool takes: query, …`.
 * Bounded whatever the caller sent: the first few keys are named (cut, JSON-quoted) and
 * suggested for, the others only counted, so 90,000 unknown keys cost no more than five.
 */
export function unknownArgumentsMessage(keys: readonly string[], known: readonly string[]): string {
  const named = keys.slice(0, NAMED_UNKNOWN_ARGUMENTS).map((key) => {
    const near = key.length <= UNKNOWN_KEY_CHARS ? closestKey(key, known) : undefined;
    const shown = JSON.stringify(clipText(key, UNKNOWN_KEY_CHARS));
    return near ? `${shown} (did you mean "${near}"?)` : shown;
  });
  const more = keys.length - named.length;
  if (more > 0) named.push(`and ${more} more`);
  return `unknown argument${keys.length === 1 ? "" : "s"} ${named.join(", ")}; this tool takes: ${known.join(", ")}`;
}

export const searchKnowledgeArguments = strictArguments(searchKnowledgeShape);
export const getDocumentArguments = strictArguments(getDocumentShape);

export type SearchKnowledgeArgs = z.infer<typeof searchKnowledgeArguments>;
export type GetDocumentArgs = z.infer<typeof getDocumentArguments>;

/** The model's validated arguments as the backend's request (absent and null mean "not set"). */
export function toSearchRequest(args: SearchKnowledgeArgs): SearchRequest {
  const request: SearchRequest = { query: args.query };
  if (args.collection) request.collections = [args.collection];
  if (args.limit != null) request.limit = args.limit;
  if (args.brief != null) request.brief = args.brief;
  if (args.min_relevance != null) request.minRelevance = args.min_relevance;
  if (args.rerank != null) request.rerank = args.rerank;
  return request;
}

/** An observed search call's arguments, as the corrective pass uses them. */
export interface SearchArgs {
  query: string;
  /** From `collection` (a string or an array of strings); absent means all the bot may search. */
  collections?: string[];
  limit?: number;
  brief?: boolean;
  minRelevance?: number;
}

/**
 * The lenient reading of search arguments we did not validate ourselves: each field is checked
 * against its own schema in `searchKnowledgeShape` and dropped when it does not fit, instead of
 * failing the whole call. Two readings go beyond the shape, both unambiguous: a `limit` above the
 * maximum means "as many as allowed", and `collection` may be a list (some servers take several).
 * Undefined when there is no usable query: garbage yields no correction, never an exception.
 */
export function parseSearchArgs(args: unknown): SearchArgs | undefined {
  if (args === null || typeof args !== "object" || Array.isArray(args)) return undefined;
  const raw = args as Record<string, unknown>;
  // Length first: a 100 KB "query" is not trimmed or copied, just refused.
  if (!searchKnowledgeShape.query.safeParse(raw.query).success) return undefined;
  const query = (raw.query as string).trim();
  if (query === "") return undefined;
  const parsed: SearchArgs = { query };
  const collections = readCollections(raw.collection);
  if (collections) parsed.collections = collections;
  const limit = field(
    searchKnowledgeShape.limit,
    typeof raw.limit === "number" && raw.limit > SEARCH_LIMITS.maxHits ? SEARCH_LIMITS.maxHits : raw.limit,
    Math.floor,
  );
  if (limit != null) parsed.limit = limit;
  const brief = field(searchKnowledgeShape.brief, raw.brief);
  if (brief != null) parsed.brief = brief;
  const minRelevance = field(searchKnowledgeShape.min_relevance, raw.min_relevance ?? raw.minRelevance);
  if (minRelevance != null) parsed.minRelevance = minRelevance;
  return parsed;
}

/** The value when it fits its schema (after `normalize`, for numbers), else undefined. */
function field<T>(schema: z.ZodType<T>, value: unknown, normalize?: (n: number) => number): T | undefined {
  const candidate =
    normalize && typeof value === "number" && Number.isFinite(value) ? normalize(value) : value;
  const result = schema.safeParse(candidate);
  return result.success ? result.data : undefined;
}

function readCollections(value: unknown): string[] | undefined {
  const entries = Array.isArray(value) ? value.slice(0, SEARCH_LIMITS.collectionsPerCall) : [value];
  const names: string[] = [];
  for (const entry of entries) {
    if (!searchKnowledgeShape.collection.safeParse(entry).success || typeof entry !== "string") continue;
    const name = entry.trim();
    if (name !== "" && !names.includes(name)) names.push(name);
  }
  return names.length > 0 ? names : undefined;
}
