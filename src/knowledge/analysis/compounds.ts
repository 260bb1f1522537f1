import type { Analyzer } from "./analyzer.js";

/**
 * Compound words (German, Dutch, the Nordic languages) met through the collection's own
 * vocabulary, at query time, so both backends do it alike and no dictionary has to ship: a query
 * word the collection does not hold ("Seitennummerierung") is split into two parts the collection
 * does hold ("seite" + "nummerierung"), with or without a linking element (the "n" of "Seiten-"),
 * and the parts join the query. (Joining two adjacent query words into a compound the collection
 * holds was measured too, and dropped: it cost Dutch two answers in the top 5 on lohelp.)
 *
 * Only the query changes: documents are indexed as written, so a stored index never depends on
 * the vocabulary it was built next to.
 */

/** Shortest part a split may leave (characters): shorter pieces are endings, not words. */
export const MIN_COMPOUND_PART = 3;
/** Words shorter than this are not split. */
const MIN_SPLIT_WORD = 2 * MIN_COMPOUND_PART + 1;
/** Linking elements (German Fugen, Nordic and Dutch -s-/-e-/-en-): what a first part may end with. */
const LINKS = ["s", "e", "n", "en", "er", "es"] as const;
/** Query words examined: bounds the lookups whatever a model sends. */
const MAX_WORDS = 16;
/** Characters examined in one word: bounds the splits tried per word. */
const MAX_WORD_CHARS = 40;

export interface CompoundPlan {
  /** Every term whose collection frequency decides which splits apply. */
  candidates: string[];
  /** The terms to add to the query, given how many units (sections) hold each candidate. */
  choose(documentFrequency: (term: string) => number): string[];
}

interface Split {
  word: string;
  term: string;
  head: string;
  tail: string;
  /** The shorter part's length: the split whose parts are both longest wins. */
  shortest: number;
}

const NONE: CompoundPlan = { candidates: [], choose: () => [] };

/** What the collection's vocabulary must answer to decompound `query`'s words. */
export function compoundPlan(query: string, analyzer: Analyzer): CompoundPlan {
  if (!analyzer.splitsCompounds) return NONE;
  const words = analyzer.words(query).slice(0, MAX_WORDS);
  const content = words.filter((w) => analyzer.termOf(w) !== undefined);
  const splits: Split[] = [];
  const candidates = new Set<string>();
  for (const word of content) {
    const term = analyzer.termOf(word)!;
    candidates.add(term);
    const chars = [...word].slice(0, MAX_WORD_CHARS);
    if (chars.length < MIN_SPLIT_WORD || /\p{N}/u.test(word)) continue;
    for (let i = MIN_COMPOUND_PART; i <= chars.length - MIN_COMPOUND_PART; i++) {
      const tail = analyzer.termOf(chars.slice(i).join(""));
      if (tail === undefined) continue;
      const whole = chars.slice(0, i).join("");
      const heads = [whole, ...LINKS.filter((l) => whole.endsWith(l)).map((l) => whole.slice(0, -l.length))];
      for (const headWord of heads) {
        if ([...headWord].length < MIN_COMPOUND_PART) continue;
        const head = analyzer.termOf(headWord);
        if (head === undefined) continue;
        candidates.add(head).add(tail);
        splits.push({ word, term, head, tail, shortest: Math.min([...headWord].length, chars.length - i) });
      }
    }
  }
  if (!splits.length) return NONE;
  return {
    candidates: [...candidates],
    choose(documentFrequency) {
      const out = new Set<string>();
      const best = new Map<string, Split>();
      for (const split of splits) {
        // A word the collection holds as written needs no splitting.
        if (documentFrequency(split.term) > 0) continue;
        if (documentFrequency(split.head) <= 0 || documentFrequency(split.tail) <= 0) continue;
        const current = best.get(split.word);
        if (!current || split.shortest > current.shortest) best.set(split.word, split);
      }
      for (const split of best.values()) out.add(split.head).add(split.tail);
      for (const word of content) out.delete(analyzer.termOf(word)!);
      return [...out];
    },
  };
}
