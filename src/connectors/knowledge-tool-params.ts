// The knowledge tools' parameters, named and typed as Huginn's adapter names them (reference
// huginn §4), so an agent prompted for Huginn's `search_knowledge` works unchanged. One
// definition for every connector (the Copilot SDK tools and the MCP server). `null` is accepted
// for "not set", as the adapter's Python signature allows and models often send.
import * as z from "zod";
import { SEARCH_KNOWLEDGE_TOOL } from "../telemetry/span-names.js";
import type { SearchRequest } from "../types.js";

export { SEARCH_KNOWLEDGE_TOOL };
export const GET_DOCUMENT_TOOL = "get_document";
export const LIST_COLLECTIONS_TOOL = "list_collections";

export const searchKnowledgeShape = {
  query: z.string().min(1).max(4_000).describe("What to search for, in the words the documents would use."),
  collection: z
    .string()
    .max(256)
    .nullish()
    .describe("Search only this collection (default: all collections of this knowledge base)."),
  limit: z.number().int().min(1).max(100).nullish().describe("Maximum number of results (default 10)."),
  brief: z
    .boolean()
    .nullish()
    .describe(
      "Titles, URLs and short snippets only (default false); use for an overview, then get_document.",
    ),
  min_relevance: z
    .number()
    .min(0)
    .max(1)
    .nullish()
    .describe("Drop results whose relevance (0.0-1.0) is below this."),
  rerank: z.boolean().nullish().describe("Score the top candidates more carefully (default: unless brief)."),
};

export const getDocumentShape = {
  collection: z.string().min(1).max(256).describe("The collection named on the result's doc-id line."),
  doc_id: z.string().min(1).max(1_000).describe("The doc_id named on the result's doc-id line."),
};

export type SearchKnowledgeArgs = z.infer<z.ZodObject<typeof searchKnowledgeShape>>;
export type GetDocumentArgs = z.infer<z.ZodObject<typeof getDocumentShape>>;

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
