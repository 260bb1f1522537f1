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

/** word → its index term, or null for a stopword: one lookup per token on the hot path. */
const termCache = new Map<string, string | null>();
const NON_ASCII = /[^\x00-\x7f]/;

function stem(word: string): string {
  return NEEDS_STEM.test(word) ? stemmer(word) : word;
}

function cachedTerm(word: string): string | null {
  let term = termCache.get(word);
  if (term === undefined) {
    term = STOPWORDS.has(word) ? null : stem(word);
    if (termCache.size >= STEM_CACHE_LIMIT) termCache.clear();
    termCache.set(word, term);
  }
  return term;
}

export function isStopword(word: string): boolean {
  return STOPWORDS.has(word);
}

/** Stems of stopwords ("gets" → "get"): inflections of filler words that slip past the list. */
const STOPWORD_STEMS: ReadonlySet<string> = new Set([...STOPWORDS].map((w) => stemmer(w)));

export function isStopwordStem(term: string): boolean {
  return STOPWORD_STEMS.has(term);
}

/**
 * Calls `emit` for each word of the text (lower case, NFKC). Plain ASCII text — most of any
 * corpus — is scanned by character code, which finds exactly the words the Unicode pattern
 * would (letters and digits are a–z, 0–9 there) several times faster; other text goes through
 * the pattern.
 */
function forEachWord(text: string, emit: (word: string) => void): void {
  if (NON_ASCII.test(text)) {
    const normalised = text.normalize("NFKC").toLowerCase();
    TOKEN.lastIndex = 0;
    for (let m = TOKEN.exec(normalised); m !== null; m = TOKEN.exec(normalised)) {
      if (m[0].length <= MAX_TOKEN_LENGTH) emit(m[0]);
    }
    return;
  }
  const lower = text.toLowerCase();
  let start = -1;
  for (let i = 0; i <= lower.length; i++) {
    const c = i < lower.length ? lower.charCodeAt(i) : 0;
    const isWordChar = (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
    if (isWordChar) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      if (i - start <= MAX_TOKEN_LENGTH) emit(lower.slice(start, i));
      start = -1;
    }
  }
}

/** Lower-cased surface words, stopwords included (for rules that work on the user's words). */
export function words(text: string): string[] {
  const out: string[] = [];
  forEachWord(text, (word) => out.push(word));
  return out;
}

/** Index terms in order of appearance (positions are the array indices). */
export function analyze(text: string): string[] {
  const out: string[] = [];
  forEachWord(text, (word) => {
    const term = cachedTerm(word);
    if (term !== null) out.push(term);
  });
  return out;
}

/** The stem of one already lower-cased word, or undefined for a stopword. */
export function termOf(word: string): string | undefined {
  return cachedTerm(word) ?? undefined;
}
