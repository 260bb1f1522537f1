// Huginn's lexical "broader query" rules (docs/reference/huginn-search-contract.md §3,
// `get_retry_hints`). They need no graph and no index, so a weak response from any backend
// can offer a widened query. The rules, their order and their filters are kept exactly as
// Huginn applies them so that a hint means the same thing whichever backend produced it;
// better rules of ours belong in a separate strategy, not in this port. One departure: the
// filler words are the collection's own language's (its analyzer's stopwords), not Huginn's
// hand-kept Norwegian + English list, so a German or Japanese collection drops its own fillers.
import type { Analyzer } from "../analysis/analyzer.js";

export type BroaderQueryStrategy = "conjunction_split" | "trailing_parens" | "unquote" | "drop_last_word";

export interface BroaderQuery {
  query: string;
  strategy: BroaderQueryStrategy;
}

/**
 * Queries longer than this are refused (no broader query), not cut. A cut would land in
 * the middle of a word or clause and the "broader" query would then be an arbitrary prefix
 * of the user's text rather than a widening of it; and a 2,000-character "query" is a pasted
 * document, which no lexical widening rescues. The bound also caps the work per call.
 */
export const MAX_BROADER_QUERY_INPUT_CHARS = 2000;

/** Characters stripped from both ends of a token before it is compared with the stopword list. */
export const TOKEN_PUNCTUATION = ".,!?;:\"'()";

// Checked in this order, not by position in the query: with "a and b versus c" the
// " versus " split wins because Huginn tries it first. Matching is case-insensitive and
// needs the surrounding spaces, so "android" or "Ogden" never split.
const CONJUNCTIONS: readonly RegExp[] = [" versus ", " vs. ", " vs ", " and ", " og ", " & "].map(
  (sep) => new RegExp(sep.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "i"),
);

const WHITESPACE = /\s+/;

/**
 * A widened form of `q`, or undefined when no rule yields a usable one.
 *
 * The first rule that produces a candidate decides; if that candidate is then discarded
 * (fewer than 2 tokens, or equal to `q` ignoring case) there is no broader query at all —
 * later rules are not tried. That is Huginn's behaviour: `alpha and beta gamma` splits to
 * `alpha`, which is discarded, rather than falling back to `alpha and beta`.
 *
 * Linear in the length of `q` (each rule is a constant number of scans), and `q` is bounded
 * by `MAX_BROADER_QUERY_INPUT_CHARS`.
 */
export function broaderQuery(q: string, analyzer: Analyzer): BroaderQuery | undefined {
  if (q.length > MAX_BROADER_QUERY_INPUT_CHARS) return undefined;
  const candidate = firstCandidate(q.trim(), analyzer);
  if (candidate === undefined) return undefined;
  if (countTokens(candidate.query) < 2) return undefined;
  if (candidate.query.toLowerCase() === q.trim().toLowerCase()) return undefined;
  return candidate;
}

function firstCandidate(stripped: string, analyzer: Analyzer): BroaderQuery | undefined {
  if (stripped === "") return undefined;

  // 1. Keep the first conjunct: "X and Y" asks about two things, X alone is wider.
  for (const sep of CONJUNCTIONS) {
    const idx = stripped.search(sep);
    if (idx > 0) {
      const head = stripped.slice(0, idx).trim();
      if (head !== "") return { query: head, strategy: "conjunction_split" };
    }
  }

  // 2. A trailing parenthetical usually narrows ("beregning (for selvstendig)").
  const parensStart = trailingParensStart(stripped);
  if (parensStart > 0) {
    return { query: stripped.slice(0, parensStart).trim(), strategy: "trailing_parens" };
  }

  // 3. Quotes ask for an exact phrase; without them any order matches.
  if (stripped.includes('"')) {
    const unquoted = stripped.replaceAll('"', "").trim();
    if (unquoted !== "" && unquoted !== stripped) return { query: unquoted, strategy: "unquote" };
  }

  // 4. No structural cue: drop the last content word.
  const dropped = dropLastContentWord(stripped, analyzer);
  return dropped === undefined ? undefined : { query: dropped, strategy: "drop_last_word" };
}

/**
 * Where Huginn's `\s*\([^)]*\)\s*$` would match in the already-trimmed `s` (the whitespace
 * before the parenthesis included), or -1. Done by hand rather than with that regex because
 * its leading `\s*` makes a backtracking search quadratic on long runs of spaces.
 */
function trailingParensStart(s: string): number {
  const close = s.length - 1;
  if (s[close] !== ")") return -1;
  // Inside the parentheses there may be no ")", so the "(" lies after the previous ")";
  // the regex's leftmost match takes the first "(" in that stretch.
  const previousClose = s.lastIndexOf(")", close - 1);
  const open = s.indexOf("(", previousClose + 1);
  if (open === -1 || open >= close) return -1;
  let start = open;
  while (start > 0 && WHITESPACE.test(s[start - 1]!)) start--;
  return start;
}

/**
 * Drop the last token that is not a stopword, then trim stopwords left dangling at the end
 * ("trygdeavgift beregning for selvstendige" → "trygdeavgift beregning"). Only for queries of
 * 3 or more tokens: dropping a word from a 2-token query leaves a single word, which is too
 * broad to help. A query made only of stopwords has no content word to drop and yields
 * nothing (the contract's rule; an older Huginn dropped its last token anyway).
 */
export function dropLastContentWord(q: string, analyzer: Analyzer): string | undefined {
  const tokens = splitTokens(q);
  if (tokens.length < 3) return undefined;
  for (let i = tokens.length - 1; i >= 0; i--) {
    const clean = cleanToken(tokens[i]!);
    // A bare punctuation token is neither content nor a stopword: skip it when looking for
    // the word to drop (it is kept in place, as Huginn keeps it).
    if (clean === "" || analyzer.isStopword(clean)) continue;
    const remaining = [...tokens.slice(0, i), ...tokens.slice(i + 1)];
    while (remaining.length > 0 && analyzer.isStopword(cleanToken(remaining[remaining.length - 1]!))) {
      remaining.pop();
    }
    const result = remaining.join(" ").trim();
    return result === "" ? undefined : result;
  }
  return undefined;
}

/** The token lower-cased and stripped of surrounding punctuation: the form the analyzer's stopword list holds. */
function cleanToken(token: string): string {
  let start = 0;
  let end = token.length;
  while (start < end && TOKEN_PUNCTUATION.includes(token[start]!)) start++;
  while (end > start && TOKEN_PUNCTUATION.includes(token[end - 1]!)) end--;
  return token.slice(start, end).toLowerCase();
}

function splitTokens(s: string): string[] {
  const trimmed = s.trim();
  return trimmed === "" ? [] : trimmed.split(WHITESPACE);
}

function countTokens(s: string): number {
  return splitTokens(s).length;
}
