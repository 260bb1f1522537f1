// What the knowledge tools return as MCP `structuredContent`, beside the text the model reads:
// one zod shape per tool, the single source of the published `outputSchema` and of the values
// the server builds (the SDK checks each reply against it). A client that renders results, or an
// agent that filters them, reads these fields instead of parsing the text.
import * as z from "zod";
import type { CorrectiveMetadata, Hit } from "../types.js";
import { escapeControlCharacters, toSingleLine } from "./untrusted-text.js";

const hitShape = z.object({
  collection: z.string(),
  doc_id: z.string().describe("For get_document."),
  title: z.string(),
  url: z.string().nullable().describe("The document's address, when its source has one."),
  relevance: z.number().min(0).max(1),
});

export const searchKnowledgeOutputShape = {
  query: z.string(),
  collections: z
    .array(z.string())
    .describe("The collections searched, by the search and by any corrective re-search."),
  hits: z
    .array(hitShape)
    .describe("The search's own hits, best first (those a corrective re-search added: corrective.added)."),
  corrective: z
    .object({
      changed: z.boolean().describe("Whether a re-search changed the result the text shows."),
      queriesTried: z.array(z.string()).describe("The queries the re-searches used."),
      addedHits: z.number().int().min(0),
      added: z.array(hitShape).describe("The hits a re-search appended to the text, in the order shown."),
    })
    .nullable()
    .describe("What the corrective pass did; null when it did not run or had nothing to say."),
};

export const listCollectionsOutputShape = {
  collections: z.array(
    z.object({
      name: z.string(),
      documents: z.number().int().nullable(),
      language: z.string().nullable().describe("The documents' language, where known."),
    }),
  ),
};

// Built once: a server made per HTTP request would otherwise rebuild them from the shapes.
export const searchKnowledgeOutputSchema = z.object(searchKnowledgeOutputShape);
export const listCollectionsOutputSchema = z.object(listCollectionsOutputShape);

export type SearchKnowledgeOutput = z.infer<typeof searchKnowledgeOutputSchema>;
export type ListCollectionsOutput = z.infer<typeof listCollectionsOutputSchema>;

/**
 * The structured twin of a search's text, escaped as the text is (untrusted-text.ts): titles,
 * URLs and queries kept to one line, ids and collections as the doc-id line shows them (the id a
 * client copies into `get_document` opens the document), so no field carries a bidirectional
 * override, a control or an invisible character from a document raw.
 */
export function searchKnowledgeOutput(
  query: string,
  collections: readonly string[],
  hits: readonly Hit[],
  corrective:
    | (Pick<CorrectiveMetadata, "queriesTried" | "newHits"> & { changed: boolean; added?: readonly Hit[] })
    | null,
): SearchKnowledgeOutput {
  return {
    query: toSingleLine(query),
    collections: collections.map(escapeControlCharacters),
    hits: hits.map(hitOutput),
    corrective: corrective
      ? {
          changed: corrective.changed,
          queriesTried: corrective.queriesTried.map(toSingleLine),
          addedHits: corrective.newHits.reduce((sum, n) => sum + n, 0),
          added: (corrective.added ?? []).map(hitOutput),
        }
      : null,
  };
}

/** A hit as a client reads it: its document's names escaped (untrusted-text.ts). */
function hitOutput(hit: Hit): SearchKnowledgeOutput["hits"][number] {
  return {
    collection: escapeControlCharacters(hit.collection),
    doc_id: escapeControlCharacters(hit.id),
    title: toSingleLine(hit.title),
    url: hit.url === undefined ? null : toSingleLine(hit.url),
    relevance: Math.min(1, Math.max(0, hit.relevance)),
  };
}
