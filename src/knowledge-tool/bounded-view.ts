// A bounded view of a result text for grading: what a search says about itself sits at the top
// (hit headers, the no-results line, the banner) and at the very end (the footer), so a huge
// result is graded from its head and tail, in time that does not grow with its size.

import { RESULT_LIMITS } from "../limits.js";

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
