// The signal's thresholds (docs/design.md §3). The bands are set on measured band precision:
// over every top-10 hit of the default search on every judged collection (`npm run bench --
// bands`, bench/results/bands.json), P(judged relevant) must be ordered high > medium > low.
// `high` keeps Huginn's 0.65 (the corrective pass's bar for "clearly found" too); `medium` starts
// at 0.20, not Huginn's 0.40: the calibration is flat above 0.4 on Cranfield's strict judgments,
// so a medium band of [0.40, 0.65) held the hits nearest the top and outscored high there
// (42.8 % against 39.5 %). A Huginn server's own `confidenceBand` is taken as it sends it.
// The weak threshold is not Huginn's 0.45 either: it is chosen by `npm run calibrate`
// (bench/calibrate.ts, `weakThreshold` in bench/results/calibration.json) as the highest whose
// false alarms stay ≤ 20 % on both documentation bots (pydocs, lohelp-en). The calibrated score
// of a found answer differs between them (median top-hit relevance of an answered question 0.62
// on pydocs, 0.39 on lohelp-en, where users' words differ from the help's), so 0.45 flagged 63 %
// of lohelp-en's answered questions. A Huginn server's weak footer still marks its text weak.
// Also the rule for a query written in another language than the documents it searches, which
// makes a search weak whatever it scored.
import type { Band, CollectionLanguage, QueryCoverage, SearchResponse } from "./types.js";

/** A hit at or above this calibrated relevance is `high`. */
export const HIGH_BAND_MIN = 0.65;
/** A hit at or above this calibrated relevance (and below {@link HIGH_BAND_MIN}) is `medium`. */
export const MEDIUM_BAND_MIN = 0.2;
/** A response whose best hit (before `minRelevance` filtering) is below this is weak. */
export const WEAK_BEST_SCORE = 0.25;

/** The confidence band of a calibrated 0..1 relevance. */
export function bandFor(relevance: number): Band {
  if (relevance >= HIGH_BAND_MIN) return "high";
  if (relevance >= MEDIUM_BAND_MIN) return "medium";
  return "low";
}

/**
 * Weak = nothing survived filtering, or the best hit before filtering is below
 * {@link WEAK_BEST_SCORE}, or the server sent retry hints: it sends them only on a response it
 * judged weak (a Huginn server by its own 0.45), and the footer rendered from them says so, so
 * the structured and the text reading agree. A `medium` band can coexist with a weak response
 * (relevance in [0.20, 0.25)), so "no hit is low" never means "not weak"; a `high` hit never can.
 */
export function isWeak(response: Pick<SearchResponse, "results" | "bestScore" | "retryHints">): boolean {
  return (
    response.results.length === 0 || response.bestScore < WEAK_BEST_SCORE || response.retryHints !== undefined
  );
}

/** A language detector's verdict on a query (tags are the analysis registry's supported tags). */
export interface QueryLanguageGuess {
  /** The most likely language. */
  tag: string;
  /** Its English name, for the reason the model reads. */
  name: string;
  /** The detector's own verdict on whether the text gave it enough to go on. */
  reliable: boolean;
  /** Every scored language's score (0..1, higher is likelier), the guess's among them. */
  scores: Readonly<Record<string, number>>;
}

/**
 * Letters a query needs before its language is judged at all: "PDF export" is no language's. A
 * Han, Kana or Hangul character counts as three letters (about one word's worth).
 */
export const MIN_LANGUAGE_LETTERS = 12;
/**
 * How far the guessed language must outscore every language of the searched documents. Chosen on
 * the lohelp questions in all 11 languages (bench/results/crosslang.md): each language's questions
 * against its own language are flagged 5 times in 880 (keyword queries around an English product
 * name, "smartart organigramme writer"), against English 69 to 80 of 80 per language; a margin
 * of 0.10 flags 10 of 880 in-language questions, 0.20 flags 3 but only 63 of the 80 French.
 */
export const LANGUAGE_MISMATCH_MARGIN = 0.15;
/** Languages written so alike that a detector on a short text cannot tell them apart. */
const CLOSE_LANGUAGES: readonly (readonly string[])[] = [["nb", "nn", "da"]];
/**
 * The scripts only some languages write: a query holding letters of the documents' own script is
 * (at least partly) in their language, however a detector reads its Latin words
 * ("SmartArt 組織図 writer" over Japanese pages).
 */
const OWN_SCRIPT: Readonly<Record<string, RegExp>> = {
  ja: /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u,
  zh: /\p{Script=Han}/u,
  ko: /\p{Script=Hangul}/u,
  ru: /\p{Script=Cyrillic}/u,
  uk: /\p{Script=Cyrillic}/u,
  ar: /\p{Script=Arabic}/u,
  th: /\p{Script=Thai}/u,
};

