// The tool-result text of one search (docs/design.md §4): Huginn's MCP adapter format, so a bot can
// switch between the embedded engine and a Huginn server, and the signal grader reads either; the
// response's hits, then each hit in brief or full mode.

import type { Hit, SearchResponse } from "../types.js";
import { renderPageRange } from "./page-range.js";
import { renderNoResultsLine, renderPreambleBlocks } from "./preamble.js";
import { renderQuoteLine } from "./quote-line.js";
import { renderRelevanceFragment } from "./relevance-text.js";
import { renderDocIdLine, renderFooter } from "./result-text.js";
import { toSingleLine, untrustedText } from "./untrusted-text.js";

export interface RenderOptions {
  /** Brief mode: numbered hits with one snippet each; full mode: `##` headers with chunks. */
  brief: boolean;
}

export interface RenderHitsOptions extends RenderOptions {
  /**
   * The number of the first hit in brief mode (default 1). When hits are appended to a result
   * that is already on screen (a corrective re-query), pass the number of hits above plus one:
   * numbering continues, so "result 3" means one thing in the merged text.
   */
  startIndex?: number;
}

/**
 * The whole text: preamble blocks, hits, then the footer after a blank line. With no hits and no
 * graph answer, the no-results line replaces them. No trace marker: that belongs to a transport.
 */
export function renderSearchResponse(response: SearchResponse, options: RenderOptions): string {
  const footer = renderFooter(response);
  const withFooter = (text: string): string => (footer ? `${text}\n\n${footer}` : text);
  if (response.results.length === 0 && !response.graphAnswer) {
    return withFooter(renderNoResultsLine(response));
  }
  const parts = renderPreambleBlocks(response);
  if (response.results.length > 0) parts.push(renderHits(response.results, options));
  return withFooter(parts.join("\n\n"));
}

/** Hits only, separated by blank lines: for appending the new hits of a re-query. */
export function renderHits(hits: readonly Hit[], options: RenderHitsOptions): string {
  const start = options.startIndex ?? 1;
  return hits
    .map((hit, i) => (options.brief ? renderBriefHit(hit, start + i) : renderFullHit(hit)))
    .join("\n\n");
}

export { renderFooter };

// One hit, rendered exactly as Huginn's MCP adapter does (docs/reference/huginn-search-contract.md §4), in brief or full
// mode. Document text goes through untrustedText; single-line fields through toSingleLine (both
// escape as escapeUntrusted does, untrusted-text.ts).

/** Metadata keys that are internal to the source system and never shown (Huginn's list). */
export const HIDDEN_METADATA_KEYS: ReadonlySet<string> = new Set([
  "page_id",
  "space",
  "breadcrumb",
  "title",
  "wip",
]);
/** Marks a work-in-progress Confluence page (`metadata.wip === "true"`). */
export const WIP_MARKER = " **[UNDER ARBEID]**";
const BRIEF_INDENT = "   ";

/**
 * Brief mode: `N. **title** > heading **[UNDER ARBEID]** (NN.N% relevant · band) | YYYY-MM-DD`,
 * then, indented three spaces: URL, breadcrumb, snippet, graph context, metadata, doc-id line,
 * and the pages (`p. 3`, `pp. 3–5`) of a hit from a paged document (not in Huginn's format;
 * after the doc-id line so every Huginn line keeps its place).
 * Unlike Huginn we leave out the URL and snippet lines when they are empty (Huginn writes a line
 * of three spaces, which tells the model nothing).
 */
