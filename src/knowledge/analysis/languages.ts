import { stopwords as danish } from "@orama/stopwords/danish";
import { stopwords as dutch } from "@orama/stopwords/dutch";
import { stopwords as finnish } from "@orama/stopwords/finnish";
import { stopwords as french } from "@orama/stopwords/french";
import { stopwords as german } from "@orama/stopwords/german";
import { stopwords as hungarian } from "@orama/stopwords/hungarian";
import { stopwords as italian } from "@orama/stopwords/italian";
import { stopwords as norwegian } from "@orama/stopwords/norwegian";
import { stopwords as portuguese } from "@orama/stopwords/portuguese";
import { stopwords as romanian } from "@orama/stopwords/romanian";
import { stopwords as russian } from "@orama/stopwords/russian";
import { stopwords as spanish } from "@orama/stopwords/spanish";
import { stopwords as swedish } from "@orama/stopwords/swedish";
import { stopwords as turkish } from "@orama/stopwords/turkish";
import { stopwords as ukrainian } from "@orama/stopwords/ukrainian";
// The package's ES module build: its main is CommonJS, and importing that from an ES module makes
// Node scan all 237 KB of it for export names first, some 45 ms of CPU in every thread that loads
// this module (the main thread and each parser thread). Typed in stopword-lists.d.ts.
import { ara, cat, ces, eng, jpn, kor, pol, tha, zho } from "stopword/dist/stopword.esm.mjs";
import {
  type AnalyzerDefinition,
  asciiFolding,
  decompounder,
  elisions,
  type FilterDefinition,
  hangulBigramTokenizer,
  latinAsEnglish,
  porterStemmer,
  prefixStem,
  type SnowballAlgorithm,
  segmenterTokenizer,
  snowball,
  stopwords,
  TextAnalyzer,
  wordTokenizer,
} from "./text-analyzer.js";

export type { SnowballAlgorithm } from "./text-analyzer.js";

/**
 * How a language's words are found in text:
 * - `words`: letter/digit runs (space-delimited scripts);
 * - `segmenter`: `Intl.Segmenter`'s dictionary words for runs of Han, Kana or Thai (and, per
 *   `bigramsOver`, long words also as overlapping character bigrams), letter runs elsewhere;
 * - `hangul-bigrams`: Hangul runs as overlapping character bigrams (Korean attaches particles and
 *   endings to words, so a whole space-delimited unit rarely repeats), letter runs elsewhere.
 */
export type Segmentation = "words" | "segmenter" | "hangul-bigrams";

/**
 * One language's analysis, as data: each becomes an analyzer definition of the same chain
 * (normalise → segment → elisions → stopwords → fold and stem; `analyzerDefinition`), registered
 * under the language's tag (registry.ts); only these settings differ.
 */
