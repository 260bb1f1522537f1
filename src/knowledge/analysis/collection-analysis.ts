import { createHash } from "node:crypto";
import type { Analyzer } from "./analyzer.js";
import { type LanguageDetector, languageDetector } from "./detect.js";
import { LANGUAGE_PROFILES } from "./languages.js";
import {
  AUTO_LANGUAGE,
  analyzerFor,
  analyzerIdOf,
  analyzerNameOf,
  DEFAULT_LANGUAGE,
  languageOf,
} from "./registry.js";

/**
 * A language that holds less than this share of an "auto" collection's documents does not
 * analyse its queries: a handful of misdetected pages must not add a second stemming of every
 * query word. Its documents are still analysed in their own language and found by their words.
 */
export const QUERY_LANGUAGE_MIN_SHARE = 0.05;

/**
 * The languages an "auto" collection analyses its queries in, given how many documents each
 * holds: those with at least QUERY_LANGUAGE_MIN_SHARE of them, the largest first (ties by tag).
 * The one rule for what the index searches in and what the model is told it holds.
 */
export function queryLanguageTags(documentsPerLanguage: ReadonlyMap<string, number>): string[] {
  const total = [...documentsPerLanguage.values()].reduce((a, b) => a + b, 0);
  return [...documentsPerLanguage.entries()]
    .filter(([, n]) => total > 0 && n / total >= QUERY_LANGUAGE_MIN_SHARE)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([tag]) => tag);
}

/**
 * How one collection's text is analysed: one language for every document and query, or "auto":
 * each document in the language detected for it, each query in every language the collection
 * holds (its terms are the union, so a query meets each document in that document's terms).
 */
export class CollectionAnalysis {
  /** The setting as configured: a supported tag, or "auto". */
  readonly setting: string;
  /**
   * Stored with the index: an index built under another id is re-built, never read. For "auto"
   * it covers every language's analyzer, since any of them may have analysed a document.
   */
  readonly id: string;

  /**
   * For "auto": names the language of a query, so a query is analysed in its own language
   * (queryAnalyzer). Given by `forSearch`, which loads the detector; without it every query of a
   * mixed collection is analysed in all its languages.
   */
  private queryLanguage: LanguageDetector | undefined;
  /**
   * The last query's guess: the PostgreSQL backend asks for one query's analyzer twice (planning
   * its candidate reads, then ranking them), and detection is the costly part (~0.1 ms).
   */
  private lastGuess: { query: string; guess: ReturnType<LanguageDetector> } | undefined;

  private constructor(setting: string) {
    this.setting = setting;
    this.id =
      setting === AUTO_LANGUAGE
        ? `auto-${createHash("sha256")
            // The analyzers registered under the languages' tags (a program may replace one).
            .update(LANGUAGE_PROFILES.map((p) => analyzerIdOf(p.tag)).join(","))
            .digest("hex")
            .slice(0, 8)}`
        : analyzerFor(setting).id;
  }

  /**
   * What changed since an index was built under analyzer id `builtWith`: the same setting's
   * analysis (ids are `<setting>-<version>`: an upgrade) or the setting itself.
   */
  changeSince(builtWith: string): string {
    return builtWith.startsWith(`${this.setting}-`)
      ? `the analysis of "${this.setting}" has changed since`
      : `its language is now "${this.setting}"`;
  }

  /** The analysis for a collection's `language` setting (absent: English, as always). */
  static of(language: string | undefined): CollectionAnalysis {
    if (language === undefined) return new CollectionAnalysis(DEFAULT_LANGUAGE);
    if (language === AUTO_LANGUAGE) return new CollectionAnalysis(AUTO_LANGUAGE);
    const name = analyzerNameOf(language);
    if (name === undefined) throw new RangeError(`unsupported language "${language}"`);
    return new CollectionAnalysis(name);
  }

  /**
   * The analysis a search uses: `of`, and for "auto" with the language detector loaded, so each
   * query can be analysed in its own language (queryAnalyzer).
   */
  static async forSearch(language: string | undefined): Promise<CollectionAnalysis> {
    const analysis = CollectionAnalysis.of(language);
    if (analysis.isAuto) analysis.queryLanguage = await languageDetector();
    return analysis;
  }

