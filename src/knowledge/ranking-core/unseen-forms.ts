import type { Analyzer } from "../analysis/analyzer.js";
import type { LexicalIndex } from "../index/lexical-index.js";

/**
 * Query words in a form no section holds, in the languages analysed with prefix stems (Russian,
 * Finnish, Polish, Ukrainian: languages.ts CASE_RICH_STEMS). A prefix stem leaves a word of six
 * letters or fewer its ending, and questions use forms the help never writes (the first person,
 * the past tense: "ввожу", "открою", "поменял"). Such a word matches nothing yet keeps the
 * largest idf, so it weighs the most in what the query could score and sinks an answered
 * search below the weak line (bench/weak-study/case-rich.ts: 17-18 % of an answered query's
 * weight on lohelp ru and fi, 4 % in English). It is searched instead as the most frequent
 * indexed term that shares its first five letters. Only analyzers that cut words to
 * prefix stems do it: in every language it also lowered the unanswerable questions flagged on
 * eleven other collections. And only for a word the stem left whole (no longer than the stem): a
 * longer word was cut to its stem, so a stem no section holds is a word the documents lack, not
 * an ending they do not write. Measured (`npm run bench -- lohelp`, `debian-handbook`): on lohelp
 * fi false alarms 40 → 28 % at the same hit@5; every unmatched word looked up gave 24 % but
 * flagged two unanswerable questions fewer of twenty (80 → 70 %) and told three fewer "not
 * covered" (30 → 15 %), handbook ru-ru three fewer (45 → 30 %).
 *
 * Query time only: the stored index and the analyzer's output are as they were. An index built over
 * some candidate sections (the PostgreSQL backend's) lacks most of the vocabulary: its backend
 * looks the held forms up over the whole vocabulary by the same rule (pg-reads.ts heldForms) and
 * hands them over with the collection's statistics.
 */

/** Letters an unmatched word shares with the term it is searched as (measured with 6-letter stems). */
export const UNSEEN_FORM_PREFIX_LETTERS = 5;

/** Numbers and codes are not inflected: only a prefix of letters (and marks) is looked up. */
const LETTERS = /^[\p{L}\p{M}]+$/u;

/**
 * The vocabulary's term ids in the order of their terms, and for each the id of the most frequent
 * term sharing its first letters: one lookup is a binary search. Built once per index, on the
 * first unmatched word, and only for indexes searched by a prefix-stemming analyzer.
 */
interface PrefixTable {
  sorted: Uint32Array;
  best: Uint32Array;
}

const tables = new WeakMap<LexicalIndex, PrefixTable>();

/**
 * The first UNSEEN_FORM_PREFIX_LETTERS characters of `term` when they are all letters: what a
 * held form must begin with. Undefined for a shorter term or one beginning with a digit or sign.
 */
export function unseenFormPrefix(term: string): string | undefined {
  const letters = Array.from(term);
  if (letters.length < UNSEEN_FORM_PREFIX_LETTERS) return undefined;
  const prefix = letters.slice(0, UNSEEN_FORM_PREFIX_LETTERS).join("");
  return LETTERS.test(prefix) ? prefix : undefined;
}

function tableOf(lexical: LexicalIndex): PrefixTable {
  let table = tables.get(lexical);
  if (table) return table;
  const size = lexical.vocabularySize;
  const terms = Array.from({ length: size }, (_, id) => lexical.term(id));
  const sorted = Uint32Array.from({ length: size }, (_, id) => id).sort((a, b) =>
    terms[a]! < terms[b]! ? -1 : terms[a]! > terms[b]! ? 1 : 0,
  );
  const best = new Uint32Array(size);
  // Terms sharing a prefix are adjacent in sorted order: one pass per run of them.
  for (let start = 0; start < size; ) {
    const prefix = unseenFormPrefix(terms[sorted[start]!]!);
    let end = start + 1;
    while (end < size && prefix !== undefined && terms[sorted[end]!]!.startsWith(prefix)) end++;
    // The most frequent form; on a tie the first in sorted order, so the choice does not depend
    // on the order the documents were indexed in.
    let pick = sorted[start]!;
    for (let i = start + 1; i < end; i++) {
      const id = sorted[i]!;
      if (lexical.documentFrequency(id) > lexical.documentFrequency(pick)) pick = id;
    }
    best.fill(pick, start, end);
    start = end;
  }
  table = { sorted, best };
  tables.set(lexical, table);
  return table;
}

/**
 * The indexed term `term` is searched as: the most frequent term sharing its first five letters
 * (of equally frequent ones, the first in sorted order), when the analyzer stems by prefix and
 * the collection lacks `term`. Else undefined. An index over candidate sections answers with the
 * form its backend looked up over the whole vocabulary (CollectionStatistics.heldForm).
 */
export function heldFormOf(lexical: LexicalIndex, analyzer: Analyzer, term: string): string | undefined {
  if (analyzer.prefixStemLetters === undefined) return undefined;
  if (lexical.termId(term) !== undefined) return undefined;
  if (!lexical.holdsWholeVocabulary) return lexical.statedHeldForm(term);
  const prefix = unseenFormPrefix(term);
  if (prefix === undefined) return undefined;
  const { sorted, best } = tableOf(lexical);
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (lexical.term(sorted[middle]!) < prefix) low = middle + 1;
    else high = middle;
  }
  if (low === sorted.length || !lexical.term(sorted[low]!).startsWith(prefix)) return undefined;
  return lexical.term(best[low]!);
}

/**
 * The terms of `query`'s words the prefix stem left whole (no longer than the stem): the only ones
 * searched by a held form. Empty for an analyzer that does not stem by prefix.
 */
export function wholeWordTerms(query: string, analyzer: Analyzer): Set<string> {
  const letters = analyzer.prefixStemLetters;
  const out = new Set<string>();
  if (letters === undefined) return out;
  for (const word of analyzer.words(query)) {
    if (Array.from(word).length > letters) continue;
    const term = analyzer.termOf(word);
    if (term !== undefined) out.add(term);
  }
  return out;
}

/**
 * `terms`, `query`'s terms, with each one the index lacks of a word the stem left whole replaced by
 * its held form (heldFormOf), when it has one; `terms` itself where no word can have one (every
 * search of a language not stemmed by prefix).
 */
export function withHeldForms(
  query: string,
  terms: string[],
  lexical: LexicalIndex,
  analyzer: Analyzer,
): string[] {
  if (analyzer.prefixStemLetters === undefined) return terms;
  const whole = wholeWordTerms(query, analyzer);
  return terms.map((term) => (whole.has(term) ? heldFormOf(lexical, analyzer, term) : undefined) ?? term);
}

/**
 * For a backend that reads candidate sections only: each of `terms` (`query`'s) that can have a
 * held form — of a word the stem left whole, held by no section (`held` says which the collection
 * holds), with a prefix of letters — mapped to the prefix its held form must begin with. The
 * backend picks, among its collection's terms beginning so, the one heldFormOf would.
 */
export function unseenFormPrefixes(
  query: string,
  terms: readonly string[],
  analyzer: Analyzer,
  held: (term: string) => boolean,
): Map<string, string> {
  const out = new Map<string, string>();
  if (analyzer.prefixStemLetters === undefined) return out;
  const whole = wholeWordTerms(query, analyzer);
  for (const term of terms) {
    if (!whole.has(term) || held(term)) continue;
    const prefix = unseenFormPrefix(term);
    if (prefix !== undefined) out.set(term, prefix);
  }
  return out;
}