export interface LanguageProfile {
  /** BCP-47 primary language subtag, as the config names it. */
  tag: string;
  /** English name, for errors and listings. */
  name: string;
  /**
   * Bumped whenever this profile's output changes: the analyzer id (`<tag>-<version>`) is stored
   * with every index, and another id means re-indexing, never misreading.
   */
  version: string;
  segmentation: Segmentation;
  /**
   * Snowball stemmer for the language's own script; none for languages without one, and none
   * where prefix stems serve better (CASE_RICH_STEMS).
   */
  stemmer?: SnowballAlgorithm;
  /**
   * Each word cut to this many letters (a prefix stem), so the inflections of a word meet: for an
   * inflected language Snowball has no stemmer for, and for the case-rich ones (CASE_RICH_STEMS).
   * See PREFIX_STEM_LETTERS.
   */
  prefixStem?: number;
  stopwords: readonly string[];
  /** Elided articles and pronouns ("l'onglet", "dell'elenco") that the tokenizer leaves as words: dropped. */
  elisions?: readonly string[];
  /** Where the stopword list comes from (npm package and list), shown in docs and `bots`. */
  stopwordSource: string;
  /**
   * Letters of the language that diacritic folding keeps (å is not a with a ring in Swedish). Every
   * other combining mark is removed from the stem, so "cafe" matches "café".
   */
  keepLetters?: string;
  /**
   * Stopwords are index terms too (kept in `analyze`), the list only telling the word-level rules
   * (hints, compounds, snippets: `isStopword`, `termOf`) which words carry no meaning. For a
   * list that is long and not only function words (Spanish): see SPANISH.
   */
  indexesStopwords?: boolean;
  /** Whether accents are folded at all (English keeps today's analysis: no folding). */
  fold: boolean;
  /**
   * The stemmer reads the word with its accents and the stem is folded after (else the word is
   * folded first, so a word typed without its accents stems as the accented one does). For a
   * Snowball stemmer whose suffixes carry accents (Spanish -ación, -ución): folded first,
   * "instalación" keeps its ending while "instalaciones" loses it, and the two never meet. See SPANISH.
   */
  stemBeforeFold?: boolean;
  /** Words longer than this that the collection also holds as parts are split (see compounds.ts). */
  compounds?: boolean;
  /**
   * Tokens as the engine found them before languages existed: a Han or Kana character alone, or a
   * letter run that may swallow Han and Kana after a Latin letter (English only, so its indexes
   * stay valid; every other language splits scripts).
   */
  legacyTokens?: boolean;
  /**
   * Han/Kana words longer than this many characters are also indexed as overlapping character
   * bigrams: the segmenter's dictionary is unsure of long compounds and names (Japanese Katakana
   * loanwords). Measured on lohelp: Japanese hit@10 55 → 58 % with 3 (hit@5 unchanged); Chinese,
   * whose dictionary words are short, loses with bigrams (hit@5 53 % with them, 55 % without).
   */
  bigramsOver?: number;
  /** Lower-casing needs the locale (Turkish dotted/dotless i). */
  localeLowerCase?: boolean;
  /**
   * Latin-script words in a text of a non-Latin language are analysed as English (stems, stopwords):
   * the untranslated strings and product names such text carries.
   */
  latinAsEnglish?: boolean;
}

/**
 * The prefix stem's length. Measured on lohelp (bench/prefix-stems.bench.ts) with each of the eight
 * Snowball-stemmed languages' stemmers replaced in turn: cutting words to 6 letters keeps most of
 * what the stemmer gains over no stemming (hit@5 summed over the eight: none 360, prefix-6 405,
 * Snowball 413 points; hit@10: 428, 477, 468), and 6 is the length chosen with any one language
 * left out.
 */
export const PREFIX_STEM_LETTERS = 6;

/**
 * The stems of languages whose nouns inflect for many grammatical cases: prefix stems, not
 * Snowball's. The rule (general, not fitted to questions): where a noun takes many case endings
 * (of the measured languages, Finnish's 15 and Russian's 6; German's 4 is not many), a suffix
 * stripper must recognise each of them, and every ending it misses or over-strips keeps a word's
 * forms apart; a prefix of six letters meets every form whose first six letters do not change,
 * whatever its ending (at a cost: words of six letters or fewer keep their endings, and words
 * sharing six letters meet). Polish and Ukrainian, seven cases each, are prefix-stemmed already.
 * Measured on lohelp (bench/prefix-stems.bench.ts, hit@5 over 60 answerable questions; Snowball /
 * prefix-6 / both):
 * - Russian 41.7 / 50.0 / 46.7; Finnish 38.3 / 41.7 / 45.0: prefix stems gain on both, and with
 *   either left out, the decision made on the other gains on it;
 * - the languages with few or no cases mostly lose with prefix stems (German −5.0, French −3.3,
 *   Swedish −3.3, Danish −11.7, Dutch −1.7; Spanish +5.0 is the exception): they keep Snowball.
 * "Both" (each word indexed as its Snowball stem and as its prefix stem) is better on Finnish only,
 * at twice the terms per word: prefix stems alone. Hungarian, Turkish and Czech have many cases
 * too but no judged questions here: they keep Snowball until measured.
 */
const CASE_RICH_STEMS = { prefixStem: PREFIX_STEM_LETTERS } as const satisfies Partial<LanguageProfile>;

/** Elided articles and pronouns ("l'onglet", "dell'elenco") that the tokenizer leaves on their own. */
const ELISIONS = ["l", "d", "j", "m", "n", "s", "t", "c", "qu", "quelqu", "lorsqu", "puisqu", "jusqu"];
const ITALIAN_ELISIONS = ["l", "d", "un", "dell", "all", "dall", "nell", "sull", "quest", "quell"];

