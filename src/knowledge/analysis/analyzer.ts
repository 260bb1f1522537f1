import { createRequire } from "node:module";
import type Snowball from "snowball-stemmers";
import { stemmer as porter } from "stemmer";
import { ENGLISH_STOPWORDS, type LanguageProfile } from "./languages.js";

/**
 * Text → index terms for one language. Documents and queries of a collection go through the
 * same analyzer, so a term matches exactly when its analysed form does. An analyzer is a value:
 * the registry (registry.ts) hands out one per language, and each collection names its own.
 */
export interface Analyzer {
  /** `<tag>-<version>`: stored with every index; another id means re-indexing, never misreading. */
  readonly id: string;
  /** BCP-47 primary language subtag ("nb", "ja"). */
  readonly language: string;
  /** Whether the language writes compounds as one word (German, Dutch, Nordic): see compounds.ts. */
  readonly splitsCompounds: boolean;
  /** Index terms in order of appearance (positions are the array indices). */
  analyze(text: string): string[];
  /**
   * Lower-cased surface words, stopwords included (for rules that work on the user's words).
   * `spacedOnly`: only words of scripts written with spaces — no segmenting of Han, Kana, Hangul
   * or Thai, for callers that look for such words only (the segmenter is the costly part).
   */
  words(text: string, options?: { spacedOnly?: boolean }): string[];
  /** The index term of one word `words` returned, or undefined for a stopword. */
  termOf(word: string): string | undefined;
  isStopword(word: string): boolean;
  /** Whether an index term is the stem of a stopword ("gets" → "get"): filler that slipped past the list. */
  isStopwordTerm(term: string): boolean;
}

const UNSPACED_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;

/**
 * Whether a term is of a script written without spaces (Han, Kana, Hangul, Thai): such a term is
 * found in text as written, and is its own surface form — no segmenting needed to spot it.
 */
export function isUnspacedScript(term: string): boolean {
  return UNSPACED_SCRIPT.test(term);
}

/** Longer runs are not words (hashes, base64): indexing them only bloats the vocabulary. */
const MAX_TOKEN_LENGTH = 40;
/** Memoised word → term pairs per analyzer; cleared when full, so memory stays bounded. */
const TERM_CACHE_LIMIT = 200_000;

const NON_ASCII = /[^\x00-\x7f]/;
/** English as it always was: Porter stems for plain a–z words only. */
const ENGLISH_STEMMABLE = /^[a-z]+$/;
const LATIN_WORD = /^[\p{Script=Latin}\p{M}\p{N}]+$/u;
/** Scripts written without spaces between words. */
const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const HANGUL_CHAR = /\p{Script=Hangul}/u;
const THAI_CHAR = /\p{Script=Thai}/u;
/**
 * A word: a run of letters, marks and digits of one kind — Han, Kana (with the long-vowel mark
 * "ー", which Unicode files under Common), Hangul, Thai, or any other script — so that
 * "PDFで公開" is "pdf" then "で公開", never one token.
 */
const TOKEN =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30fc\u3005]+|\p{Script=Hangul}+|\p{Script=Thai}+|(?:(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30fc\u3005\p{Script=Hangul}\p{Script=Thai}])[\p{L}\p{M}\p{N}])+/gu;

/** The one token pattern of the English-only engine (see LanguageProfile.legacyTokens). */
const LEGACY_TOKEN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{M}\p{N}]+/gu;

const englishStopwords: ReadonlySet<string> = new Set(ENGLISH_STOPWORDS);
const englishStopwordStems: ReadonlySet<string> = new Set([...englishStopwords].map((w) => porter(w)));

/** One language's analyzer, built from its profile (languages.ts). */
export class LanguageAnalyzer implements Analyzer {
  readonly id: string;
  readonly language: string;
  readonly splitsCompounds: boolean;
  private readonly stopwords: ReadonlySet<string>;
  private readonly stopwordTerms: ReadonlySet<string>;
  private readonly stem: (word: string) => string;
  private readonly keep: ReadonlySet<string>;
  private readonly cache = new Map<string, string | null>();
  private readonly stopwordCache = new Map<string, string>();
  private readonly segmenter: Intl.Segmenter | undefined;

