// What a result shows and what its signal says of it, read once where the call enters: the
// signal grade (no model call), the borderline evidence that decides when "auto" asks the model,
// the result as shown (from the structured response, else a bounded view of the text), and the
// query's language against the documents'.

import { joinNames } from "../knowledge-tool/language-names.js";
import {
  boundedView,
  countDocIdLines,
  detectBriefMode,
  docKey,
  peelTraceMarker,
  type ResultTextScan,
  readResultBody,
  renderDocIdLine,
  type TextSignal,
} from "../knowledge-tool/result-text.js";
import type { Logger } from "../telemetry/logger.js";
import type { CollectionLanguage, Grade, Hit, RetryHints, SearchResponse } from "../types.js";
import {
  isLanguageMismatch,
  isWeak,
  languageTags,
  mayBeInAnotherLanguage,
  type QueryLanguageGuess,
  searchedLanguages,
  type VocabularyEvidence,
  WEAK_BEST_SCORE,
} from "../weakness.js";
import { autoAsksOnCoverage, hasCoverage } from "./auto-ask-rule.js";

// The default grader (docs/design.md §5): no model call, deterministic, pure. It reads what the search
// said about itself, from the structured response when the search ran in-process, else from
// the rendered text. It never answers "ambiguous" and never proposes a query of its own; the
// orchestrator takes re-query candidates from the hints.

export type { TextSignal };

export const REASON_EMPTY = "search returned no results";
export const REASON_WEAK = "the search flagged the result as low confidence";
export const REASON_CONFIDENT = "no low-confidence signal from the search";

export type SignalGrade = Grade & { signal: TextSignal };

export interface TextSignalGrade extends SignalGrade {
  /** Retry hints from the trailing footer only; `{}` when there is none. */
  hints: RetryHints;
  /** `collection/id` of every hit in the text, in order, for deduping re-query hits. */
  docKeys: string[];
}

/** A body's grade with the one scan it was read from (the orchestrator's text reader reuses it). */
export interface BodySignalGrade extends TextSignalGrade {
  scan: ResultTextScan;
}

/** Grade of a structured response: empty, else weak (bestScore < WEAK_BEST_SCORE), else correct. */
export function gradeFromResponse(response: SearchResponse): SignalGrade {
  if (response.results.length === 0) return gradeFor("empty");
  if (isWeak(response)) return gradeFor("weak");
  return gradeFor(null);
}

/** Grade of a tool-result text (see classifyTextSignal for exactly what counts). */
export function gradeFromText(text: string | null | undefined): TextSignalGrade {
  const { scan: _scan, ...graded } = gradeFromBody(peelTraceMarker(text ?? "").body);
  return graded;
}

/** gradeFromText on a body whose trace marker is already peeled, with the scan it used. */
export function gradeFromBody(body: string): BodySignalGrade {
  const { signal, ...read } = readResultBody(body);
  return { ...gradeFor(signal), ...read };
}

function gradeFor(signal: TextSignal): SignalGrade {
  if (signal === "empty") return { verdict: "insufficient", reason: REASON_EMPTY, signal };
  if (signal === "weak") return { verdict: "insufficient", reason: REASON_WEAK, signal };
  return { verdict: "correct", reason: REASON_CONFIDENT, signal };
}