/** English as the engine has always analysed it: Porter stems and the `stopword` English list. */
export const ENGLISH_STOPWORDS: readonly string[] = [...eng, "s", "t", "d", "ll", "re", "ve", "m"];

/**
 * Bokmål and Nynorsk alike: Snowball's Norwegian stemmer, and its stopword list, which holds the
 * Nynorsk forms too (eg, ikkje, korleis, kva).
 */
const NORWEGIAN = {
  version: "1",
  segmentation: "words",
  stemmer: "norwegian",
  stopwords: norwegian,
  stopwordSource: "Snowball norwegian (@orama/stopwords)",
  keepLetters: "åæø",
  fold: true,
  compounds: true,
} as const satisfies Omit<LanguageProfile, "tag" | "name">;

/**
 * The supported languages. Stopword lists are the Snowball project's (npm `@orama/stopwords`,
 * which ships them unchanged) where Snowball has one; the npm `stopword` package's otherwise.
 * Snowball's lists are short function-word lists; longer "comprehensive" lists also drop words
 * that carry a query's meaning ("zwei", "oben", "ersten" in German).
 */
export const LANGUAGE_PROFILES: readonly LanguageProfile[] = [
  {
    tag: "en",
    name: "English",
    // "en-porter-1" is the id every index built before languages existed carries: English is
    // analysed exactly as it was then (tokens included), so no English bot re-indexes on upgrade.
    version: "porter-1",
    legacyTokens: true,
    segmentation: "words",
    stopwords: ENGLISH_STOPWORDS,
    stopwordSource: "stopword eng",
    fold: false,
  },
  { tag: "nb", name: "Norwegian Bokmål", ...NORWEGIAN },
  { tag: "nn", name: "Norwegian Nynorsk", ...NORWEGIAN },
  {
    tag: "da",
    name: "Danish",
    version: "1",
    segmentation: "words",
    stemmer: "danish",
    stopwords: danish,
    stopwordSource: "Snowball danish (@orama/stopwords)",
    keepLetters: "åæø",
    fold: true,
    compounds: true,
  },
  {
    tag: "sv",
    name: "Swedish",
    version: "1",
    segmentation: "words",
    stemmer: "swedish",
    stopwords: swedish,
    stopwordSource: "Snowball swedish (@orama/stopwords)",
    keepLetters: "åäö",
    fold: true,
    compounds: true,
  },
  {
    tag: "fi",
    name: "Finnish",
    version: "2",
    segmentation: "words",
    // 15 cases: prefix stems, not Snowball's finnish (CASE_RICH_STEMS).
    ...CASE_RICH_STEMS,
    stopwords: finnish,
    stopwordSource: "Snowball finnish (@orama/stopwords)",
    keepLetters: "åäö",
    fold: true,
    compounds: true,
  },
  {
    tag: "de",
    name: "German",
    version: "1",
    segmentation: "words",
    stemmer: "german",
    stopwords: german,
    stopwordSource: "Snowball german (@orama/stopwords)",
    fold: true,
    compounds: true,
  },
  {
    tag: "nl",
    name: "Dutch",
    version: "1",
    segmentation: "words",
    stemmer: "dutch",
    stopwords: dutch,
    stopwordSource: "Snowball dutch (@orama/stopwords)",
    fold: true,
    compounds: true,
  },
  {
    tag: "fr",
    name: "French",
    version: "1",
    segmentation: "words",
    stemmer: "french",
    stopwords: french,
    elisions: ELISIONS,
    stopwordSource: "Snowball french (@orama/stopwords) and elided articles",
    fold: true,
  },
  {
    tag: "es",
    name: "Spanish",
    // 2: stopwords indexed (indexesStopwords). @orama/stopwords' Spanish list is not Snowball's
    // function-word list but a "comprehensive" one of 577 words that drops words carrying a
    // query's meaning ("usar", "nuevo", "cuenta", "valor", "final", "trabajo", "tiempo"); the
    // English-only engine, which drops no Spanish word, beat it on held-out technical pages.
    // Measured with bench/multilingual/quick.ts, hit@5 list dropped → indexed: lohelp es 50 → 57,
    // debian-handbook es-es 67 → 71 (each decided with the other left out: both gain); the
    // `stopword` package's 59-word list instead: 50 → 48 and 67 → 68. The cost: more
    // unanswerable questions match a function word, so fewer are flagged weak (lohelp 65 → 45 %,
    // handbook 65 → 55 %), and false alarms fall (20 → 18 %, 19 → 9 %).
    // 3: stemmed before folding (stemBeforeFold), so "configuración" and "configuraciones" meet:
    // hit@5 lohelp es 60.0 → 61.7, debian-handbook es-es 71.4 → 73.0 (both gain, so either set
    // left out keeps it); at the top it costs the handbook (hit@1 39.7 → 34.9, MRR@10 0.534 →
    // 0.511) and gains on lohelp (hit@1 21.7 both, MRR@10 0.377 → 0.386). French, Portuguese and Italian were measured too and keep folding
    // first: fr lohelp 60.0 → 58.3 (handbook equal), pt handbook equal and LibreOffice help in
    // Portuguese 53.3 → 51.7, it equal on both.
    version: "3",
    segmentation: "words",
    stemmer: "spanish",
    stemBeforeFold: true,
    stopwords: spanish,
    indexesStopwords: true,
    stopwordSource: "@orama/stopwords spanish (indexed; the list marks words for hints only)",
    keepLetters: "ñ",
    fold: true,
  },
  {
    tag: "it",
    name: "Italian",
    version: "1",
    segmentation: "words",
    stemmer: "italian",
    stopwords: italian,
    elisions: ITALIAN_ELISIONS,
    stopwordSource: "Snowball italian (@orama/stopwords) and elided articles",
    fold: true,
  },
  {
    tag: "pt",
    name: "Portuguese",
    // 2: stopwords indexed (indexesStopwords), as Spanish: the English-only engine, which drops no
    // Portuguese word, beat the Snowball list on both Portuguese sets, whose questions lean on
    // words the list holds ("não são mais necessários", "sem apagar", "só", "mesmo"). hit@5
    // (bench/multilingual/quick.ts) list dropped → indexed: debian-handbook pt-br 68.3 → 74.6,
    // LibreOffice help in Brazilian Portuguese (bench/data/lohelp-translations) 53.3 → 55.0 —
    // both gain, so either set left out keeps it (MRR@10 0.502 → 0.496 and 0.421 → 0.453). Measured and not kept: the same for Italian
    // (handbook 71.4 → 73.0 but LibreOffice help 63.3 → 61.7), German, French, Norwegian and
    // Russian (each loses on the handbook).
    version: "2",
    segmentation: "words",
    stemmer: "portuguese",
    stopwords: portuguese,
    indexesStopwords: true,
    stopwordSource: "Snowball portuguese (@orama/stopwords; indexed, the list marks words for hints only)",
    fold: true,
  },
  {
    tag: "ca",
    name: "Catalan",
    version: "1",
    segmentation: "words",
    stemmer: "catalan",
    stopwords: cat,
    elisions: ELISIONS,
    stopwordSource: "stopword cat and elided articles",
    fold: true,
  },
  {
    tag: "ro",
    name: "Romanian",
    version: "1",
    segmentation: "words",
    stemmer: "romanian",
    stopwords: romanian,
    stopwordSource: "@orama/stopwords romanian",
    fold: true,
  },
  {
    tag: "pl",
    name: "Polish",
    version: "2",
    segmentation: "words",
    // Snowball has no Polish stemmer: prefix stems; ł is its own letter and kept.
    prefixStem: PREFIX_STEM_LETTERS,
    stopwords: pol,
    stopwordSource: "stopword pol",
    keepLetters: "ł",
    fold: true,
  },
  {
    tag: "cs",
    name: "Czech",
    version: "1",
    segmentation: "words",
    stemmer: "czech",
    stopwords: ces,
    stopwordSource: "stopword ces",
    fold: true,
  },
  {
    tag: "hu",
    name: "Hungarian",
    version: "1",
    segmentation: "words",
    stemmer: "hungarian",
    stopwords: hungarian,
    stopwordSource: "Snowball hungarian (@orama/stopwords)",
    fold: true,
  },
  {
    tag: "tr",
    name: "Turkish",
    version: "1",
    segmentation: "words",
    stemmer: "turkish",
    stopwords: turkish,
    stopwordSource: "@orama/stopwords turkish",
    keepLetters: "çğıöşü",
    fold: true,
    localeLowerCase: true,
  },
  {
    tag: "ru",
    name: "Russian",
    version: "2",
    segmentation: "words",
    // 6 cases: prefix stems, not Snowball's russian (CASE_RICH_STEMS).
    ...CASE_RICH_STEMS,
    stopwords: russian,
    stopwordSource: "Snowball russian (@orama/stopwords)",
    // ё folds to е (the usual Russian normalisation); й is a letter of its own.
    keepLetters: "й",
    fold: true,
    latinAsEnglish: true,
  },
  {
    tag: "uk",
    name: "Ukrainian",
    version: "2",
    segmentation: "words",
    // Snowball has no Ukrainian stemmer: prefix stems.
    prefixStem: PREFIX_STEM_LETTERS,
    stopwords: ukrainian,
    stopwordSource: "@orama/stopwords ukrainian",
    keepLetters: "йїі",
    fold: true,
    latinAsEnglish: true,
  },
  {
    tag: "ar",
    name: "Arabic",
    version: "1",
    segmentation: "words",
    stemmer: "arabic",
    stopwords: ara,
    stopwordSource: "stopword ara",
    fold: true,
    latinAsEnglish: true,
  },
  {
    tag: "ja",
    name: "Japanese",
    version: "2",
    segmentation: "segmenter",
    bigramsOver: 3,
    stopwords: jpn,
    stopwordSource: "stopword jpn",
    fold: false,
    latinAsEnglish: true,
  },
  {
    tag: "zh",
    name: "Chinese",
    version: "2",
    segmentation: "segmenter",
    stopwords: zho,
    stopwordSource: "stopword zho",
    fold: false,
    latinAsEnglish: true,
  },
  {
    tag: "ko",
    name: "Korean",
    version: "1",
    segmentation: "hangul-bigrams",
    stopwords: kor,
    stopwordSource: "stopword kor",
    fold: false,
    latinAsEnglish: true,
  },
  {
    tag: "th",
    name: "Thai",
    version: "1",
    segmentation: "segmenter",
    stopwords: tha,
    stopwordSource: "stopword tha",
    fold: false,
    latinAsEnglish: true,
  },
];

