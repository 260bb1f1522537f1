// The lines a search result's text is read back by, each written and parsed here: the doc-id line
// of every hit, the footer and the hints it carries, the corrective note and Huginn's trace
// marker; and the reading of a result text itself (its one scan, its mode and hit count, the
// bounded view a large one is read from). One module, so a result text is read by one set of
// rules, in one place.

import { RESULT_LIMITS } from "../limits.js";
import { fitText } from "../text-clip.js";
import type { Hit, RetryHints, SearchResponse, Verdict } from "../types.js";
import { isWeak, WEAK_BEST_SCORE } from "../weakness.js";
import { joinNames } from "./language-names.js";
import { GRAPH_HEADING, isLowConfidenceBanner, isNoResultsLine } from "./preamble.js";
import { isFullHeader, isHitHeaderStart, parseHeaderRelevance } from "./relevance-text.js";
import { escapeControlCharacters, toSingleLine } from "./untrusted-text.js";

// Huginn appends a trace marker after the footer when tracing is on: a pointer line
// (`huginn-trace-url: <url>` or `huginn-trace-id: <id>`) or a fenced ```huginn-trace block.
// Correction works on the body and re-appends the marker unchanged, so whatever reads the
// marker downstream still finds it at the very end. Every form is kept (muninn dropped the id
// form and unknown origins: limitation 15 in docs/reference/muninn-corrective-retrieval.md).

export interface PeeledTraceMarker {
  /** The text before the marker, without the blank lines that separated them. */
  body: string;
  /** The marker with the whitespace before and after it, or "" when there is none. */
  marker: string;
}

const POINTER_PREFIXES = ["huginn-trace-url:", "huginn-trace-id:"] as const;
const FENCE_OPEN = "```huginn-trace";
const FENCE = "```";

/**
 * Splits a trailing trace marker off `text` so that `body + marker === text` exactly.
 * Linear time: it looks at the last line and, for a fence, walks back to its opening line.
 */
export function peelTraceMarker(text: string): PeeledTraceMarker {
  const last = lastNonBlankLine(text);
  if (!last) return { body: text, marker: "" };
  const line = text.slice(last.start, last.end);
  let markerStart = -1;
  if (POINTER_PREFIXES.some((prefix) => line.startsWith(prefix) && line.length > prefix.length + 1)) {
    markerStart = last.start;
  } else if (line === FENCE) {
    markerStart = fenceOpeningLine(text, last.start);
  }
  if (markerStart < 0) return { body: text, marker: "" };
  let bodyEnd = markerStart;
  while (bodyEnd > 0 && isWhitespace(text.charCodeAt(bodyEnd - 1))) bodyEnd--;
  return { body: text.slice(0, bodyEnd), marker: text.slice(bodyEnd) };
}

// The start of the ```huginn-trace line that opens the fence closed at `closeStart`, or -1.
// Refuses when another fence line sits in between: then the closing ``` belongs to some other
// code block (say, one quoted in a document) and nothing is peeled.
function fenceOpeningLine(text: string, closeStart: number): number {
  let lineEnd = closeStart - 1; // the newline before the closing fence
  while (lineEnd > 0) {
    const lineStart = text.lastIndexOf("\n", lineEnd - 1) + 1;
    if (text.startsWith(FENCE, lineStart)) {
      return trimLineEnd(text.slice(lineStart, lineEnd)) === FENCE_OPEN ? lineStart : -1;
    }
    lineEnd = lineStart - 1;
  }
  return -1;
}

// Bounds of the last line with non-whitespace content, trailing whitespace excluded.
function lastNonBlankLine(text: string): { start: number; end: number } | undefined {
  let end = text.length;
  while (end > 0 && isWhitespace(text.charCodeAt(end - 1))) end--;
  if (end === 0) return undefined;
  return { start: text.lastIndexOf("\n", end - 1) + 1, end };
}

function trimLineEnd(line: string): string {
  return line.endsWith("\r") || line.endsWith(" ") ? line.trimEnd() : line;
}

function isWhitespace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}

// The doc-id line every rendered hit carries: collection: `<c>` doc_id: `<id>`. It is the only
// place doc keys are read from (dedupe of re-query hits against the results already shown).

const PREFIX = "collection: `";
const SEPARATOR = "` doc_id: `";

/** `collection/id`, the identity used to dedupe hits across searches. */
export function docKey(hit: Pick<Hit, "collection" | "id">): string {
  return `${hit.collection}/${hit.id}`;
}

