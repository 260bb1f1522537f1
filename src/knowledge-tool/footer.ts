// The footer: one italic line after a blank line at the end of a result, carrying the search's
// own verdict on itself. Rendering follows Huginn's `_format_retry_hints`, plus our rule that a
// weak response without hints still says so (`*Weak match.*`). Parsing accepts only the LAST
// non-blank line, because anything above it may be document text.
import type { RetryHints, SearchResponse } from "../types.js";
import { isWeak } from "../weakness.js";
import { toSingleLine } from "./untrusted-text.js";

export const WEAK_MATCH = "Weak match";
export const NO_CONFIDENT_MATCH = "No confident match";
/** Between the prefix and the hints: an em dash (U+2014) with a space on each side. */
export const TRY_SEPARATOR = " — try: ";
/** Between two hint bits. */
export const BIT_SEPARATOR = " · ";
const RESCUE_START = '*Rescued via broader query "';
const RESCUE_END = " found no confident match.*";

/**
 * - `weak`: `*Weak match…*` — results exist but the search is unsure of them.
 * - `no-confident`: `*No confident match…*` — nothing survived filtering.
 * - `rescued`: Huginn's `*Rescued via broader query "…" [strategy] — original query "…" found no
 *   confident match.*` — the backend already re-searched and the results are confident. A
 *   statement about the results above, not advice, so it is not a weak signal.
 */
export type FooterKind = "weak" | "no-confident" | "rescued";

/** The footer line (no leading blank line), or "" when the response needs none. */
export function renderFooter(response: SearchResponse): string {
  const rescue = response.rescue;
  if (rescue?.verdict === "rescued") {
    // Huginn: a rescued response has no hints; without both queries it says nothing at all.
    if (rescue.queriesTried.length < 2) return "";
    const original = toSingleLine(rescue.queriesTried[0]!);
    const rescueQuery = toSingleLine(rescue.queriesTried[rescue.queriesTried.length - 1]!);
    const strategy = rescue.strategy ? ` [${toSingleLine(rescue.strategy)}]` : "";
    return `${RESCUE_START}${rescueQuery}"${strategy} — original query "${original}"${RESCUE_END}`;
  }
  const bits = hintBits(response.retryHints);
  const noConfident = response.noConfidentResults === true || response.results.length === 0;
  const prefix = noConfident ? NO_CONFIDENT_MATCH : WEAK_MATCH;
  if (bits.length > 0) return `*${prefix}${TRY_SEPARATOR}${bits.join(BIT_SEPARATOR)}*`;
  if (noConfident) return `*${NO_CONFIDENT_MATCH}.*`;
  // Our rule: Huginn renders nothing here, which hides the weakness from the model and from
  // any grader that only sees the text.
  if (isWeak(response)) return `*${WEAK_MATCH}.*`;
  return "";
}

// In Huginn's order: related terms · narrower query · broader query.
function hintBits(hints: RetryHints | undefined): string[] {
  if (!hints) return [];
  const bits: string[] = [];
  const related = (hints.relatedTerms ?? []).filter((term) => term !== "");
  if (related.length > 0) bits.push(`related terms: ${related.map(toSingleLine).join(", ")}`);
  if (hints.narrowerQuery) bits.push(`narrower query: "${toSingleLine(hints.narrowerQuery)}"`);
  if (hints.broaderQuery) bits.push(`broader query: "${toSingleLine(hints.broaderQuery)}"`);
  return bits;
}

/** The kind of a single footer line, or undefined when the line is not a footer. */
export function classifyFooterLine(line: string): FooterKind | undefined {
  if (!line.startsWith("*") || !line.endsWith("*") || line.length < 3) return undefined;
  if (startsWithWord(line, 1, WEAK_MATCH)) return "weak";
  if (startsWithWord(line, 1, NO_CONFIDENT_MATCH)) return "no-confident";
  if (line.startsWith(RESCUE_START) && line.endsWith(RESCUE_END)) return "rescued";
  return undefined;
}

// `word` at `at`, followed by a non-word character: `*Weak matches*` is prose, not a footer.
function startsWithWord(line: string, at: number, word: string): boolean {
  if (!line.startsWith(word, at)) return false;
  const next = line.charCodeAt(at + word.length);
  const isWordChar =
    (next >= 48 && next <= 57) || (next >= 65 && next <= 90) || (next >= 97 && next <= 122) || next === 95;
  return !isWordChar;
}

export interface TrailingFooter {
  /** The text before the footer, trailing whitespace removed; the whole text when there is none. */
  body: string;
  /** The footer line, or "" when the text has none. */
  footer: string;
  kind?: FooterKind;
}

/**
 * The footer, if the last non-blank line is one and it is separated from the text above by a
 * blank line (or is the whole text). A footer-shaped line anywhere else is document text and is
 * ignored. Peel the trace marker first: a footer followed by a marker is not trailing. Linear:
 * only the last line is examined.
 */
export function extractTrailingFooter(text: string): TrailingFooter {
  let end = text.length;
  while (end > 0 && isWhitespace(text.charCodeAt(end - 1))) end--;
  const lineStart = text.lastIndexOf("\n", end - 1) + 1;
  let contentStart = lineStart;
  while (contentStart < end && (text[contentStart] === " " || text[contentStart] === "\t")) contentStart++;
  const line = text.slice(contentStart, end);
  const kind = classifyFooterLine(line);
  if (!kind) return { body: text, footer: "" };
  if (lineStart > 0 && !followsBlankLine(text, lineStart)) return { body: text, footer: "" };
  return { body: text.slice(0, lineStart).trimEnd(), footer: line, kind };
}

/**
 * The text without a trailing weak or no-confident footer (and the blank line before it),
 * right-trimmed. Its retry advice is stale once a re-query has run. A rescue marker stays: it
 * is a fact about the results above it.
 */
export function stripTrailingFooter(text: string): string {
  const { body, kind } = extractTrailingFooter(text);
  return kind === "weak" || kind === "no-confident" ? body : text.trimEnd();
}

// The line ending at `lineStart - 1` is blank (only spaces, tabs or a carriage return).
function followsBlankLine(text: string, lineStart: number): boolean {
  let i = lineStart - 2; // skip the newline that ends the previous line
  while (i >= 0 && (text[i] === " " || text[i] === "\t" || text[i] === "\r")) i--;
  return i < 0 || text[i] === "\n";
}

function isWhitespace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}