  constructor(readonly profile: LanguageProfile) {
    this.id = `${profile.tag}-${profile.version}`;
    this.language = profile.tag;
    this.splitsCompounds = profile.compounds === true;
    this.keep = new Set(profile.keepLetters ?? "");
    this.stopwords = new Set(profile.stopwords.map((w) => w.normalize("NFKC").toLowerCase()));
    if (profile.tag === "en") {
      this.stem = (word) => (ENGLISH_STEMMABLE.test(word) ? porter(word) : word);
    } else if (profile.stemmer) {
      const own = loadSnowball().newStemmer(profile.stemmer);
      this.stem = (word) => own.stem(word);
    } else if (profile.prefixStem) {
      const letters = profile.prefixStem;
      // Letters, not UTF-16 units: a prefix never ends inside a surrogate pair.
      this.stem = (word) => (word.length <= letters ? word : Array.from(word).slice(0, letters).join(""));
    } else {
      this.stem = (word) => word;
    }
    this.stopwordTerms = new Set([...this.stopwords].map((w) => this.stemAndFold(w)));
    this.segmenter =
      profile.segmentation === "segmenter"
        ? new Intl.Segmenter(profile.tag, { granularity: "word" })
        : undefined;
  }

  isStopword(word: string): boolean {
    return this.stopwords.has(word) || (this.profile.latinAsEnglish === true && englishStopwords.has(word));
  }

  isStopwordTerm(term: string): boolean {
    return (
      this.stopwordTerms.has(term) || (this.profile.latinAsEnglish === true && englishStopwordStems.has(term))
    );
  }

  termOf(word: string): string | undefined {
    return this.cachedTerm(word) ?? undefined;
  }

  words(text: string, options: { spacedOnly?: boolean } = {}): string[] {
    const out: string[] = [];
    this.forEachWord(text, (word) => out.push(word), options.spacedOnly === true);
    return out;
  }

  analyze(text: string): string[] {
    const out: string[] = [];
    const all = this.profile.indexesStopwords === true;
    this.forEachWord(text, (word) => {
      const term = this.cachedTerm(word) ?? (all ? this.stopwordTerm(word) : null);
      if (term !== null) out.push(term);
    });
    return out;
  }

  /** A stopword's index term, for a language that indexes them (LanguageProfile.indexesStopwords). */
  private stopwordTerm(word: string): string {
    let term = this.stopwordCache.get(word);
    if (term === undefined) {
      term = this.stemAndFold(word);
      // Bounded: the list is finite, and only its words (as written) reach here.
      if (this.stopwordCache.size < TERM_CACHE_LIMIT) this.stopwordCache.set(word, term);
    }
    return term;
  }

  private cachedTerm(word: string): string | null {
    let term = this.cache.get(word);
    if (term === undefined) {
      term = this.computeTerm(word);
      if (this.cache.size >= TERM_CACHE_LIMIT) this.cache.clear();
      this.cache.set(word, term);
    }
    return term;
  }

  private computeTerm(word: string): string | null {
    if (this.stopwords.has(word)) return null;
    const folded = this.fold(word);
    if (this.stopwords.has(folded)) return null;
    if (this.profile.latinAsEnglish && LATIN_WORD.test(word)) {
      // An English word inside Japanese or Russian text: analysed as English.
      return englishStopwords.has(word) ? null : NON_ASCII.test(word) ? word : porter(word);
    }
    if (CJK_CHAR.test(word) || HANGUL_CHAR.test(word)) return word;
    return this.profile.stemBeforeFold ? this.fold(this.stem(word)) : this.stem(folded);
  }

  /**
   * A word's stem, folded. Folded before stemming unless the profile says otherwise
   * (LanguageProfile.stemBeforeFold), so a word typed without its accents ("activite", "елка")
   * stems as the accented one does; the stemmer then works on the folded form.
   */
  private stemAndFold(word: string): string {
    return this.profile.stemBeforeFold ? this.fold(this.stem(word)) : this.stem(this.fold(word));
  }

