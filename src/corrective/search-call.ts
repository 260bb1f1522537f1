// One knowledge search as one typed value, from the tool call to the corrected text: its
// arguments (validated once, where the call entered: strictly by our own tools, leniently by
// `parseSearchArgs` for a call we only observe), the text the model receives, the structured
// response that text was rendered from when the search ran in-process, and the call's open
// `execute_tool` span. The corrective pass reads it as it is and never recovers one part from
// another; only a result we see as text alone (an external MCP server's) is read from its text.

import type { SearchArgs } from "../knowledge-tool/tool-arguments.js";
import type { OpenToolSpan } from "../telemetry/tool-span.js";
import type { SearchRequest, SearchResponse } from "../types.js";

export interface SearchCall {
  /** The call's arguments, as the corrective pass uses them. */
  args: SearchArgs;
  /** The text the model would receive (a trailing trace marker included, when there is one). */
  text: string;
  /** The structured response `text` was rendered from; absent for a result seen only as text. */
  response?: SearchResponse;
  /** The call's `execute_tool` span, open until the corrective pass on it ends. */
  toolSpan?: OpenToolSpan;
}

/**
 * The arguments of a search that ran in-process, read off the request our tool built from
 * arguments it had already validated: the same fields `parseSearchArgs` reads from a call we
 * only observe (the query and collection names trimmed), without validating them again.
 */
export function searchArgsOf(request: SearchRequest): SearchArgs {
  const args: SearchArgs = { query: request.query.trim() };
  const collections = [...new Set((request.collections ?? []).map((c) => c.trim()).filter((c) => c !== ""))];
  if (collections.length > 0) args.collections = collections;
  if (request.limit !== undefined) args.limit = request.limit;
  if (request.brief !== undefined) args.brief = request.brief;
  if (request.minRelevance !== undefined) args.minRelevance = request.minRelevance;
  return args;
}

/** Two calls with the same key asked for the same search (fields in one order, absent ones left out). */
export function searchArgsKey(args: SearchArgs): string {
  return JSON.stringify([args.query, args.collections ?? [], args.limit, args.brief, args.minRelevance]);
}
