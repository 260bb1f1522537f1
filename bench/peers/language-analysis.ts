import snowball from "snowball-stemmers";

/**
 * Language-aware analysis for the lexical peers (the data's lohelp README, "Peers"): NFKC,
 * lower case, letter/number words; a Han/Kana run split into its overlapping character bigrams
 * (a one-character run stays one token); a language's stopwords dropped and the rest stemmed by
 * its Snowball stemmer (npm `snowball-stemmers`). CJK tokens are never stemmed or dropped.
 * Independent of our engine's analyzer on purpose: a peer must not inherit our choices.
 */
export interface PeerLanguage {
  /** A `snowball-stemmers` algorithm name ("german", "english", …). */
  snowball: string;
  /** The language's stopword list (npm `stopword`). */
  stopwords: readonly string[];
  /** Japanese or Chinese: the locale `Intl.Segmenter` segments with. */
  cjk?: "ja" | "zh";
}

/** Han, Hiragana, Katakana, the long-vowel mark and the iteration mark: the characters split into bigrams. */
const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30fc\u3005]/u;
const WORD = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30fc\u3005]+|[\p{L}\p{M}\p{N}]+/gu;

export const isCjkToken = (token: string): boolean => CJK_CHAR.test(token.charAt(0));

/** The text's words, NFKC and lower case, each Han/Kana run as its overlapping character bigrams. */
export function bigramTokens(text: string): string[] {
  const out: string[] = [];
  for (const match of text.normalize("NFKC").toLowerCase().matchAll(WORD)) {
    const word = match[0];
    if (!isCjkToken(word)) {
      out.push(word);
      continue;
    }
    const chars = [...word];
    if (chars.length === 1) out.push(word);
    for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
  }
  return out;
}

export interface PeerAnalysis {
  /** The stopword list, NFKC and lower case. */
  stopwords: ReadonlySet<string>;
  /** A token as indexed and searched: null for a stopword, the Snowball stem otherwise; CJK kept as is. */
  term(token: string): string | null;
  /** Words by `Intl.Segmenter` (ICU's dictionary for ja/zh): NFKC, lower case, word-like segments only. */
  segmenterTokens(text: string): string[];
}

export function peerAnalysis(language: PeerLanguage): PeerAnalysis {
  const stopwords = new Set(language.stopwords.map((w) => w.normalize("NFKC").toLowerCase()));
  const stemmer = snowball.newStemmer(language.snowball);
  const cache = new Map<string, string | null>();
  const segmenter = new Intl.Segmenter(language.cjk ?? "en", { granularity: "word" });
  return {
    stopwords,
    term(token) {
      if (token === "") return null;
      if (isCjkToken(token)) return token;
      let term = cache.get(token);
      if (term === undefined) {
        term = stopwords.has(token) ? null : stemmer.stem(token);
        cache.set(token, term);
      }
      return term;
    },
    segmenterTokens(text) {
      const out: string[] = [];
      for (const s of segmenter.segment(text.normalize("NFKC").toLowerCase())) {
        if (s.isWordLike) out.push(s.segment);
      }
      return out;
    },
  };
}
