// Lexical rescue candidates for a weak search, derived from the index itself: which of the
// query's words the collection knows, and how informative each one is there. A weak search
// usually missed because the user's words are not the documents' words: some occur nowhere,
// some occur everywhere and drown the rest. Each candidate removes a different kind of noise;
// the corrective pass runs them all and fuses the rankings, and the footer's broader query is
// the first of them, so the model and the re-query see the same advice.
//
// One rule holds for every candidate: the query's most informative word (the rarest word the
// collection contains) is never dropped. "can I bring my dog to the office" must not become
// "can I bring my".
import type { Analyzer } from "../analysis/analyzer.js";
import { broaderQuery, MAX_BROADER_QUERY_INPUT_CHARS } from "./broader-query.js";

export type RescueStrategy =
  | "drop_unmatched"
  | "informative_core"
  | "drop_common_terms"
  | "conjunction_split"
  | "feedback_terms"
  | "feedback_expansion";

export interface RescueCandidate {
  query: string;
  strategy: RescueStrategy;
  /**
   * The share (0..1) of the query's content-word weight (IDF) the candidate keeps: its scores
   * are on a scale that much smaller than the query's, so a corrective pass can compare them.
   */
  keptShare: number;
}

/** What the candidates need of an index: in how many units (sections) an index term occurs. */
export interface TermVocabulary {
  /** 0 for a term the collection has never seen. */
  documentFrequency(term: string): number;
  /** Units (sections) in the collection. */
  unitCount: number;
}

export interface RescuePlan {
  /** Distinct candidates, none equal to the query, in the order worth trying. */
  candidates: RescueCandidate[];
  /** The query's content words that occur in no document, as the user wrote them (lower case). */
  unmatchedTerms: string[];
  /** The word every candidate keeps, when the query has one the collection knows. */
  mostInformative?: string;
  /**
   * The share of the query's content-word weight (BM25 IDF over the collection's units) that one
   * word of `unmatchedTerms` carries; every such word weighs alike (it occurs nowhere). Whether an
   * absent word is the question's subject or an aside depends on it, not on its language.
   */
  unmatchedShare?: number;
}

/** Candidates offered per weak search: enough to cover the kinds of mismatch, cheap in-process. */
export const MAX_RESCUE_CANDIDATES = 6;
/** The informative cores tried: the 2 and the 3 rarest known words. */
const CORE_SIZES = [3, 2] as const;
/** A word in more than this share of the units says little about any one of them. */
const COMMON_TERM_SHARE = 0.05;
/** Feedback words the expanded query adds: RM3-style expansion with a short, readable tail. */
const EXPANSION_TERMS = 3;
/** Content words examined per query: bounds the work whatever a model sends. */
const MAX_QUERY_WORDS = 32;

interface QueryWord {
  word: string;
  term: string;
  df: number;
  position: number;
}

/**
 * The rescue candidates for `query` over `vocabulary`. `feedbackTerms` are words the top-ranked
 * sections use for the query's topic (pseudo-relevance feedback), added to the informative core
 * as an expansion candidate.
 */
