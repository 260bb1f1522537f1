import type { CollectionLanguage } from "../types.js";

// How the model is told each collection's language: in the search tool's description (Copilot
// SDK and MCP), the collection listing and the corrective pass's language note. One wording
// for all of them, so a model reads the same names wherever it meets them.
/**
 * Advice in every search tool description of a bot whose collections' languages are known: the
 * index matches words, so a question in another language finds nothing until it is searched in
 * the documents' words.
 */
export const SEARCH_IN_DOCUMENT_LANGUAGE =
  "Search each collection with words in its language (shown in brackets), even when the user writes in another language; answer in the user's language.";

/** `docs (English)`; the bare name when the language is unknown. */
export function collectionWithLanguage(name: string, language: CollectionLanguage | undefined): string {
  return language && language.name !== "" ? `${name} (${language.name})` : name;
}

/** `docs (English), notes (German)`. */
export function collectionsWithLanguages(
  names: readonly string[],
  languages: Readonly<Record<string, CollectionLanguage>> | undefined,
): string {
  return names.map((name) => collectionWithLanguage(name, languages?.[name])).join(", ");
}

/** Whether any of `names` has a known document language (the advice is then worth giving). */
export function anyLanguageKnown(
  names: readonly string[],
  languages: Readonly<Record<string, CollectionLanguage>> | undefined,
): boolean {
  return names.some((name) => (languages?.[name]?.tags.length ?? 0) > 0);
}

/** Names joined for a sentence: "English", "German and English", "German, French and English". */
export function joinNames(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? "";
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]!}`;
}