/**
 * The doc-id line without indentation (brief mode indents it by three spaces). Control
 * characters in the id or collection (a file name may contain a newline) are escaped, so the
 * line stays one line and cannot forge another doc-id line or a footer after it.
 */
export function renderDocIdLine(hit: Pick<Hit, "collection" | "id">): string {
  return `${PREFIX}${escapeControlCharacters(hit.collection)}${SEPARATOR}${escapeControlCharacters(hit.id)}\``;
}

/**
 * The collection and id of a whole doc-id line (leading spaces or tabs allowed, trailing
 * whitespace ignored), else undefined. The collection ends at the first "` doc_id: `"; the id
 * runs to the last backtick, so an id may itself contain backticks.
 */
export function parseDocIdLine(line: string): { collection: string; id: string } | undefined {
  let start = 0;
  while (start < line.length && (line[start] === " " || line[start] === "\t")) start++;
  if (!line.startsWith(PREFIX, start)) return undefined;
  let end = line.length;
  while (end > start && /\s/.test(line[end - 1]!)) end--;
  if (line[end - 1] !== "`") return undefined;
  const separator = line.indexOf(SEPARATOR, start + PREFIX.length);
  if (separator < 0 || separator + SEPARATOR.length > end - 1) return undefined;
  const collection = line.slice(start + PREFIX.length, separator);
  const id = line.slice(separator + SEPARATOR.length, end - 1);
  if (collection === "" || id === "") return undefined;
  return { collection, id };
}

/**
 * The `collection/id` keys of every doc-id line in `text`, in order of first appearance, each
 * once. Only whole doc-id lines count; our renderer defuses doc-id-shaped lines in document
 * text (Huginn does not, so a Huginn document can add a key: it can only make a re-query hit
 * look like a duplicate, never inject text).
 */
export function extractDocKeys(text: string): string[] {
  const keys = new Set<string>();
  for (const line of text.split("\n")) {
    const parsed = parseDocIdLine(line);
    if (parsed) keys.add(docKey(parsed));
  }
  return [...keys];
}

// The footer: one italic line after a blank line at the end of a result, carrying the search's
// own verdict on itself. Rendering follows Huginn's `_format_retry_hints`, plus our rule that a
// weak response without hints still says so (`*Weak match.*`). Parsing accepts only the LAST
// non-blank line, because anything above it may be document text.

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

// The text a corrective pass adds to a result (docs/design.md §4): a separator, one note line
// saying what was done and why, then the new hits — or, when the documents do not appear to
// cover the question, that one line alone. The original body stays byte-for-byte.

/** Every re-query note line starts with this; the text-signal scanner looks for it. */
export const CORRECTIVE_NOTE_START = "[corrective retrieval — re-query #";
/** The one line saying the documents do not appear to cover the question starts with this. */
export const NOT_COVERED_NOTE_START = "[corrective retrieval — not covered: ";
/**
 * The line saying the rescue found nothing better, where nothing says the documents lack the
 * subject (no model judged so, and every query word is in some document), starts with this.
 */
export const NO_BETTER_MATCH_NOTE_START = "[corrective retrieval — no better match: ";
/** The line saying a query is in another language than the documents it searched starts with this. */
export const LANGUAGE_NOTE_START = "[corrective retrieval — language: ";
/** Bounds that keep the not-covered line one short line whatever the grader or query says. */
const MAX_NOTE_REASON_CHARS = 160;
const MAX_NOTE_TERMS = 5;
const MAX_NOTE_TERM_CHARS = 40;
const MAX_NOTE_QUERY_CHARS = 120;
/** Put between the results above and the note. */
export const CORRECTION_SEPARATOR = "\n\n---\n";

export interface RequeryNote {
  /** 1 for the first re-query of this search, 2 for the second. */
  n: number;
  /** The grade that triggered the re-query. */
  verdict: Verdict;
  reason: string;
  query: string;
  /** Further queries run alongside `query` and fused with it (rescue candidates). */
  alsoQueries?: readonly string[];
  /** A hypothetical answer passage was searched as well (query expansion). */
  expanded?: boolean;
  /** The collections searched; empty or absent means all the bot may search. */
  collections?: readonly string[];
  /** New hits appended below (after dedupe against the results above). */
  added: number;
}

/**
 * `[corrective retrieval — re-query #N: prior results graded "<verdict>" (<reason>); re-searched
 * "<q>" in collection c; K additional result(s) below, deduped against the results above]`.
 */
