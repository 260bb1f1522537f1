// One knowledge search as one typed value, from the tool call to the text the model reads: its
// arguments (validated once, where the call entered: strictly by our own tools, leniently by
// `parseSearchArgs` for a call we only observe), the caller's scope, the text the model
// receives, the structured response that text was rendered from when the search ran
// in-process, the call's open `execute_tool` span, and — once the corrective pass ran — its
// correction. The pass reads it as it is and never recovers one part from another; only a
// result we see as text alone (an external MCP server's) is read from its text.

import type { SearchArgs } from "../knowledge-tool/tool-arguments.js";
import type { OpenToolSpan } from "../telemetry/tool-span.js";
import type { CorrectiveOutcome, SearchRequest, SearchResponse } from "../types.js";

export interface SearchCall {
  /** The call's arguments, as the corrective pass uses them. */
  args: SearchArgs;
  /**
   * The collections the caller may search (an HTTP token's allow-list, else the bot's list),
   * within the bot's: the grader is told only these, and no re-query searches or appends
   * anything outside them. It travels with the call, so no step can lose or widen it.
   */
  scope: readonly string[];
  /** The text the model would receive (a trailing trace marker included, when there is one). */
  text: string;
  /** The structured response `text` was rendered from; absent for a result seen only as text. */
  response?: SearchResponse;
  /** The call's `execute_tool` span, open until the corrective pass on it ends. */
  toolSpan?: OpenToolSpan;
  /** What the corrective pass made of `text`, when it had something to say. */
  correction?: CorrectiveOutcome;
}

/** The text the model reads: the pass's (the original, byte for byte, when it changed nothing), else the search's. */
export function modelText(call: SearchCall): string {
  return call.correction?.text ?? call.text;
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
