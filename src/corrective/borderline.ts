// Grader mode "auto": the free signal decides first, and the model is asked only where it can
// change the outcome — the search is weak (or returned nothing), or its best hit sits just above
// the weak line where the signal cannot tell a found answer from a near miss, and the index
// cannot already tell why. A search the signal is confident about never reaches the model, and
// neither does a text that is not a search result (an error text has no hits and no relevance).
// A weak search whose query holds words no document contains is the signal's to answer: its
// rescue drops those words, and when that finds nothing clearly relevant the model is told
// plainly that the documents do not cover them. How far above the weak line to ask is decided on
// both documentation bots together (pydocs and the LibreOffice help in English), by the languages
// issue's budget: the highest line at which auto asks on at most 40 of 100 searches on each. With
// the ranking, calibration and weak line of bench/results/calibration.json that is 0.30: it asks
// on 38.8 % of lohelp-en's searches and 13 % of pydocs' (at 0.31, 42.5 % of lohelp-en's; 0.34 was
// the line before the page-fusion ranking, bench/results/page-fusion.md); the earlier 0.55,
// fitted on pydocs alone, asked on 70 % of lohelp-en's. Figures: bench/results/rescue.md and
// crosslang.md.
// A query written in another language than the documents it searched is the model's to answer
// whatever it scored: the signal cannot translate, the model can (bench/results/crosslang.md).
import { WEAK_BEST_SCORE } from "../knowledge-tool/weakness.js";
import type { RetryHints, SearchResponse } from "../types.js";
import { gradeFromResponse } from "./signal-grader.js";

export interface SignalEvidence {
  /** The signal graded the result weak or empty. */
  weak: boolean;
  /** Hits the grader could see. */
  hitCount: number;
  /** Best hit relevance, when known. */
  bestRelevance?: number;
  /** Hits whose relevance could not be read (Huginn leaves it out when it has none). */
  hitsWithoutRelevance: number;
  /** Query words no document contains, as the search's index reported them (0 when unknown). */
  unmatchedTerms?: number;
  /** The query is in another language than the searched documents (knowledge-tool/weakness.ts). */
  languageMismatch?: boolean;
}

/**
 * Best relevance below which `auto` asks the model even when the search is not weak: just above
 * the weak line, where a near miss and a found answer score alike.
 */
export const AUTO_ASK_BELOW = 0.3;

export function isBorderline(evidence: SignalEvidence): boolean {
  if (evidence.languageMismatch === true) return true;
  if (evidence.unmatchedTerms !== undefined && evidence.unmatchedTerms > 0) return false;
  if (evidence.weak) return true;
  const best = evidence.bestRelevance;
  return (
    evidence.hitCount > 0 &&
    best !== undefined &&
    Number.isFinite(best) &&
    best >= WEAK_BEST_SCORE &&
    best < AUTO_ASK_BELOW
  );
}

/** The query words no document contains, as a search's index reported them in its hints. */
export function unmatchedTermsOf(hints: RetryHints | undefined): string[] {
  const terms: unknown = hints?.unmatchedTerms;
  return Array.isArray(terms) ? terms.filter((t): t is string => typeof t === "string" && t !== "") : [];
}

/**
 * The share of a query's content-word weight that the words no document contains carry together
 * (RetryHints.unmatchedShare times their number) from which they are the question's subject, not
 * an aside: "connect to a PostgreSQL database" without "postgresql", "stock options vesting
 * schedule" without "stock" and "vesting" ask about something else; "create a web server without
 * any framework" without "framework" does not. Chosen leave-one-collection-out on pydocs,
 * lohelp-en, nodejs-api and lohelp de, fr, sv, ja as the lowest share at which no question
 * answered in the top 5 is told "not covered" on the other collections: 0.49 in six folds, 0.48
 * with French left out (docs/design.md §5 has the left-out figures). A share, so it reads alike
 * whatever the language and the collection's size; German compounds ("Heftchen", 0.42 of its
 * query) and Swedish ones ("rullgardinslista", 0.42) are why it is not lower.
 */
export const KEY_ABSENT_TERM_MIN_SHARE = 0.49;

/**
 * The query words no document contains when together they are the question's subject (they carry
 * at least KEY_ABSENT_TERM_MIN_SHARE of its weight): the one evidence of absence the signal
 * trusts. Empty when the search did not report the share (a text-only result): unmatched words
 * of unknown weight are no evidence.
 */
export function keyAbsentTermsOf(hints: RetryHints | undefined): string[] {
  const share: unknown = hints?.unmatchedShare;
  const terms = unmatchedTermsOf(hints);
  if (typeof share !== "number" || !Number.isFinite(share)) return [];
  return share * terms.length >= KEY_ABSENT_TERM_MIN_SHARE ? terms : [];
}

/**
 * The signal's evidence on a structured (in-process) response: every hit is shown and carries
 * its relevance. The orchestrator and `eval`'s grader-cost estimate both read it from here, so
 * the estimate counts exactly the searches `auto` sends to the model.
 */
export function responseEvidence(response: SearchResponse): SignalEvidence {
  return {
    weak: gradeFromResponse(response).verdict === "insufficient",
    hitCount: response.results.length,
    bestRelevance: response.bestScore,
    hitsWithoutRelevance: 0,
    unmatchedTerms: unmatchedTermsOf(response.retryHints).length,
  };
}