  /** Combining marks removed, but for the letters the language counts as its own. */
  private fold(stem: string): string {
    if (!this.profile.fold || !NON_ASCII.test(stem)) return stem;
    let out = "";
    for (const c of stem) {
      out += c < "\x80" || this.keep.has(c) ? c : c.normalize("NFD").replace(/\p{M}/gu, "");
    }
    return out;
  }

  /**
   * Calls `emit` for each word of the text (lower case, NFKC). Plain ASCII text — most of any
   * corpus, and all of an English one — is scanned by character code, which finds exactly the
   * words the Unicode pattern would, several times faster; other text goes through the pattern.
   */
  private forEachWord(text: string, emit: (word: string) => void, spacedOnly = false): void {
    if (!NON_ASCII.test(text)) {
      scanAscii(text.toLowerCase(), emit);
      return;
    }
    const normalised = this.profile.localeLowerCase
      ? text.normalize("NFKC").toLocaleLowerCase(this.profile.tag)
      : text.normalize("NFKC").toLowerCase();
    if (this.profile.legacyTokens) {
      LEGACY_TOKEN.lastIndex = 0;
      for (let m = LEGACY_TOKEN.exec(normalised); m !== null; m = LEGACY_TOKEN.exec(normalised)) {
        if (m[0].length <= MAX_TOKEN_LENGTH) emit(m[0]);
      }
      return;
    }
    TOKEN.lastIndex = 0;
    for (let m = TOKEN.exec(normalised); m !== null; m = TOKEN.exec(normalised)) {
      const run = m[0];
      if (spacedOnly && isUnspacedScript(run)) continue;
      if (CJK_CHAR.test(run[0]!) || run[0] === "ー" || run[0] === "々") this.emitCjk(run, emit);
      else if (HANGUL_CHAR.test(run[0]!)) emitHangul(run, this.profile.segmentation, emit);
      else if (this.segmenter && THAI_CHAR.test(run[0]!)) this.emitSegmented(run, emit);
      else if (run.length <= MAX_TOKEN_LENGTH) emit(run);
    }
  }

  private emitCjk(run: string, emit: (word: string) => void): void {
    if (!this.segmenter) {
      // Not a CJK language: each character on its own, so such text is still searchable.
      for (const c of run) emit(c);
      return;
    }
    this.emitSegmented(run, emit);
  }

  private emitSegmented(run: string, emit: (word: string) => void): void {
    for (const { segment, isWordLike } of this.segmenter!.segment(run)) {
      if (!isWordLike) continue;
      emit(segment);
      // Bigrams of Han and Kana words only: a Thai character may be a combining vowel or tone mark.
      const over = this.profile.bigramsOver;
      if (over === undefined || !CJK_CHAR.test(segment)) continue;
      const chars = [...segment];
      if (chars.length > over) for (let i = 0; i + 1 < chars.length; i++) emit(chars[i]! + chars[i + 1]!);
    }
  }
}

function emitHangul(
  run: string,
  segmentation: LanguageProfile["segmentation"],
  emit: (word: string) => void,
) {
  const chars = [...run];
  if (segmentation !== "hangul-bigrams" || chars.length < 2) {
    if (run.length <= MAX_TOKEN_LENGTH) emit(run);
    return;
  }
  for (let i = 0; i + 1 < chars.length; i++) emit(chars[i]! + chars[i + 1]!);
}

function scanAscii(lower: string, emit: (word: string) => void): void {
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

/**
 * The Snowball stemmers, loaded when the first non-English analyzer is built: `import
 * "second-look"` (which validates config.json's language tags through this module's registry)
 * does not pay for them. A CommonJS package, so loaded synchronously.
 */
function loadSnowball(): typeof Snowball {
  return createRequire(import.meta.url)("snowball-stemmers") as typeof Snowball;
}