export function renderRequeryNote(note: RequeryNote): string {
  const collections = note.collections ?? [];
  const scope =
    collections.length === 0
      ? ""
      : collections.length === 1
        ? ` in collection ${collections[0]}`
        : ` in collections ${collections.join(", ")}`;
  const noun = note.added === 1 ? "result" : "results";
  const queries = [note.query, ...(note.alsoQueries ?? [])].map(
    (q) => `"${fitText(toSingleLine(q), note.alsoQueries?.length ? MAX_NOTE_QUERY_CHARS : Infinity)}"`,
  );
  const searched = joinNames(queries);
  const expansion = note.expanded ? " (with a hypothetical answer passage)" : "";
  const fused = queries.length > 1 || note.expanded ? ", fused" : "";
  return (
    `${CORRECTIVE_NOTE_START}${note.n}: prior results graded "${note.verdict}" (${toSingleLine(note.reason)}); ` +
    `re-searched ${searched}${expansion}${toSingleLine(scope)}${fused}; ${note.added} additional ${noun} below, ` +
    "deduped against the results above]"
  );
}

export interface NotCoveredNote {
  /** Why: the grader's reason, or what the rescue found. */
  reason: string;
  /** Query words no document contains (named in the line, the first few). */
  terms?: readonly string[];
}

/**
 * `[corrective retrieval — not covered: the documents do not appear to cover this question
 * (<reason>); no document contains "a", "b"]`: one line, bounded (about 300 characters at most).
 */
export function renderNotCoveredNote(note: NotCoveredNote): string {
  const terms = (note.terms ?? [])
    .map((t) => fitText(toSingleLine(t), MAX_NOTE_TERM_CHARS))
    .filter((t) => t !== "")
    .slice(0, MAX_NOTE_TERMS);
  const missing = terms.length > 0 ? `; no document contains ${terms.map((t) => `"${t}"`).join(", ")}` : "";
  const reason = fitText(toSingleLine(note.reason), MAX_NOTE_REASON_CHARS);
  return `${NOT_COVERED_NOTE_START}the documents do not appear to cover this question (${reason})${missing}]`;
}

/**
 * `[corrective retrieval — no better match: <reason>; the results above are the closest the search
 * found]`: one line, bounded. It claims no more than the signal knows: the results scored low and
 * the re-queries scored no higher.
 */
export function renderNoBetterMatchNote(reason: string): string {
  const why = fitText(toSingleLine(reason), MAX_NOTE_REASON_CHARS);
  return `${NO_BETTER_MATCH_NOTE_START}${why}; the results above are the closest the search found]`;
}

export interface LanguageNote {
  /** The query's language, by name ("German"). */
  queryLanguage: string;
  /** The searched collections, each with its language ("docs (English)"). */
  collections: string;
  /** The documents' language(s), by name ("English"). */
  documentLanguage: string;
}

/**
 * `[corrective retrieval — language: the query is in German, but the documents searched (docs
 * (English)) are in English; search again with English words]`: one line, bounded.
 */
export function renderLanguageNote(note: LanguageNote): string {
  const query = fitText(toSingleLine(note.queryLanguage), MAX_NOTE_TERM_CHARS);
  const documents = fitText(toSingleLine(note.documentLanguage), MAX_NOTE_QUERY_CHARS);
  const collections = fitText(toSingleLine(note.collections), MAX_NOTE_REASON_CHARS);
  return (
    `${LANGUAGE_NOTE_START}the query is in ${query}, but the documents searched (${collections}) are in ` +
    `${documents}; search again with ${documents} words]`
  );
}

/** `currentBody` (its stale weak footer stripped, right-trimmed) + `\n\n---\n` + the note line. */
export function appendNote(currentBody: string, note: string): string {
  return `${stripTrailingFooter(currentBody)}${CORRECTION_SEPARATOR}${note}`;
}

/**
 * `currentBody` (its stale weak footer stripped, right-trimmed) + `\n\n---\n` + note + `\n\n` +
 * `newHitsText`. Peel the trace marker before and re-append it after. `newHitsText` is the new
 * hits in the original's mode (renderHits), followed by the re-query's own footer after a blank
 * line when it has one, so the next grading pass sees the latest search's verdict.
 */