/** The tag of English, whose documents the vocabulary rule of mayBeInAnotherLanguage reads alone. */
const ENGLISH = "en";
/**
 * Function words of the documents' language (not English's) a query whose every word the
 * documents hold must have to be taken as in that language (QueryCoverage.ownFunctionWords).
 */
export const MIN_OWN_FUNCTION_WORDS = 2;

/** What a search knows of how the query's words met the documents (QueryCoverage), when it ran in-process. */
export type VocabularyEvidence = Partial<Pick<QueryCoverage, "unmatchedShare" | "ownFunctionWords">>;

const WIDE_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * Whether a query has letters enough to be told in another language (MIN_LANGUAGE_LETTERS): one
 * that has not is never a mismatch, whatever a detector says, so its detector need not be loaded.
 */
export function hasLanguageEvidence(query: string): boolean {
  return languageEvidence(query) >= MIN_LANGUAGE_LETTERS;
}

/** A query's letters, a Han, Kana or Hangul character counting as three. */
export function languageEvidence(query: string): number {
  let letters = 0;
  for (const char of query.slice(0, 2_000)) {
    if (!/\p{L}/u.test(char)) continue;
    letters += WIDE_SCRIPT.test(char) ? 3 : 1;
  }
  return letters;
}

/**
 * Whether `query` could be in another language than every one of `documentLanguages`, before any
 * detector reads it: not with too few letters (MIN_LANGUAGE_LETTERS), not when it holds a letter
 * of a document language's own script, and not when the documents hold every one of its words
 * (`coverage.unmatchedShare` 0, the search's QueryCoverage) and are English, or are in one other
 * language whose function words the query uses (MIN_OWN_FUNCTION_WORDS, not English's: every
 * other language's documentation holds English words — commands, product names, untranslated
 * pages — so its vocabulary alone says nothing). Over the lohelp and debian-handbook questions,
 * each language's against each language's documents (202 pairs): the English collections held
 * every word of none of the 1,347 questions in other languages that the detector calls foreign,
 * and of 120 of the 163 English ones; the Latin-script collections in other languages held every
 * word, with two function words of theirs, of none of the 9,042 it calls foreign there and of
 * 558 of their 1,058 own questions (held whole, without the function words: 705 of the 1,424
 * English questions it calls foreign). A query this rules out never loads the detector.
 */
export function mayBeInAnotherLanguage(
  query: string,
  documentLanguages: readonly string[],
  coverage?: VocabularyEvidence,
): boolean {
  if (documentLanguages.length === 0 || !hasLanguageEvidence(query)) return false;
  const sample = query.slice(0, 2_000);
  if (documentLanguages.some((language) => OWN_SCRIPT[language]?.test(sample))) return false;
  if (coverage?.unmatchedShare !== 0) return true;
  if (documentLanguages.every((language) => language === ENGLISH)) return false;
  return !(documentLanguages.length === 1 && (coverage.ownFunctionWords ?? 0) >= MIN_OWN_FUNCTION_WORDS);
}

/**
 * Whether `query` is written in another language than every one of `documentLanguages` (the
 * searched collections' languages): only when the detector trusts its guess, the query could be
 * ({@link mayBeInAnotherLanguage}: letters enough, none of the documents' own script, not every
 * word held by documents it otherwise reads as theirs), the guess is none of those languages (nor one a detector
 * confuses with them), and it outscores each of them by `margin` ({@link
 * LANGUAGE_MISMATCH_MARGIN}; the bench compares others). Unknown document languages (an empty
 * list) never mismatch.
 */
export function isLanguageMismatch(
  query: string,
  guess: QueryLanguageGuess | undefined,
  documentLanguages: readonly string[],
  options: { margin?: number; coverage?: VocabularyEvidence } = {},
): boolean {
  if (!guess?.reliable || !mayBeInAnotherLanguage(query, documentLanguages, options.coverage)) return false;
  const top = guess.scores[guess.tag] ?? 0;
  const margin = options.margin ?? LANGUAGE_MISMATCH_MARGIN;
  return documentLanguages.every(
    (language) => !sameLanguage(language, guess.tag) && top - (guess.scores[language] ?? 0) >= margin,
  );
}

/**
 * The languages of the searched collections, or undefined when any one of them has none known
 * (a search over such a collection is never called another language's).
 */
export function searchedLanguages(
  collections: readonly string[],
  languages: Readonly<Record<string, CollectionLanguage>> | undefined,
): CollectionLanguage[] | undefined {
  if (!languages || collections.length === 0) return undefined;
  const known = collections.map((c) => languages[c]);
  if (known.some((l) => l === undefined || l.tags.length === 0)) return undefined;
  return known as CollectionLanguage[];
}

/** The distinct language tags of the searched collections. */
export function languageTags(known: readonly CollectionLanguage[]): string[] {
  return [...new Set(known.flatMap((l) => l.tags))];
}

function sameLanguage(a: string, b: string): boolean {
  return a === b || CLOSE_LANGUAGES.some((group) => group.includes(a) && group.includes(b));
}
