// Each collection's document language, as the model and the corrective pass are told it. The
// bot's config names it (`knowledge.collections.<name>.language`; absent: the language indexing
// detected and analysed the documents in, English until the index tells); for "auto", the embedded index (or the PostgreSQL database) knows which
// languages its documents were analysed in. A Huginn server's collections have no language here (its own analysis decides).

import { backendEntry } from "../backends/registry.js";
import type { BotConfig } from "../bots/config-schema.js";
import { queryLanguageTags } from "../knowledge/analysis/collection-analysis.js";
import {
  AUTO_LANGUAGE,
  DEFAULT_LANGUAGE,
  languageOf,
  languageOfAnalyzer,
} from "../knowledge/analysis/registry.js";
import { joinNames } from "../knowledge-tool/language-names.js";
import type { CollectionLanguage, KnowledgeBackend } from "../types.js";

/** What an "auto" collection says of itself before its index can tell. */
export const DETECTED_PER_DOCUMENT = "language detected per document";

/** Collection → its documents' language, for every collection of the bot whose language is known. */
export function collectionLanguages(
  config: Pick<BotConfig, "knowledge">,
  backend?: KnowledgeBackend,
): Record<string, CollectionLanguage> {
  const languages: Record<string, CollectionLanguage> = {};
  // A server that analyses its own collections (Huginn) decides their language itself.
  if (backendEntry(config.knowledge.backend).remoteServer) return languages;
  for (const [name, collection] of Object.entries(config.knowledge.collections)) {
    const setting = collection.language ?? DEFAULT_LANGUAGE;
    if (setting === AUTO_LANGUAGE) {
      languages[name] = detectedLanguages(backend, name);
      continue;
    }
    if (collection.language === undefined) {
      // No setting: the language indexing detected and analysed the documents in, once known.
      const detected = detectedLanguages(backend, name);
      if (detected.tags.length > 0) {
        languages[name] = detected;
        continue;
      }
    }
    // A registered analyzer's name ("fr-legal") reads as the language its text is in.
    const profile = languageOf(languageOfAnalyzer(setting) ?? setting);
    if (profile) languages[name] = { tags: [profile.tag], name: profile.name };
  }
  return languages;
}

/**
 * An "auto" collection's languages as its index counted them, each holding at least the share
 * that makes the index analyse queries in it, most documents first.
 */
export function detectedLanguages(backend: KnowledgeBackend | undefined, name: string): CollectionLanguage {
  const counts = backend?.documentLanguages?.(name);
  if (!counts || counts.size === 0) return { tags: [], name: DETECTED_PER_DOCUMENT };
  const profiles = queryLanguageTags(counts)
    .map((tag) => languageOf(tag))
    .filter((p) => p !== undefined);
  if (profiles.length === 0) return { tags: [], name: DETECTED_PER_DOCUMENT };
  return { tags: profiles.map((p) => p.tag), name: joinNames(profiles.map((p) => p.name)) };
}