export function appendCorrection(currentBody: string, note: string, newHitsText: string): string {
  return `${stripTrailingFooter(currentBody)}${CORRECTION_SEPARATOR}${note}\n\n${newHitsText}`;
}

// A bounded view of a result text for grading: what a search says about itself sits at the top
// (hit headers, the no-results line, the banner) and at the very end (the footer), so a huge
// result is graded from its head and tail, in time that does not grow with its size.

/** Texts up to this many characters are graded whole. */
export const MAX_VIEW_CHARS = RESULT_LIMITS.gradedViewChars;
/** Of a larger text, this much of the end is kept (the footer and the last hits). */
const TAIL_CHARS = 32 * 1024;

export interface BoundedView {
  view: string;
  /** True when the view left out the middle of the text. */
  truncated: boolean;
}

/**
 * The text itself when it is small, else its head and tail, each cut at a line boundary (so no
 * doc-id line or header is split) and joined by a blank line.
 */
export function boundedView(text: string, max: number = MAX_VIEW_CHARS): BoundedView {
  if (text.length <= max) return { view: text, truncated: false };
  const tailChars = Math.min(TAIL_CHARS, Math.floor(max / 4));
  const headLimit = max - tailChars;
  const headCut = text.lastIndexOf("\n", headLimit);
  const headEnd = headCut > 0 ? headCut : headLimit;
  const tailFrom = text.length - tailChars;
  const tailCut = text.indexOf("\n", tailFrom);
  const tailStart = tailCut >= 0 ? tailCut + 1 : tailFrom;
  return { view: `${text.slice(0, headEnd)}\n\n${text.slice(tailStart)}`, truncated: true };
}

// What the merge needs to know about a result text it did not render: which mode its hits are
// in (so appended hits match) and how many hits it shows (so brief numbering continues).

/**
 * true for brief mode, false for full mode, undefined when the text has no hit. Read from the
 * first doc-id line: brief mode indents it (three spaces), full mode does not. Doc-id lines are
 * the one structure document text cannot forge in our renderer, unlike a `## ` or `1. **` line.
 */
export function detectBriefMode(text: string): boolean | undefined {
  let from = 0;
  while (from < text.length) {
    const at = text.indexOf(PREFIX, from);
    if (at < 0) return undefined;
    const lineStart = text.lastIndexOf("\n", at) + 1;
    let lineEnd = text.indexOf("\n", at);
    if (lineEnd < 0) lineEnd = text.length;
    if (parseDocIdLine(text.slice(lineStart, lineEnd))) return at > lineStart;
    from = at + PREFIX.length;
  }
  return undefined;
}

/** Doc-id lines in `text` (a fast native scan, for texts too large to parse line by line). */
export function countDocIdLines(text: string): number {
  let count = 0;
  let at = text.indexOf(SEPARATOR);
  while (at >= 0) {
    count++;
    at = text.indexOf(SEPARATOR, at + SEPARATOR.length);
  }
  return count;
}

// The signal grader's reading of a tool-result text: what the search said about itself, from
// the structure of the text alone (for results of searches that did not run in-process).

/** "empty": the search found nothing; "weak": it found something it is unsure of; null: neither. */
export type TextSignal = "empty" | "weak" | null;

export interface ResultTextScan {
  /** `collection/id` of every doc-id line, unique, in order. */
  docKeys: string[];
  /** Number of doc-id lines (a merged text may repeat none, but count them all). */
  hitCount: number;
  /** Highest relevance read from a hit header; undefined when no hit header carried one. */
  bestRelevance?: number;
  /** Hits whose header relevance could not be read (Huginn omits it when it has none). */
  hitsWithoutRelevance: number;
  hasNoResultsLine: boolean;
  /** The low-confidence banner opens the text (after Huginn's graph answer, if any). */
  lowConfidenceBanner: boolean;
  /** Corrective notes found (a `---` line followed by a `[corrective retrieval — …` line). */
  correctiveNotes: number;
}

/**
 * One linear pass over the lines of a result body (trace marker already peeled).
 *
 * A hit's relevance comes from its header line, and only from a header that belongs to a
 * doc-id line, so a header-shaped line in document text does not count:
 * - full mode (`## title (NN.N% relevant · band)`): the nearest `## ` line at most three lines
 *   above the doc-id line (header, URL, breadcrumb, doc-id) with no blank line in between;
 * - brief mode (`N. **title** … (NN.N% relevant · band)`): the first brief header since the
 *   previous doc-id line (the snippet, which may span lines, comes after it).
 * The first hit header in the text decides which of the two the text is written in; merged
 * texts keep one mode.
 */
