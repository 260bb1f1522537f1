import { createRequire } from "node:module";
import type Snowball from "snowball-stemmers";
import { stemmer as porter } from "stemmer";
import { ENGLISH_STOPWORDS } from "./languages.js";
import type { AnalyzerDefinition, FilterDefinition, TokenizerDefinition } from "./text-analyzer.js";

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
  /**
   * The letters a word is cut to, when the analyzer stems by prefix (the case-rich languages,
   * languages.ts CASE_RICH_STEMS): a query word in a form no section holds is then searched by
   * the indexed form that shares its beginning (ranking-core/unseen-forms.ts).
   */
  readonly prefixStemLetters?: number;
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
/** Stemmed on first use: only an analyzer that reads Latin words as English asks (Porter on ~170 words). */
let englishStopwordStems: ReadonlySet<string> | undefined;
function isEnglishStopwordStem(term: string): boolean {
  englishStopwordStems ??= new Set([...englishStopwords].map((w) => porter(w)));
  return englishStopwordStems.has(term);
}

/** A word → word step of an analyzer (a fold or a stemmer), built from its filter definition. */
type Transform = (word: string) => string;

/**
 * An analyzer built from its definition (text-analyzer.ts): the tokenizer's words, then the
 * filters. Every supported language is one (languages.ts), and so is any analyzer a program
 * registers.
 */
export class ComposedAnalyzer implements Analyzer {
  readonly id: string;
  readonly language: string;
  readonly splitsCompounds: boolean;
  readonly prefixStemLetters?: number;
  private readonly tokenizer: TokenizerDefinition;
  private readonly stopwords: ReadonlySet<string>;
  /** Elided articles: dropped even where the stopwords are indexed. */
  private readonly elided: ReadonlySet<string>;
  private readonly indexesStopwords: boolean;
  private readonly latinAsEnglish: boolean;
  private readonly stopwordTerms: ReadonlySet<string>;
  /** The fold filter's, applied to a word before it is looked up among the stopwords. */
  private readonly fold: Transform;
  private readonly transforms: readonly Transform[];
  private readonly cache = new Map<string, string | null>();
  private readonly stopwordCache = new Map<string, string>();
  private readonly segmenter: Intl.Segmenter | undefined;

  constructor(readonly definition: AnalyzerDefinition) {
    this.id = definition.id;
    this.language = definition.language;
    this.tokenizer = definition.tokenizer;
    const { filters } = definition;
    this.splitsCompounds = filters.some((f) => f.kind === "decompound");
    const prefix = filters.find((f) => f.kind === "prefix");
    if (prefix) this.prefixStemLetters = prefix.letters;
    this.latinAsEnglish = filters.some((f) => f.kind === "latin-as-english");
    this.indexesStopwords = filters.some((f) => f.kind === "stopwords" && f.indexed === true);
    const normalise = (words: readonly string[]) => words.map((w) => w.normalize("NFKC").toLowerCase());
    this.elided = new Set(filters.flatMap((f) => (f.kind === "elisions" ? normalise(f.articles) : [])));
    this.stopwords = new Set([
      ...filters.flatMap((f) => (f.kind === "stopwords" ? normalise(f.words) : [])),
      ...this.elided,
    ]);
    const folding = filters.find((f) => f.kind === "fold");
    this.fold = folding ? folder(folding.keep) : (word) => word;
    this.transforms = filters.flatMap((f) => {
      const transform = transformOf(f);
      return transform ? [transform] : [];
    });
    this.stopwordTerms = new Set([...this.stopwords].map((w) => this.stemAndFold(w)));
    this.segmenter =
      this.tokenizer.kind === "segmenter"
        ? new Intl.Segmenter(this.tokenizer.locale ?? this.language, { granularity: "word" })
        : undefined;
  }

  isStopword(word: string): boolean {
    return this.stopwords.has(word) || (this.latinAsEnglish && englishStopwords.has(word));
  }

  isStopwordTerm(term: string): boolean {
    return this.stopwordTerms.has(term) || (this.latinAsEnglish && isEnglishStopwordStem(term));
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
    const all = this.indexesStopwords;
    this.forEachWord(text, (word) => {
      const term = this.cachedTerm(word) ?? (all && !this.elided.has(word) ? this.stopwordTerm(word) : null);
      if (term !== null) out.push(term);
    });
    return out;
  }

  /** A stopword's index term, for an analyzer that indexes them (a stopwords filter's `indexed`). */
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
    if (this.stopwords.has(this.fold(word))) return null;
    if (this.latinAsEnglish && LATIN_WORD.test(word)) {
      // An English word inside Japanese or Russian text: analysed as English.
      return englishStopwords.has(word) ? null : NON_ASCII.test(word) ? word : porter(word);
    }
    if (CJK_CHAR.test(word) || HANGUL_CHAR.test(word)) return word;
    return this.stemAndFold(word);
  }

  /**
   * The word-changing filters in their order: for most languages folded before stemming, so a
   * word typed without its accents ("activite", "елка") stems as the accented one does; for some
   * the stem is folded after (Spanish: LanguageProfile.stemBeforeFold).
   */
  private stemAndFold(word: string): string {
    let term = word;
    for (const transform of this.transforms) term = transform(term);
    return term;
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
    const normalised = this.tokenizer.localeLowerCase
      ? text.normalize("NFKC").toLocaleLowerCase(this.tokenizer.locale ?? this.language)
      : text.normalize("NFKC").toLowerCase();
    if (this.tokenizer.legacy) {
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
      else if (HANGUL_CHAR.test(run[0]!)) emitHangul(run, this.tokenizer.kind, emit);
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
      const over = this.tokenizer.bigramsOver;
      if (over === undefined || !CJK_CHAR.test(segment)) continue;
      const chars = [...segment];
      if (chars.length > over) for (let i = 0; i + 1 < chars.length; i++) emit(chars[i]! + chars[i + 1]!);
    }
  }
}

function emitHangul(run: string, segmentation: TokenizerDefinition["kind"], emit: (word: string) => void) {
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

/** Combining marks removed, but for the letters `keep` names (the language's own letters). */
function folder(keep: string | undefined): Transform {
  const own: ReadonlySet<string> = new Set(keep ?? "");
  return (word) => {
    if (!NON_ASCII.test(word)) return word;
    let out = "";
    for (const c of word) out += c < "\x80" || own.has(c) ? c : c.normalize("NFD").replace(/\p{M}/gu, "");
    return out;
  };
}

/** The word → word step a filter performs, or undefined for a filter that judges words instead. */
function transformOf(filter: FilterDefinition): Transform | undefined {
  switch (filter.kind) {
    case "fold":
      return folder(filter.keep);
    case "porter":
      return (word) => (ENGLISH_STEMMABLE.test(word) ? porter(word) : word);
    case "snowball": {
      const own = loadSnowball().newStemmer(filter.algorithm);
      return (word) => own.stem(word);
    }
    case "prefix": {
      const letters = filter.letters;
      // Letters, not UTF-16 units: a prefix never ends inside a surrogate pair.
      return (word) => (word.length <= letters ? word : Array.from(word).slice(0, letters).join(""));
    }
    default:
      return undefined;
  }
}
