/**
 * An analyzer composed of a tokenizer and filters, as data (after Tantivy's
 * `TextAnalyzer::builder(tokenizer).filter(…)`): every supported language is one such
 * definition (languages.ts), registered under its tag (registry.ts `registerAnalyzer`), and a
 * program may register its own under a name of its choosing. Definitions are plain values, so
 * the parser threads that analyse documents while indexing receive them with each file and
 * build the same analyzer there.
 *
 *   const legal = TextAnalyzer.builder(wordTokenizer())
 *     .filter(elisions(["l", "d"]))
 *     .filter(stopwords(["le", "la", "les"]))
 *     .filter(asciiFolding())
 *     .filter(snowball("french"))
 *     .build({ id: "fr_legal-1", language: "fr" });
 *   registerAnalyzer("fr_legal", legal); // "language": "fr_legal" in a collection's config
 */

/** The Snowball algorithms `snowball-stemmers` ships. */
export type SnowballAlgorithm =
  | "arabic"
  | "catalan"
  | "czech"
  | "danish"
  | "dutch"
  | "english"
  | "finnish"
  | "french"
  | "german"
  | "hungarian"
  | "italian"
  | "norwegian"
  | "portuguese"
  | "romanian"
  | "russian"
  | "spanish"
  | "swedish"
  | "turkish";

/**
 * How words are found in text (after NFKC normalisation and lower-casing):
 * - `words`: letter/digit runs, each script's run its own word;
 * - `segmenter`: `Intl.Segmenter`'s dictionary words (in `locale`) for runs of Han, Kana or Thai,
 *   and with `bigramsOver`, Han/Kana words longer than that also as overlapping character bigrams;
 * - `hangul-bigrams`: Hangul runs as overlapping character bigrams.
 * `legacy`: the English-only engine's tokens (a Han or Kana character alone, or a letter run
 * that may swallow Han and Kana after a Latin letter), kept so its indexes stay valid.
 * `localeLowerCase`: lower-cased with `locale`'s rules (Turkish dotted and dotless i).
 */
export interface TokenizerDefinition {
  kind: "words" | "segmenter" | "hangul-bigrams";
  locale?: string;
  bigramsOver?: number;
  legacy?: boolean;
  localeLowerCase?: boolean;
}

/**
 * One step of an analyzer. Elision and stopword filters judge the word as written (and, when the
 * analyzer folds, as folded), before any other filter; `latin-as-english` then sends a Latin
 * word of a text in another script to English analysis; the word-changing filters (`fold`,
 * `porter`, `snowball`, `prefix`) run in the order given. Words of scripts written without
 * spaces (Han, Kana, Hangul) are terms as the tokenizer found them. `decompound` lets a query
 * split compound words into parts the collection holds (compounds.ts).
 */
export type FilterDefinition =
  /** Elided articles and pronouns ("l'", "dell'") the tokenizer leaves as words: dropped. */
  | { kind: "elisions"; articles: readonly string[] }
  /**
   * Function words: dropped, or with `indexed` kept as index terms while still marked as
   * stopwords for the rules that read the user's words (hints, compounds, snippets).
   */
  | { kind: "stopwords"; words: readonly string[]; indexed?: boolean }
  /** Latin-script words analysed as English (Porter stems, English stopwords). */
  | { kind: "latin-as-english" }
  /** Combining marks removed, but from the letters `keep` names (å stays å in Swedish). */
  | { kind: "fold"; keep?: string }
  /** Porter stems of plain a–z words (the English-only engine's stemmer). */
  | { kind: "porter" }
  | { kind: "snowball"; algorithm: SnowballAlgorithm }
  /** Each word cut to its first `letters` letters. */
  | { kind: "prefix"; letters: number }
  | { kind: "decompound" };

export interface AnalyzerDefinition {
  /** Stored with every index: another id means re-indexing, never misreading. Change it when the output changes. */
  id: string;
  /** The BCP-47 primary language subtag of the text it analyses ("nb", "ja"). */
  language: string;
  tokenizer: TokenizerDefinition;
  filters: readonly FilterDefinition[];
}

export const wordTokenizer = (options: Omit<TokenizerDefinition, "kind"> = {}): TokenizerDefinition => ({
  kind: "words",
  ...options,
});
export const segmenterTokenizer = (
  locale: string,
  options: Omit<TokenizerDefinition, "kind" | "locale"> = {},
): TokenizerDefinition => ({ kind: "segmenter", locale, ...options });
export const hangulBigramTokenizer = (): TokenizerDefinition => ({ kind: "hangul-bigrams" });

export const elisions = (articles: readonly string[]): FilterDefinition => ({ kind: "elisions", articles });
export const stopwords = (words: readonly string[], options: { indexed?: boolean } = {}): FilterDefinition =>
  options.indexed ? { kind: "stopwords", words, indexed: true } : { kind: "stopwords", words };
export const latinAsEnglish = (): FilterDefinition => ({ kind: "latin-as-english" });
export const asciiFolding = (keep?: string): FilterDefinition =>
  keep ? { kind: "fold", keep } : { kind: "fold" };
export const porterStemmer = (): FilterDefinition => ({ kind: "porter" });
export const snowball = (algorithm: SnowballAlgorithm): FilterDefinition => ({ kind: "snowball", algorithm });
export const prefixStem = (letters: number): FilterDefinition => ({ kind: "prefix", letters });
export const decompounder = (): FilterDefinition => ({ kind: "decompound" });

/** Composes an analyzer definition: a tokenizer, then filters in order. */
export class TextAnalyzerBuilder {
  private readonly filters: FilterDefinition[] = [];

  constructor(private readonly tokenizer: TokenizerDefinition) {}

  filter(filter: FilterDefinition): this {
    this.filters.push(filter);
    return this;
  }

  build(identity: { id: string; language: string }): AnalyzerDefinition {
    return {
      id: identity.id,
      language: identity.language,
      tokenizer: this.tokenizer,
      filters: [...this.filters],
    };
  }
}

export const TextAnalyzer = {
  builder: (tokenizer: TokenizerDefinition): TextAnalyzerBuilder => new TextAnalyzerBuilder(tokenizer),
};
