// The MCP tools' parameters, named and typed as Huginn's adapter names them (reference huginn
// §4), so an agent prompted for Huginn's `search_knowledge` works unchanged. `null` is accepted
// for "not set", as the adapter's Python signature allows and models often send.
import * as z from "zod";

export const SEARCH_KNOWLEDGE_TOOL = "search_knowledge";
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