// Grader mode "auto": the free signal decides first, and the model is asked only where it can
// change the outcome. The weak line decides when the free path appends and is kept low so that
// rarely happens; asking the model is a different decision with its own, more sensitive rule.
// A query written in another language than the documents is always the model's (the signal
// cannot translate, the model can; bench/results/crosslang.md). A search whose response reports
// how its query's words meet the documents (the ranking core's, types.ts QueryCoverage) is
// decided by auto-ask-rule.ts. Any other (a Huginn response, a result read from text, merged
// sub-question responses) by the band rule below, fitted before that coverage was reported:
// - a weak or empty search is the model's, unless a query word is in no document: that search
//   is the signal's "not covered" evidence, and asking the model there too took lohelp-en from
//   31 to 37 calls in 80 searches (46 %, past the 40 % budget English searches keep), for 3 of
//   nodejs-api's 9 replayed rescues;
// - a search whose top hit sits in the borderline band (below AUTO_BAND_TOP) and barely
//   outscores the second hit (by less than AUTO_MAX_GAP) is the model's: two near-equal middling
//   hits is how a near miss looks, a found answer usually stands out.
// A search the rule is confident about never reaches the model, and neither does a text that is
// not a search result (an error text has no hits and no relevance). When the second hit's
// relevance is unknown (a result read from text), the band just above the weak line
// (AUTO_ASK_BELOW) decides instead, as before.
// Fitted on the initial searches of the documentation bots with recorded grader replies, pydocs
// and nodejs-api: over band tops 0.25..0.70 and gaps 0..0.40, the pair that keeps the largest share
// of haiku's replayed rescues on both while asking on at most 40 of 100 searches on each (replayed,
// `npm run bench -- rescue`). Leave one collection out: fitted on pydocs alone (0.36, 0.16)
// nodejs-api asks on 57 %; fitted on nodejs-api alone (0.26, 0.01) pydocs keeps 5 of 16. The
// misses it still leaves to the signal have a clear lead over the second hit (0.07..0.29), which
// nothing the signal reads marks as doubtful.

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
  /** The query is in another language than the searched documents (src/weakness.ts). */
  languageMismatch?: boolean;
  /** Relevance of the second-best hit (0 when there is one hit), when known. */
  secondRelevance?: number;
  /** Relevance of the fifth-best hit (0 with fewer than five), when known. */
  fifthRelevance?: number;
  /** Share of the query's key terms the top hit's document holds (QueryCoverage), when reported. */
  keyTermsInTopHit?: number;
  /** Share of the query's weight no document holds (QueryCoverage), when reported. */
  unmatchedShare?: number;
  /** The query's function words of the documents' language, not English's (QueryCoverage), when reported. */
  ownFunctionWords?: number;
}

/**
 * Best relevance below which `auto` asks the model even when the search is not weak, when the
 * second hit's relevance is unknown (a result read from text).
 */
export const AUTO_ASK_BELOW = 0.3;
/** The top of the borderline band: a top hit below it may be a near miss. */
export const AUTO_BAND_TOP = 0.43;
/** In the band, a top hit that outscores the second by less than this is asked about. */
export const AUTO_MAX_GAP = 0.06;

/** `auto`'s decision: ask the model about this search. */
export function isBorderline(evidence: SignalEvidence): boolean {
  if (evidence.languageMismatch === true) return true;
  if (hasCoverage(evidence)) return autoAsksOnCoverage(evidence);
  if (evidence.unmatchedTerms !== undefined && evidence.unmatchedTerms > 0) return false;
  if (evidence.weak) return true;
  const best = evidence.bestRelevance;
  if (evidence.hitCount <= 0 || best === undefined || !Number.isFinite(best) || best < WEAK_BEST_SCORE) {
    return false;
  }
  const second = evidence.secondRelevance;
  if (second === undefined || !Number.isFinite(second)) return best < AUTO_ASK_BELOW;
  return best < AUTO_BAND_TOP && best - second < AUTO_MAX_GAP;
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
  const ranked = response.results
    .map((hit) => hit.relevance)
    .filter((r) => Number.isFinite(r))
    .sort((a, b) => b - a);
  const evidence: SignalEvidence = {
    weak: gradeFromResponse(response).verdict === "insufficient",
    hitCount: response.results.length,
    bestRelevance: response.bestScore,
    hitsWithoutRelevance: 0,
    unmatchedTerms: unmatchedTermsOf(response.retryHints).length,
    // The n-th best relevance is 0 when fewer than n hits carry one.
    secondRelevance: ranked[1] ?? 0,
  };
  const coverage = response.queryCoverage;
  if (coverage) {
    evidence.fifthRelevance = ranked[4] ?? 0;
    evidence.keyTermsInTopHit = coverage.keyTermsInTopHit;
    evidence.unmatchedShare = coverage.unmatchedShare;
    if (coverage.ownFunctionWords !== undefined) evidence.ownFunctionWords = coverage.ownFunctionWords;
  }
  return evidence;
}

