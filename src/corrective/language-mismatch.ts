// The query's language against the searched documents' (src/weakness.ts isLanguageMismatch):
// a query written in another language than every collection it searched is weak whatever it
// scored, and the pass says so in a note unless a model re-searched in the documents' words.

import { joinNames } from "../knowledge-tool/collection-languages.js";
import type { Logger } from "../telemetry/logger.js";
import type { CollectionLanguage } from "../types.js";
import { isLanguageMismatch, type QueryLanguageGuess } from "../weakness.js";
import type { Reading } from "./shown-result.js";

/**
 * The documents' languages and a detector for the query's: a query written in another language
 * than every collection it searched is weak whatever it scored (src/weakness.ts).
 */
export interface CorrectiveLanguages {
  /** Each collection's document language; a collection not named here has none known. */
  collections: Readonly<Record<string, CollectionLanguage>>;
  /** The query's language as a detector reads it (undefined: no verdict). */
  guess: (query: string) => QueryLanguageGuess | undefined;
}

/** What the pass found about the original query's language. */
export interface LanguageMismatch {
  query: QueryLanguageGuess;
  /** The searched collections' languages, by name ("English"). */
  documentLanguage: string;
  /** Their supported tags. */
  documentTags: string[];
  collections: string[];
  reason: string;
}

/**
 * The original query's language against the searched collections' (undefined unless every one
 * of them has a known language and the query is clearly in none of them). A detector that
 * throws detects nothing.
 */
export function languageMismatch(
  query: string,
  collections: readonly string[],
  languages: CorrectiveLanguages | undefined,
  log: Logger,
): LanguageMismatch | undefined {
  const known = knownLanguages(collections, languages);
  if (!known || !languages) return undefined;
  const tags = [...new Set(known.flatMap((l) => l.tags))];
  let guess: QueryLanguageGuess | undefined;
  try {
    guess = languages.guess(query);
  } catch (error) {
    log.debug({ err: String(error) }, "corrective: query language unknown");
    return undefined;
  }
  if (!guess || !isLanguageMismatch(query, guess, tags)) return undefined;
  const documentLanguage = joinNames([...new Set(known.map((l) => l.name))]);
  return {
    query: guess,
    documentLanguage,
    documentTags: tags,
    collections: [...collections],
    reason: `the query is in ${guess.name}, but the documents searched are in ${documentLanguage}`,
  };
}

/** The searched collections' language by name, when every one of them has a known one. */
export function documentLanguageOf(
  collections: readonly string[],
  languages: CorrectiveLanguages | undefined,
): string | undefined {
  const known = knownLanguages(collections, languages);
  return known ? joinNames([...new Set(known.map((l) => l.name))]) : undefined;
}

/** Each searched collection's language, or undefined when any one of them has none known. */
function knownLanguages(
  collections: readonly string[],
  languages: CorrectiveLanguages | undefined,
): CollectionLanguage[] | undefined {
  if (!languages || collections.length === 0) return undefined;
  const known = collections.map((c) => languages.collections[c]);
  if (known.some((l) => l === undefined || l.tags.length === 0)) return undefined;
  return known as CollectionLanguage[];
}

/** The first reading of a search whose query is in another language: weak, and worth a model's look. */
export function mismatchedReading(reading: Reading, reason: string): Reading {
  return {
    signalGrade: { verdict: "insufficient", reason },
    hints: reading.hints,
    evidence: () => ({ ...reading.evidence(), weak: true, languageMismatch: true }),
  };
}
