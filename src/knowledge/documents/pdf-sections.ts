// PDF rows → sections with page ranges. Rows between two headings form a section's body; a
// section's pages are those of its heading row and body rows, and an oversized body is split
// at word boundaries with each part's pages re-derived from where its text came from (the
// reference gives every part the whole leaf's range, which cites pages a part never touches).
import type { DocSection } from "../../types.js";
import { documentWords, endsInHyphen, rejoinAcross } from "./hyphenation.js";
import type { PdfRow } from "./pdf-rows.js";
import { buildSections, type SectionBucket } from "./section-tree.js";
import { splitContent } from "./split-oversized.js";

/** A vertical gap above this many font sizes starts a new paragraph. */
const PARAGRAPH_GAP_RATIO = 1.8;

interface PagedBucket extends SectionBucket {
  pages: { start: number; end: number };
  /** Where each page's text starts in `content` (ascending offsets). */
  pageMarks: { offset: number; page: number }[];
  /**
   * The rows' text and separators, joined into `content` once every row is in: the last one is
   * read and rewritten when the next row completes a word broken at its end, and a string
   * appended to row by row would be copied whole at each such read.
   */
  parts: string[];
  /** The characters in `parts`. */
  length: number;
}

/** A new section at `page` (a heading row's, or the preamble's without a heading), appended. */
function startBucket(buckets: PagedBucket[], page: number, level: number, heading?: string): PagedBucket {
  const bucket: PagedBucket = {
    level,
    ...(heading !== undefined ? { heading } : {}),
    content: "",
    pages: { start: page, end: page },
    pageMarks: [],
    parts: [],
    length: 0,
  };
  buckets.push(bucket);
  return bucket;
}

/**
 * Sections for the rows, given each heading row's level (row index → level 1–6). Text before
 * the first heading is a level-0 preamble; a document with no heading at all is one section
 * titled "Document" spanning every page seen (docs/reference/vectorless-strategies.md §2.4.3).
 */
export function pdfSections(
  title: string,
  rows: readonly PdfRow[],
  headingLevels: ReadonlyMap<number, number>,
  maxSectionChars: number,
): DocSection[] {
  const buckets: PagedBucket[] = [];
  let current: PagedBucket | undefined;
  let previous: PdfRow | undefined;
  // The document's words are read only when some row ends in a hyphen (most PDFs: none).
  const words = rows.some((row) => endsInHyphen(row.text))
    ? documentWords(rows.map((row) => row.text))
    : new Set<string>();
  rows.forEach((row, i) => {
    const level = headingLevels.get(i);
    if (level !== undefined) {
      current = startBucket(buckets, row.page, level, row.text);
      previous = undefined;
      return;
    }
    current ??= startBucket(buckets, row.page, 0);
    appendRow(current, row, previous, words);
    previous = row;
  });
  if (headingLevels.size === 0 && buckets.length === 1) {
    Object.assign(buckets[0]!, { level: 1, heading: "Document" });
  }

  for (const bucket of buckets) bucket.content = bucket.parts.join("");
  const kept = buckets.filter((b) => b.level > 0 || b.content !== "");
  // buildSections maps buckets one to one once empty preambles are gone, so pages line up.
  const sections = buildSections(title, kept);
  const out: DocSection[] = [];
  sections.forEach((section, i) => {
    const bucket = kept[i]!;
    const parts =
      bucket.content.length > maxSectionChars ? splitContent(bucket.content, maxSectionChars) : [];
    if (parts.length < 2) {
      out.push({ ...section, pages: { ...bucket.pages } });
      return;
    }
    let cursor = 0;
    parts.forEach((part, p) => {
      const at = bucket.content.indexOf(part, cursor);
      const start = at < 0 ? cursor : at;
      cursor = start + part.length;
      const first = pageAt(bucket, start);
      const last = pageAt(bucket, Math.max(start, cursor - 1));
      // The heading row belongs to the first part only.
      const pages = { start: p === 0 ? Math.min(bucket.pages.start, first) : first, end: last };
      out.push({ ...section, headingPath: [...section.headingPath], content: part, pages });
    });
  });
  return out;
}

function appendRow(
  bucket: PagedBucket,
  row: PdfRow,
  previous: PdfRow | undefined,
  words: ReadonlySet<string>,
): void {
  let separator = "";
  let text = row.text;
  if (bucket.length > 0) {
    if (!previous || previous.page !== row.page) separator = "\n";
    else separator = previous.y - row.y > PARAGRAPH_GAP_RATIO * Math.max(row.size, 1) ? "\n\n" : " ";
    // A word the typesetter broke at the previous row's end (on this page or the last) is whole.
    const last = bucket.parts.length - 1;
    const joined =
      previous && separator !== "\n\n" ? rejoinAcross(bucket.parts[last]!, text, words) : undefined;
    if (joined) {
      bucket.length += joined.line.length - bucket.parts[last]!.length;
      bucket.parts[last] = joined.line;
      text = joined.next;
    }
  }
  if (text !== "") {
    if (separator !== "") bucket.parts.push(separator);
    bucket.length += separator.length;
    const lastMark = bucket.pageMarks[bucket.pageMarks.length - 1];
    if (!lastMark || lastMark.page !== row.page)
      bucket.pageMarks.push({ offset: bucket.length, page: row.page });
    bucket.parts.push(text);
    bucket.length += text.length;
  }
  bucket.pages.start = Math.min(bucket.pages.start, row.page);
  bucket.pages.end = Math.max(bucket.pages.end, row.page);
}

function pageAt(bucket: PagedBucket, offset: number): number {
  let page = bucket.pageMarks[0]?.page ?? bucket.pages.start;
  for (const mark of bucket.pageMarks) {
    if (mark.offset > offset) break;
    page = mark.page;
  }
  return page;
}