// What the corrective pass knows about the result the model would receive, read once where the
// call enters and re-read after each merge. Two readers, chosen at the edge: a search that ran
// in-process is read from its structured response (the text is never parsed), and a result we
// only see as text (an external MCP server such as Huginn) is read from a bounded view of its
// text. The orchestrator's steps see only `ShownResult` and never ask which one they hold.

/** What the grader sees of the current result, and what the merge needs to know about it. */
export interface Reading {
  signalGrade: Grade;
  hints: RetryHints;
  evidence: () => SignalEvidence;
}

/** The grader's reading and the text a model grader's digest is built from. */
export interface Reread {
  reading: Reading;
  /** A bounded view (head and tail) of the text, for the model grader's digest. */
  digestSource: string;
}

export interface ShownResult extends Reread {
  /** `collection/id` of every hit the result shows, so a re-query adds only what is new. */
  known: ReadonlySet<string>;
  hitsShown: number;
  /** The mode appended hits are rendered in. */
  brief: boolean;
  /** For a text too large to index whole: a hit counts as shown if its doc-id line is in it. */
  alreadyShown?: (hit: Hit) => boolean;
  /** Queries a server's own rescue already searched (asking again is waste). */
  searchedByServer: readonly string[];
  /** The reading once the text became `body`, `added` (every hit appended so far) appended. */
  reread(body: string, added: readonly Hit[]): Reread;
}

/** What `body` shows: read from `response` when the search ran in-process, else from the text. */
export function readShownResult(
  response: SearchResponse | undefined,
  body: string,
  brief: boolean,
): ShownResult {
  return response ? structuredResult(response, body, brief) : textResult(body, brief);
}

/**
 * A search that ran in-process: graded from its hits, never from text. After a merge the merged
 * hits' own relevance decides (the original's hints spoke of its hits alone); the digest source
 * stays the original text's view, as it always was for this path.
 */
export function structuredResult(response: SearchResponse, body: string, brief: boolean): ShownResult {
  const { retryHints: _originalHints, ...originalFields } = response;
  const digestSource = boundedView(body).view;
  return {
    known: new Set(response.results.map((hit) => docKey(hit))),
    hitsShown: response.results.length,
    brief,
    searchedByServer: (response.rescue?.queriesTried ?? []).filter((q): q is string => typeof q === "string"),
    reading: readResponse(response, response.bestScore),
    digestSource,
    reread: (_body, added) => {
      const merged = [...response.results, ...added];
      return {
        reading: readResponse({ ...originalFields, results: merged }, maxRelevance(merged)),
        digestSource,
      };
    },
  };
}

/**
 * A result we only see as text (its trace marker peeled): graded from a bounded view, one scan
 * per reading. `requestedBrief` applies only when the text shows no hit to tell the mode by.
 */
export function textResult(body: string, requestedBrief: boolean): ShownResult {
  const view = boundedView(body);
  const graded = gradeFromBody(view.view);
  return {
    known: new Set(graded.docKeys),
    hitsShown: view.truncated ? countDocIdLines(body) : graded.docKeys.length,
    brief: detectBriefMode(view.view) ?? requestedBrief,
    ...(view.truncated ? { alreadyShown: (hit: Hit) => body.includes(renderDocIdLine(hit)) } : {}),
    searchedByServer: [],
    reading: readText(graded),
    digestSource: view.view,
    reread: (merged) => {
      const mergedView = boundedView(merged).view;
      return { reading: readText(gradeFromBody(mergedView)), digestSource: mergedView };
    },
  };
}