export function scanResultText(body: string): ResultTextScan {
  const keys = new Set<string>();
  const fullRelevance: (number | undefined)[] = [];
  const briefRelevance: (number | undefined)[] = [];
  let mode: "full" | "brief" | undefined;
  let hasNoResultsLine = false;
  let lowConfidenceBanner = false;
  let correctiveNotes = 0;
  // Leading-block state for the banner: "start" (nothing yet), "graph" (inside a graph answer).
  let leading: "start" | "graph" | "done" = "start";
  let lastBlank = -1;
  let fullHeader: { index: number; relevance: number | undefined } | undefined;
  let briefHeader: { relevance: number | undefined } | undefined;
  let previousLine = "";

  const lines = body.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const raw = lines[index]!;
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.trim() === "") {
      lastBlank = index;
      previousLine = line;
      continue;
    }
    const isHeader = isHitHeaderStart(line);
    const docId = isHeader ? undefined : parseDocIdLine(line);

    if (leading !== "done") {
      if (isHeader || docId) leading = "done";
      else if (isLowConfidenceBanner(line)) {
        lowConfidenceBanner = true;
        leading = "done";
      } else if (leading === "start") leading = line.trim() === GRAPH_HEADING ? "graph" : "done";
    }

    if (isHeader) {
      const full = isFullHeader(line);
      mode ??= full ? "full" : "brief";
      const relevance = parseHeaderRelevance(line);
      if (full) fullHeader = { index, relevance };
      else briefHeader ??= { relevance };
    } else if (docId) {
      keys.add(docKey(docId));
      const fullApplies =
        fullHeader !== undefined && index - fullHeader.index <= 3 && lastBlank < fullHeader.index;
      fullRelevance.push(fullApplies ? fullHeader?.relevance : undefined);
      briefRelevance.push(briefHeader?.relevance);
      fullHeader = undefined;
      briefHeader = undefined;
    } else if (isNoResultsLine(line)) {
      hasNoResultsLine = true;
    } else if (line.startsWith(CORRECTIVE_NOTE_START) && previousLine === "---") {
      correctiveNotes++;
    }
    previousLine = line;
  }

  const relevances = mode === "brief" ? briefRelevance : fullRelevance;
  let bestRelevance: number | undefined;
  let hitsWithoutRelevance = 0;
  for (const relevance of relevances) {
    if (relevance === undefined) hitsWithoutRelevance++;
    else if (bestRelevance === undefined || relevance > bestRelevance) bestRelevance = relevance;
  }
  return {
    docKeys: [...keys],
    hitCount: relevances.length,
    bestRelevance,
    hitsWithoutRelevance,
    hasNoResultsLine,
    lowConfidenceBanner,
    correctiveNotes,
  };
}

/**
 * What a result text says about itself, after peeling the trace marker:
 * - "empty": no doc-id line at all and a `No results found for '…'` line. A rescued or merged
 *   text that has hits is not empty (docs/reference/muninn-corrective-retrieval.md limitation 11).
 * - "weak", when any of:
 *   - the trailing footer (last non-blank line) is `*Weak match…*` or `*No confident match…*`
 *     (a rescue marker is not weak);
 *   - the low-confidence banner opens the text and no corrective note has been appended since
 *     (the banner describes the original search; after a merge the merged set speaks);
 *   - hits are present, every hit's header relevance was read, and the best is below 45%
 *     (Huginn renders no footer for a weak response without hints: docs/reference/muninn-corrective-retrieval.md limitation 10).
 * - null otherwise, including for empty input and for error texts.
 */
export function classifyTextSignal(text: string): TextSignal {
  return classifyBody(peelTraceMarker(text).body).signal;
}

/** classifyTextSignal's work on an already peeled body, with the scan and footer it used. */
export function classifyBody(body: string): {
  signal: TextSignal;
  scan: ResultTextScan;
  footer: ReturnType<typeof extractTrailingFooter>;
} {
  const scan = scanResultText(body);
  const footer = extractTrailingFooter(body);
  let signal: TextSignal = null;
  if (scan.hitCount === 0 && scan.hasNoResultsLine) signal = "empty";
  else if (footer.kind === "weak" || footer.kind === "no-confident") signal = "weak";
  else if (scan.lowConfidenceBanner && scan.correctiveNotes === 0) signal = "weak";
  else if (
    scan.hitCount > 0 &&
    scan.hitsWithoutRelevance === 0 &&
    scan.bestRelevance !== undefined &&
    scan.bestRelevance < WEAK_BEST_SCORE
  ) {
    signal = "weak";
  }
  return { signal, scan, footer };
}

