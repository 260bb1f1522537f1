// The signal grader's reading of a tool-result text: what the search said about itself, from
// the structure of the text alone (for results of searches that did not run in-process).

import type { RetryHints } from "../types.js";
import { WEAK_BEST_SCORE } from "../weakness.js";
import { CORRECTIVE_NOTE_START } from "./corrective-note.js";
import { docKey, parseDocIdLine } from "./doc-id-line.js";
import { extractTrailingFooter } from "./footer.js";
import { parseFooterHints } from "./footer-hints.js";
import { GRAPH_HEADING, isLowConfidenceBanner, isNoResultsLine } from "./preamble.js";
import { isFullHeader, isHitHeaderStart, parseHeaderRelevance } from "./relevance-text.js";
import { peelTraceMarker } from "./trace-marker.js";

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