export function rescueCandidates(
  query: string,
  vocabulary: TermVocabulary,
  analyzer: Analyzer,
  feedbackTerms: readonly string[] = [],
): RescuePlan {
  if (typeof query !== "string" || query.length > MAX_BROADER_QUERY_INPUT_CHARS)
    return { candidates: [], unmatchedTerms: [] };
  const content = contentWords(query, vocabulary, analyzer);
  const unmatched = content.filter((w) => w.df === 0);
  const known = content.filter((w) => w.df > 0);
  const plan: RescuePlan = { candidates: [], unmatchedTerms: unmatched.map((w) => w.word) };
  if (unmatched.length > 0) plan.unmatchedShare = absentWordShare(content, vocabulary.unitCount);
  if (known.length === 0) return plan;
  // Rarest first; the earlier word wins a tie (users put the topic first more often than not).
  const byRarity = [...known].sort((a, b) => a.df - b.df || a.position - b.position);
  const anchor = byRarity[0]!;
  plan.mostInformative = anchor.word;

  const seen = new Set([identity(query)]);
  const units = vocabulary.unitCount;
  const total = content.reduce((sum, w) => sum + idf(w.df, units), 0);
  const add = (text: string, strategy: RescueStrategy, kept: readonly QueryWord[]) => {
    const candidate = text.trim().replace(/\s+/g, " ");
    const key = identity(candidate);
    if (candidate === "" || seen.has(key)) return;
    if (plan.candidates.length >= MAX_RESCUE_CANDIDATES) return;
    // The rule every candidate keeps (a conjunct without the anchor is not a rescue of it).
    if (!analyzedTerms(candidate, analyzer).has(anchor.term)) return;
    seen.add(key);
    const weight = kept.reduce((sum, w) => sum + idf(w.df, units), 0);
    const keptShare = total > 0 ? Math.round((weight / total) * 1000) / 1000 : 1;
    plan.candidates.push({ query: candidate, strategy, keptShare });
  };
  const inOrder = (selected: readonly QueryWord[]) =>
    [...selected]
      .sort((a, b) => a.position - b.position)
      .map((w) => w.word)
      .join(" ");

  // 1. Words no document contains score nothing but still count against every hit.
  if (unmatched.length > 0) add(inOrder(known), "drop_unmatched", known);
  // 2. The rarest known words: the query's topic as the collection can match it.
  for (const size of CORE_SIZES) {
    if (known.length > size)
      add(inOrder(byRarity.slice(0, size)), "informative_core", byRarity.slice(0, size));
  }
  // 3. Without the words that occur nearly everywhere ("python", "file", "use").
  const common = known.filter((w) => w !== anchor && w.df > vocabulary.unitCount * COMMON_TERM_SHARE);
  if (common.length > 0 && common.length < known.length) {
    const rare = known.filter((w) => !common.includes(w));
    add(inOrder(rare), "drop_common_terms", rare);
  }
  // 4. "X and Y", "X vs Y": the conjunct that holds the anchor.
  const split = broaderQuery(query, analyzer);
  if (split?.strategy === "conjunction_split") {
    const words = analyzedTerms(split.query, analyzer);
    add(
      split.query,
      "conjunction_split",
      known.filter((w) => words.has(w.term)),
    );
  }
  // 5. The core plus the words the collection uses for the topic.
  const usable = feedbackTerms.filter((t) => typeof t === "string" && t !== "");
  const extra = usable.slice(0, 2);
  if (extra.length > 0) {
    const core = byRarity.slice(0, Math.min(3, known.length));
    add(`${inOrder(core)} ${extra.join(" ")}`, "feedback_terms", core);
  }
  // 6. Every word the collection knows plus its topic words (query expansion that, unlike the
  // engine's own feedback pass, may bring in documents the query alone did not rank). Measured
  // on pydocs, Cranfield, CISI and CACM: it surfaces an answer no other candidate did on three
  // of the four (bench/results/rescue-candidates.md).
  if (usable.length > 0) {
    add(`${inOrder(known)} ${usable.slice(0, EXPANSION_TERMS).join(" ")}`, "feedback_expansion", known);
  }
  return plan;
}

/** BM25's IDF of a term in `df` of `units` units (never negative). */
function idf(df: number, units: number): number {
  const n = Math.max(units, df, 1);
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/** The share of the content words' summed IDF one word occurring nowhere carries (0..1). */
function absentWordShare(content: readonly QueryWord[], units: number): number {
  const absent = idf(0, units);
  const total = content.reduce((sum, w) => sum + idf(w.df, units), 0);
  return total > 0 ? Math.round((absent / total) * 1000) / 1000 : 1;
}

function contentWords(query: string, vocabulary: TermVocabulary, analyzer: Analyzer): QueryWord[] {
  const out: QueryWord[] = [];
  const terms = new Set<string>();
  let position = 0;
  for (const word of analyzer.words(query)) {
    const term = analyzer.termOf(word);
    position++;
    if (term === undefined || terms.has(term)) continue;
    terms.add(term);
    const df = vocabulary.documentFrequency(term);
    out.push({ word, term, df: Number.isFinite(df) && df > 0 ? df : 0, position });
    if (out.length === MAX_QUERY_WORDS) break;
  }
  return out;
}

function analyzedTerms(text: string, analyzer: Analyzer): Set<string> {
  const out = new Set<string>();
  for (const word of analyzer.words(text)) {
    const term = analyzer.termOf(word);
    if (term !== undefined) out.add(term);
  }
  return out;
}

function identity(query: string): string {
  return query.trim().replace(/\s+/g, " ").toLowerCase();
}