export function renderBriefHit(hit: Hit, index: number): string {
  const heading = hit.heading ? ` > ${toSingleLine(hit.heading)}` : "";
  const date = hit.modifiedTime ? ` | ${dateOf(hit.modifiedTime)}` : "";
  const lines = [
    `${index}. **${toSingleLine(hit.title)}**${heading}${wipMarker(hit)}${relevanceOf(hit)}${date}`,
  ];
  if (hit.url) lines.push(BRIEF_INDENT + toSingleLine(hit.url));
  if (hit.breadcrumb) lines.push(BRIEF_INDENT + toSingleLine(hit.breadcrumb));
  if (hit.snippet) lines.push(BRIEF_INDENT + untrustedText(hit.snippet));
  const context = graphContextLine(hit);
  if (context) lines.push(BRIEF_INDENT + context);
  const metadata = metadataLine(hit);
  if (metadata) lines.push(BRIEF_INDENT + metadata);
  lines.push(BRIEF_INDENT + renderDocIdLine(hit));
  const pages = renderPageRange(hit.pages);
  if (pages) lines.push(BRIEF_INDENT + pages);
  const quote = renderQuoteLine(hit);
  if (quote) lines.push(BRIEF_INDENT + quote);
  return lines.join("\n");
}

/**
 * Full mode: `## title **[UNDER ARBEID]** (NN.N% relevant · band) | updated: YYYY-MM-DD`, then
 * URL, breadcrumb, doc-id line, pages (`p. 3` / `pp. 3–5`, ours, only for paged documents), the
 * supporting quote (ours, with `retrieval.answerSpans`) and graph context, a blank line, and the body: each chunk as
 * `**heading**` + content, then the visible metadata line, separated by blank lines.
 *
 * Our Hit carries metadata once per hit, not per chunk as Huginn's matchedChunks do, so the
 * metadata line is written once, after the last chunk (which is where Huginn writes it for the
 * usual single-chunk hit). A hit without chunks uses its heading and snippet as the body; a hit
 * with no body at all ends at its header block (Huginn would leave a dangling blank line).
 */
export function renderFullHit(hit: Hit): string {
  const date = hit.modifiedTime ? ` | updated: ${dateOf(hit.modifiedTime)}` : "";
  const lines = [`## ${toSingleLine(hit.title)}${wipMarker(hit)}${relevanceOf(hit)}${date}`];
  if (hit.url) lines.push(toSingleLine(hit.url));
  if (hit.breadcrumb) lines.push(toSingleLine(hit.breadcrumb));
  lines.push(renderDocIdLine(hit));
  const pages = renderPageRange(hit.pages);
  if (pages) lines.push(pages);
  const quote = renderQuoteLine(hit);
  if (quote) lines.push(quote);
  const context = graphContextLine(hit);
  if (context) lines.push(context);
  const header = lines.join("\n");

  const body: string[] = [];
  const chunks = hit.chunks && hit.chunks.length > 0 ? hit.chunks : undefined;
  if (chunks) {
    for (const chunk of chunks) {
      if (chunk.heading) body.push(`**${toSingleLine(chunk.heading)}**`);
      if (chunk.content) body.push(untrustedText(chunk.content));
    }
  } else if (hit.snippet) {
    if (hit.heading) body.push(`**${toSingleLine(hit.heading)}**`);
    body.push(untrustedText(hit.snippet));
  }
  const metadata = metadataLine(hit);
  if (metadata) body.push(metadata);
  return body.length > 0 ? `${header}\n\n${body.join("\n\n")}` : header;
}

function relevanceOf(hit: Hit): string {
  return Number.isFinite(hit.relevance) ? renderRelevanceFragment(hit.relevance, hit.band) : "";
}

function wipMarker(hit: Hit): string {
  return hit.metadata?.wip === "true" ? WIP_MARKER : "";
}

// Huginn prints the first ten characters of the ISO timestamp.
function dateOf(modifiedTime: string): string {
  return modifiedTime.slice(0, 10);
}

function graphContextLine(hit: Hit): string {
  const context = (hit.graphContext ?? []).filter((entry) => entry !== "");
  return context.length > 0 ? `*${context.map(toSingleLine).join(" | ")}*` : "";
}

function metadataLine(hit: Hit): string {
  if (!hit.metadata) return "";
  const visible = Object.entries(hit.metadata).filter(
    ([key, value]) => !HIDDEN_METADATA_KEYS.has(key) && value,
  );
  if (visible.length === 0) return "";
  return `*${visible.map(([key, value]) => `${toSingleLine(key)}: ${toSingleLine(String(value))}`).join(" | ")}*`;
}
