import { stemmer } from "stemmer";
import { eng } from "stopword";

/**
 * Text → index terms: Unicode NFKC, lower case, letter/number runs (any script), English
 * stopwords dropped, Porter stems. Queries and documents go through the same function, so a
 * term matches exactly when its stem does.
 *
 * The token pattern is a Unicode property regex (V8's ICU tables) rather than Intl.Segmenter:
 * it is an order of magnitude faster at indexing time, and for space-delimited scripts it
 * finds the same words. Han/Hiragana/Katakana characters become one token each (unigrams), so
 * text without spaces is still searchable.
 */
export const ANALYZER_VERSION = "en-porter-1";

const STOPWORDS: ReadonlySet<string> = new Set([...eng, "s", "t", "d", "ll", "re", "ve", "m"]);
const TOKEN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{M}\p{N}]+/gu;
const NEEDS_STEM = /^[a-z]+$/;
/** Longer runs are not words (hashes, base64): indexing them only bloats the vocabulary. */
const MAX_TOKEN_LENGTH = 40;
const STEM_CACHE_LIMIT = 200_000;

const stemCache = new Map<string, string>();

function stem(word: string): string {
  let cached = stemCache.get(word);
  if (cached === undefined) {
    cached = NEEDS_STEM.test(word) ? stemmer(word) : word;
    if (stemCache.size >= STEM_CACHE_LIMIT) stemCache.clear();
    stemCache.set(word, cached);
  }
  return cached;
}

export function isStopword(word: string): boolean {
  return STOPWORDS.has(word);
}

/** Stems of stopwords ("gets" → "get"): inflections of filler words that slip past the list. */
const STOPWORD_STEMS: ReadonlySet<string> = new Set([...STOPWORDS].map((w) => stemmer(w)));

export function isStopwordStem(term: string): boolean {
  return STOPWORD_STEMS.has(term);
}

/** Lower-cased surface words, stopwords included (for rules that work on the user's words). */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const match of text.normalize("NFKC").toLowerCase().matchAll(TOKEN)) {
    const word = match[0];
    if (word.length <= MAX_TOKEN_LENGTH) out.push(word);
  }
  return out;
}

/** Index terms in order of appearance (positions are the array indices). */
export function analyze(text: string): string[] {
  const out: string[] = [];
  for (const match of text.normalize("NFKC").toLowerCase().matchAll(TOKEN)) {
    const word = match[0];
    if (word.length > MAX_TOKEN_LENGTH || STOPWORDS.has(word)) continue;
    out.push(stem(word));
  }
  return out;
}

/** The stem of one already lower-cased word, or undefined for a stopword. */
export function termOf(word: string): string | undefined {
  return STOPWORDS.has(word) ? undefined : stem(word);
}