  get isAuto(): boolean {
    return this.setting === AUTO_LANGUAGE;
  }

  /**
   * The analyzer of one document. With "auto" the document's own text decides (its detected
   * language, when the detector trusts its verdict and the language is supported), else English.
   */
  documentAnalyzer(text: string, detect: LanguageDetector | undefined): Analyzer {
    if (!this.isAuto) return analyzerFor(this.setting);
    const found = detect?.(text);
    return analyzerFor(found?.reliable ? found.tag : DEFAULT_LANGUAGE);
  }

  /** The analyzer of a stored document that recorded its language (or the collection's one). */
  storedAnalyzer(language: string | undefined): Analyzer {
    if (!this.isAuto) return analyzerFor(this.setting);
    return analyzerFor(language && languageOf(language) ? language : DEFAULT_LANGUAGE);
  }

  /**
   * The analyzer for queries, given how many documents each language holds: the collection's
   * own; for "auto", the languages with at least QUERY_LANGUAGE_MIN_SHARE of the documents —
   * one query (`query` given) in its own language when the detector is sure of it and the
   * collection holds that language, else in all of them (the largest first).
   *
   * Why not always all of them: on LibreOffice's help as "auto" collections (its untranslated
   * pages read as English), every query analysed in both its language and English put an answer
   * in the top 5 for 13 % of the Spanish questions and 25 % of the Russian and Japanese ones;
   * analysed in the question's own language, for 52, 50 and 48 % (each language's tag gives 50,
   * 50 and 52; `LOHELP_LANGUAGE=auto npm run bench -- lohelp`). The other language's terms of the
   * same words are noise to the pages written in the question's language.
   */
  queryAnalyzer(documentsPerLanguage: ReadonlyMap<string, number>, query?: string): Analyzer {
    if (!this.isAuto) return analyzerFor(this.setting);
    const languages = queryLanguageTags(documentsPerLanguage);
    if (languages.length <= 1) return analyzerFor(languages[0] ?? DEFAULT_LANGUAGE);
    const guess = query === undefined ? undefined : this.guessOf(query);
    if (guess?.reliable && languages.includes(guess.tag)) return analyzerFor(guess.tag);
    return new UnionAnalyzer(languages.map((tag) => analyzerFor(tag)));
  }

  private guessOf(query: string): ReturnType<LanguageDetector> {
    if (!this.queryLanguage) return undefined;
    if (this.lastGuess?.query !== query) this.lastGuess = { query, guess: this.queryLanguage(query) };
    return this.lastGuess.guess;
  }
}

/**
 * Several languages' analyzers as one, for the queries of a mixed collection: a query's terms are
 * each analyzer's terms in turn, each distinct term once; words are the first (largest) language's;
 * a word is a stopword only when it is one in every language (so "die" stays an English word).
 */
export class UnionAnalyzer implements Analyzer {
  readonly id: string;
  readonly language: string;
  /** Compounds are split in one language's words; a mixed collection's queries are not split. */
  readonly splitsCompounds = false;

  constructor(private readonly analyzers: readonly Analyzer[]) {
    this.id = analyzers.map((a) => a.id).join("+");
    this.language = analyzers[0]!.language;
  }

  /** The languages, largest share first. */
  get languages(): string[] {
    return this.analyzers.map((a) => a.language);
  }

  analyze(text: string): string[] {
    const seen = new Set<string>();
    const out: string[] = [];
    for (const analyzer of this.analyzers) {
      for (const term of analyzer.analyze(text)) {
        if (seen.has(term)) continue;
        seen.add(term);
        out.push(term);
      }
    }
    return out;
  }

  words(text: string, options?: { spacedOnly?: boolean }): string[] {
    return this.analyzers[0]!.words(text, options);
  }

  termOf(word: string): string | undefined {
    for (const analyzer of this.analyzers) {
      const term = analyzer.termOf(word);
      if (term !== undefined) return term;
    }
    return undefined;
  }

  isStopword(word: string): boolean {
    return this.analyzers.every((a) => a.isStopword(word));
  }

  isStopwordTerm(term: string): boolean {
    return this.analyzers.every((a) => a.isStopwordTerm(term));
  }
}
