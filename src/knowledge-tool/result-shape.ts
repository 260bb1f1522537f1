// What the merge needs to know about a result text it did not render: which mode its hits are
// in (so appended hits match) and how many hits it shows (so brief numbering continues).
import { parseDocIdLine } from "./doc-id-line.js";

const DOC_ID_START = "collection: `";
const DOC_ID_SEPARATOR = "` doc_id: `";

/**
 * true for brief mode, false for full mode, undefined when the text has no hit. Read from the
 * first doc-id line: brief mode indents it (three spaces), full mode does not. Doc-id lines are
 * the one structure document text cannot forge in our renderer, unlike a `## ` or `1. **` line.
 */
export function detectBriefMode(text: string): boolean | undefined {
  let from = 0;
  while (from < text.length) {
    const at = text.indexOf(DOC_ID_START, from);
    if (at < 0) return undefined;
    const lineStart = text.lastIndexOf("\n", at) + 1;
    let lineEnd = text.indexOf("\n", at);
    if (lineEnd < 0) lineEnd = text.length;
    if (parseDocIdLine(text.slice(lineStart, lineEnd))) return at > lineStart;
    from = at + DOC_ID_START.length;
  }
  return undefined;
}

/** Doc-id lines in `text` (a fast native scan, for texts too large to parse line by line). */
export function countDocIdLines(text: string): number {
  let count = 0;
  let at = text.indexOf(DOC_ID_SEPARATOR);
  while (at >= 0) {
    count++;
    at = text.indexOf(DOC_ID_SEPARATOR, at + DOC_ID_SEPARATOR.length);
  }
  return count;
}
