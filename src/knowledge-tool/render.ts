// The tool-result text of one search (docs/design.md §4): Huginn's MCP adapter format, so a bot can
// switch between the embedded engine and a Huginn server, and the signal grader reads either.
import type { Hit, SearchResponse } from "../types.js";
import { renderFooter } from "./footer.js";
import { renderBriefHit, renderFullHit } from "./hit.js";
import { renderNoResultsLine, renderPreambleBlocks } from "./preamble.js";

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