/** Grading from structured hits: the merged set's best relevance decides, not re-parsed text. */
export function readResponse(response: SearchResponse, bestScore: number): Reading {
  const graded = { ...response, bestScore };
  const { signal: _signal, ...signalGrade } = gradeFromResponse(graded);
  return {
    signalGrade,
    hints: response.retryHints ?? {},
    evidence: () => responseEvidence(graded),
  };
}

/** Grading from a text's one scan (the relevances `auto` needs were read in that same pass). */
export function readText(graded: BodySignalGrade): Reading {
  const { scan } = graded;
  return {
    signalGrade: { verdict: graded.verdict, reason: graded.reason },
    hints: graded.hints,
    evidence: () => ({
      weak: graded.signal !== null,
      hitCount: scan.hitCount,
      hitsWithoutRelevance: scan.hitsWithoutRelevance,
      ...(scan.bestRelevance !== undefined ? { bestRelevance: scan.bestRelevance } : {}),
    }),
  };
}

export function maxRelevance(hits: readonly Hit[]): number {
  let best = 0;
  for (const hit of hits) if (Number.isFinite(hit.relevance) && hit.relevance > best) best = hit.relevance;
  return best;
}

// The query's language against the searched documents' (src/weakness.ts isLanguageMismatch):
// a query written in another language than every collection it searched is weak whatever it
// scored, and the pass says so in a note unless a model re-searched in the documents' words.

/**
 * The documents' languages and a detector for the query's: a query written in another language
 * than every collection it searched is weak whatever it scored (src/weakness.ts).
 */
export interface CorrectiveLanguages {
  /** Each collection's document language; a collection not named here has none known. */
  collections: Readonly<Record<string, CollectionLanguage>>;
  /** The query's language as a detector reads it (undefined: no verdict). */
  guess: (query: string) => QueryLanguageGuess | undefined;
}

/** What the pass found about the original query's language. */
export interface LanguageMismatch {
  query: QueryLanguageGuess;
  /** The searched collections' languages, by name ("English"). */
  documentLanguage: string;
  /** Their supported tags. */
  documentTags: string[];
  collections: string[];
  reason: string;
}

/**
 * The original query's language against the searched collections' (undefined unless every one
 * of them has a known language and the query is clearly in none of them). `coverage` is the
 * search's (QueryCoverage), when it ran in-process. A detector that throws detects nothing.
 */
export function languageMismatch(
  query: string,
  collections: readonly string[],
  languages: CorrectiveLanguages | undefined,
  log: Logger,
  coverage?: VocabularyEvidence,
): LanguageMismatch | undefined {
  const known = searchedLanguages(collections, languages?.collections);
  if (!known || !languages) return undefined;
  const tags = languageTags(known);
  // The detector is not asked (nor loaded, search-pipeline.ts) about a query that cannot be another language.
  if (!mayBeInAnotherLanguage(query, tags, coverage)) return undefined;
  let guess: QueryLanguageGuess | undefined;
  try {
    guess = languages.guess(query);
  } catch (error) {
    log.debug({ err: String(error) }, "corrective: query language unknown");
    return undefined;
  }
  if (!guess || !isLanguageMismatch(query, guess, tags, { coverage })) return undefined;
  const documentLanguage = joinNames([...new Set(known.map((l) => l.name))]);
  return {
    query: guess,
    documentLanguage,
    documentTags: tags,
    collections: [...collections],
    reason: `the query is in ${guess.name}, but the documents searched are in ${documentLanguage}`,
  };
}

/** The searched collections' language by name, when every one of them has a known one. */
export function documentLanguageOf(
  collections: readonly string[],
  languages: CorrectiveLanguages | undefined,
): string | undefined {
  const known = searchedLanguages(collections, languages?.collections);
  return known ? joinNames([...new Set(known.map((l) => l.name))]) : undefined;
}

/** The first reading of a search whose query is in another language: weak, and worth a model's look. */
export function mismatchedReading(reading: Reading, reason: string): Reading {
  return {
    signalGrade: { verdict: "insufficient", reason },
    hints: reading.hints,
    evidence: () => ({ ...reading.evidence(), weak: true, languageMismatch: true }),
  };
}