/** What a result body (trace marker peeled) says of itself, read in one scan. */
export interface BodyReading {
  signal: TextSignal;
  scan: ResultTextScan;
  /** Retry hints from the trailing footer only; `{}` when there is none. */
  hints: RetryHints;
  /** `collection/id` of every hit in the text, in order, for deduping re-query hits. */
  docKeys: string[];
}

/** The body's signal, its scan, its hits' keys and the footer's retry hints. */
export function readResultBody(body: string): BodyReading {
  const { signal, scan, footer } = classifyBody(body);
  return { signal, scan, hints: parseFooterHints(footer.footer), docKeys: scan.docKeys };
}

// Retry hints read back from a footer line. Only ever given the trailing footer (see
// extractTrailingFooter): a document must not be able to steer a re-query.

const RELATED = "related terms: ";
const NARROWER = 'narrower query: "';
const BROADER = 'broader query: "';

/**
 * The hints in a weak or no-confident footer line; `{}` for anything else (a rescue marker, our
 * bare `*Weak match.*`, a line that is not a footer). Strategies are not in the text, so they
 * are never set.
 *
 * The bits always come in the order related terms · narrower · broader, and queries are written
 * between double quotes without escaping, so a query may itself contain `"` or ` · `. We split:
 * - related terms end at the first ` · narrower query: "` or ` · broader query: "`, and are
 *   split on `, ` (a term containing `, ` cannot be told apart and is split);
 * - the narrower query ends at the LAST `" · broader query: "` (or at the closing quote), so it
 *   may contain quotes and ` · `; a narrower query that itself contains `" · broader query: "`
 *   is the one case we cannot recover and is split there;
 * - the broader query runs to the closing quote before the final `*`.
 * A query bit without its closing quote (a truncated footer) is dropped.
 */
export function parseFooterHints(footer: string): RetryHints {
  const line = footer.trim();
  const kind = classifyFooterLine(line);
  if (kind !== "weak" && kind !== "no-confident") return {};
  // The hints start right after `*<prefix> — try: `; any other wording carries none.
  const tryAt = 1 + (kind === "weak" ? WEAK_MATCH : NO_CONFIDENT_MATCH).length;
  if (!line.startsWith(TRY_SEPARATOR, tryAt)) return {};
  let rest = line.slice(tryAt + TRY_SEPARATOR.length, -1); // without the closing `*`
  const hints: RetryHints = {};

  if (rest.startsWith(RELATED)) {
    const end = firstOf(rest, [BIT_SEPARATOR + NARROWER, BIT_SEPARATOR + BROADER]);
    const terms = rest
      .slice(RELATED.length, end < 0 ? rest.length : end)
      .split(", ")
      .map((term) => term.trim())
      .filter((term) => term !== "");
    if (terms.length > 0) hints.relatedTerms = terms;
    rest = end < 0 ? "" : rest.slice(end + BIT_SEPARATOR.length);
  }

  if (rest.startsWith(NARROWER)) {
    const boundary = rest.lastIndexOf(`"${BIT_SEPARATOR}${BROADER}`);
    if (boundary >= NARROWER.length) {
      setQuery(hints, "narrowerQuery", rest.slice(NARROWER.length, boundary + 1));
      rest = rest.slice(boundary + 1 + BIT_SEPARATOR.length);
    } else {
      setQuery(hints, "narrowerQuery", rest.slice(NARROWER.length));
      rest = "";
    }
  }

  if (rest.startsWith(BROADER)) setQuery(hints, "broaderQuery", rest.slice(BROADER.length));
  return hints;
}

// `quoted` is the query followed by its closing quote; a missing quote means a truncated bit.
function setQuery(hints: RetryHints, key: "narrowerQuery" | "broaderQuery", quoted: string): void {
  if (!quoted.endsWith('"')) return;
  const query = quoted.slice(0, -1).trim();
  if (query !== "") hints[key] = query;
}

function firstOf(text: string, needles: string[]): number {
  let best = -1;
  for (const needle of needles) {
    const at = text.indexOf(needle);
    if (at >= 0 && (best < 0 || at < best)) best = at;
  }
  return best;
}
