// What Huginn writes before the hits (a graph answer, the low-confidence banner) or instead of
// them (the no-results line). Rendering and recognition live together so they cannot drift.
import type { SearchResponse } from "../types.js";
import { toSingleLine, untrustedText } from "./untrusted-text.js";

export const GRAPH_HEADING = "**Graph:**";
export const LOW_CONFIDENCE_BANNER = "*Low confidence results — query may not match indexed content well.*";
const NO_RESULTS_START = "No results found for '";

/**
 * The blocks above the hits, each ending with its own newline as Huginn writes them (so joining
 * them with a blank line leaves two empty lines between blocks).
 */
export function renderPreambleBlocks(response: SearchResponse): string[] {
  const blocks: string[] = [];
  if (response.graphAnswer) blocks.push(`${GRAPH_HEADING}\n${untrustedText(response.graphAnswer)}\n`);
  if (response.lowConfidence) blocks.push(`${LOW_CONFIDENCE_BANNER}\n`);
  return blocks;
}

/** `No results found for '<query>'.`, or `… (low confidence).` when `lowConfidence` is set. */
export function renderNoResultsLine(response: Pick<SearchResponse, "query" | "lowConfidence">): string {
  const low = response.lowConfidence ? " (low confidence)" : "";
  return `${NO_RESULTS_START}${toSingleLine(response.query)}'${low}.`;
}

/** A no-results line (leading whitespace allowed). The query itself may contain anything. */
export function isNoResultsLine(line: string): boolean {
  const trimmed = line.trim();
  return (
    trimmed.startsWith(NO_RESULTS_START) &&
    (trimmed.endsWith("'.") || trimmed.endsWith("' (low confidence)."))
  );
}

/** The low-confidence banner (any wording after `*Low confidence results — `). */
export function isLowConfidenceBanner(line: string): boolean {
  const trimmed = line.trim();
  return trimmed.startsWith("*Low confidence results — ") && trimmed.endsWith("*");
}
