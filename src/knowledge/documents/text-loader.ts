import { rejoinLineBreaks } from "./hyphenation.js";
import type { ParsedDocument } from "./loaded-document.js";
import { manPageToken } from "./page-chrome.js";
import { tidyLines } from "./plain-text.js";
import { buildSections, type SectionBucket } from "./section-tree.js";
import { withoutTerminalFormatting } from "./terminal-text.js";

/** A first line longer than this reads as prose, not as a title. */
const MAX_TITLE_CHARS = 80;
/** Paragraphs are grouped into sections up to about this size (oversized ones are split later). */
const SECTION_TARGET_CHARS = 1000;

/**
 * Plain text to sections. Plain text has no reliable headings, so sections are consecutive
 * blank-line-separated paragraphs grouped up to a target size; all are level 0 under the
 * title. Title: the first non-empty line when it is short (it is then not repeated in the
 * content, unless it is all the file holds: a one-line note is its own content, or no search
 * could find it) unless it is a manual page's running header (manualPage), else the file name.
 * Line breaks inside a paragraph are kept: plain text is often laid out by hand (lists, addresses).
 */
export function parseText(source: string, fileTitle: string): ParsedDocument {
  // Text laid out in lines (a manual page, a PDF saved as text) has words broken at line ends;
  // text saved from a terminal, overstrikes and escape sequences inside words.
  const text = rejoinLineBreaks(tidyLines(withoutTerminalFormatting(source)));
  const manual = manualPage(text);
  if (manual) {
    const title = manual.title || fileTitle;
    return { title, sections: buildSections(title, paragraphBuckets(manual.body)) };
  }
  const firstLine = text.split("\n", 1)[0]?.trim() ?? "";
  const titleFromLine = firstLine !== "" && firstLine.length <= MAX_TITLE_CHARS;
  const title = titleFromLine ? firstLine : fileTitle;
  const rest = titleFromLine
    ? text.slice(text.indexOf("\n") === -1 ? text.length : text.indexOf("\n") + 1)
    : text;
  const body = rest.trim() === "" ? text : rest;
  return { title, sections: buildSections(title, paragraphBuckets(body)) };
}

/**
 * A manual page saved as text: its running header (and the footer ending with the same
 * `NAME(1)`) are dropped, and the title is the NAME section's line ("passwd - change user
 * password"), the first indented line after the header; "" when it has none that is short.
 */
function manualPage(text: string): { title: string; body: string } | undefined {
  const firstEnd = text.indexOf("\n");
  const token = manPageToken(firstEnd === -1 ? text : text.slice(0, firstEnd));
  if (token === undefined) return undefined;
  const lines = text.split("\n");
  let last = lines.length - 1;
  while (last > 0 && lines[last]!.trim() === "") last--;
  const end = last > 0 && lines[last]!.trim().endsWith(token) ? last : lines.length;
  const body = lines.slice(1, end);
  const named = body.find((line) => /^\s+\S/.test(line))?.trim() ?? "";
  return { title: named.length <= MAX_TITLE_CHARS ? named : "", body: body.join("\n") };
}

function paragraphBuckets(body: string): SectionBucket[] {
  const paragraphs = body
    .split(/\n[ \t]*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== "");
  const buckets: SectionBucket[] = [];
  let group: string[] = [];
  let size = 0;
  for (const paragraph of paragraphs) {
    if (group.length > 0 && size + 2 + paragraph.length > SECTION_TARGET_CHARS) {
      buckets.push({ level: 0, content: group.join("\n\n") });
      group = [];
      size = 0;
    }
    size += (group.length > 0 ? 2 : 0) + paragraph.length;
    group.push(paragraph);
  }
  if (group.length > 0) buckets.push({ level: 0, content: group.join("\n\n") });
  return buckets;
}
