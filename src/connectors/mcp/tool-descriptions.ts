// What an MCP client's model reads about the tools. The search description is assembled as
// Huginn's adapter assembles it (docs/reference/huginn-search-contract.md §4): a first line, "This knowledge base
// contains: <description>" from the bot's description, then the brief/get_document/citing
// guidance, so a model prompted for Huginn's server behaves the same here. The guidance is
// worded for an MCP client (JSON arguments, not the adapter's Python `brief=True`), and asks
// for a URL only where a result shows one: embedded documents often have none. It adds the
// collection names, each with its documents' language and the advice to search in it, and one
// line on the corrective note a model will see in some results.
import {
  anyLanguageKnown,
  collectionsWithLanguages,
  SEARCH_IN_DOCUMENT_LANGUAGE,
} from "../../knowledge-tool/language-names.js";
import { clipText } from "../../text-clip.js";
import type { CollectionLanguage } from "../../types.js";

/** A bot description longer than this is cut: it is repeated in every tool listing. */
const MAX_DESCRIPTION_CHARS = 2_000;

export interface DescribedKnowledge {
  /** The bot's `description`. */
  description?: string;
  collections: readonly string[];
  /** Each collection's document language, where known. */
  languages?: Readonly<Record<string, CollectionLanguage>>;
  /** Whether weak results are re-searched (the bot's corrective setting when the server starts). */
  corrective: boolean;
}

export function searchDescription(knowledge: DescribedKnowledge): string {
  const parts = ["Search indexed document collections."];
  const description = cleanDescription(knowledge.description);
  if (description) parts.push(`\nThis knowledge base contains: ${description}`);
  parts.push(
    '\n\nSet "brief": true for an initial overview (titles and short snippets).' +
      "\nThen call get_document with a result's collection and doc_id to read it in full." +
      "\n\nEach result names its collection and doc_id on its doc-id line." +
      "\nWhen citing, name the document's title; include its URL when the result shows one.",
  );
  if (knowledge.collections.length > 0) {
    parts.push(`\n\nCollections: ${collectionsWithLanguages(knowledge.collections, knowledge.languages)}.`);
  }
  if (anyLanguageKnown(knowledge.collections, knowledge.languages))
    parts.push(`\n${SEARCH_IN_DOCUMENT_LANGUAGE}`);
  if (knowledge.corrective) {
    parts.push(
      "\nWeak results are re-searched automatically; results a re-search added follow a " +
        '"[corrective retrieval — …]" note that says what was searched.',
    );
  }
  return parts.join("");
}

export function getDocumentDescription(): string {
  return (
    "Fetch full document content by collection and document ID.\n\n" +
    "Use this after a brief search to get full content for a specific result.\n" +
    "The collection and doc_id are shown on each search result's doc-id line."
  );
}

export function listCollectionsDescription(): string {
  return "List the document collections this knowledge base searches, with their stats.";
}

/** The server's instructions (Huginn's adapter passes its description the same way). */
export function serverInstructions(description: string | undefined): string | undefined {
  return cleanDescription(description);
}

function cleanDescription(description: string | undefined): string | undefined {
  const text = description?.trim();
  if (!text) return undefined;
  return clipText(text, MAX_DESCRIPTION_CHARS);
}