/**
 * A language's analyzer as a composition of a tokenizer and filters (text-analyzer.ts): how each
 * supported language becomes a registration. Its id is `<tag>-<version>`.
 */
export function analyzerDefinition(profile: LanguageProfile): AnalyzerDefinition {
  const tokenizer =
    profile.segmentation === "segmenter"
      ? segmenterTokenizer(
          profile.tag,
          profile.bigramsOver === undefined ? {} : { bigramsOver: profile.bigramsOver },
        )
      : profile.segmentation === "hangul-bigrams"
        ? hangulBigramTokenizer()
        : wordTokenizer(
            profile.legacyTokens
              ? { legacy: true }
              : profile.localeLowerCase
                ? { locale: profile.tag, localeLowerCase: true }
                : {},
          );
  const builder = TextAnalyzer.builder(tokenizer);
  if (profile.elisions) builder.filter(elisions(profile.elisions));
  builder.filter(stopwords(profile.stopwords, { indexed: profile.indexesStopwords === true }));
  if (profile.latinAsEnglish) builder.filter(latinAsEnglish());
  const stem: FilterDefinition[] =
    profile.tag === "en"
      ? [porterStemmer()]
      : profile.stemmer
        ? [snowball(profile.stemmer)]
        : profile.prefixStem
          ? [prefixStem(profile.prefixStem)]
          : [];
  const fold = profile.fold ? [asciiFolding(profile.keepLetters)] : [];
  for (const filter of profile.stemBeforeFold ? [...stem, ...fold] : [...fold, ...stem])
    builder.filter(filter);
  if (profile.compounds) builder.filter(decompounder());
  return builder.build({ id: `${profile.tag}-${profile.version}`, language: profile.tag });
}
