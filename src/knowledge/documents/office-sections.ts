// What the Office, OpenDocument, EPUB and delimited-table readers share: the bounds on what one
// file may yield, the writer that turns their paragraphs, list items and table rows into section
// buckets with the same shape of plain text the other loaders emit, and how a sheet's rows are
// cut into sections.

import { collapseWhitespace } from "./plain-text.js";
import type { SectionBucket } from "./section-tree.js";
import { DEFAULT_MAX_SECTION_CHARS } from "./split-oversized.js";

/** Rows read from one sheet; later rows are not indexed (a sheet this long is data, not prose). */
export const MAX_SHEET_ROWS = 10_000;
/** Cells read from one row. */
export const MAX_ROW_CELLS = 256;
/** Characters kept of one cell. */
export const MAX_CELL_CHARS = 2_000;
/** Sheets, slides or chapters read from one file. */
export const MAX_PARTS = 2_000;
/** A repeat count (OpenDocument's `number-rows-repeated`, `text:s c=`) is read as at most this. */
export const MAX_REPEAT = 1_000;
/** A sheet's first row is repeated atop each of its sections when at most this long (sheetSections). */
export const MAX_REPEATED_HEADER_CHARS = Math.floor(DEFAULT_MAX_SECTION_CHARS / 4);

export type BlockKind = "paragraph" | "item" | "row";

/** Document-order buckets: headings open one, blocks fill it. */
export class SectionWriter {
  private readonly buckets: SectionBucket[] = [];
  private current: SectionBucket = { level: 0, content: "" };
  private lastKind: BlockKind | undefined;

  heading(level: number, text: string): void {
    const heading = collapseWhitespace(text);
    if (heading === "") return;
    this.closeBucket();
    this.current = { level: Math.min(6, Math.max(1, level)), heading, content: "" };
  }

  /** A paragraph, list item or table row; consecutive items or rows are joined by one newline. */
  block(text: string, kind: BlockKind = "paragraph"): void {
    const tidy = tidyBlock(text);
    if (tidy === "") return;
    if (this.current.content !== "") {
      this.current.content += kind !== "paragraph" && kind === this.lastKind ? "\n" : "\n\n";
    }
    this.current.content += kind === "item" ? `- ${tidy}` : tidy;
    this.lastKind = kind;
  }

  finish(): SectionBucket[] {
    this.closeBucket();
    return this.buckets;
  }

  private closeBucket(): void {
    if (this.current.heading !== undefined || this.current.content !== "") this.buckets.push(this.current);
    this.current = { level: 0, content: "" };
    this.lastKind = undefined;
  }
}

/** Runs of spaces collapsed line by line; line breaks the document makes (`<w:br/>`) kept. */
export function tidyBlock(text: string): string {
  return text
    .split("\n")
    .map((line) => collapseWhitespace(line))
    .filter((line) => line !== "")
    .join("\n");
}

/** One cell's text for a row line: one line, clipped. */
export function cellText(text: string): string {
  const flat = collapseWhitespace(text);
  return flat.length > MAX_CELL_CHARS ? `${flat.slice(0, MAX_CELL_CHARS)}…` : flat;
}

/** A row as one line: cells joined by " | ", trailing empty cells dropped; "" for an empty row. */
export function rowLine(cells: readonly string[]): string {
  let end = cells.length;
  while (end > 0 && cells[end - 1] === "") end--;
  return end === 0 ? "" : cells.slice(0, end).join(" | ");
}

/** A repeat count from an attribute, within 1..MAX_REPEAT. */
export function repeatCount(value: string | undefined): number {
  const n = Number.parseInt(value ?? "1", 10);
  return Number.isFinite(n) && n > 1 ? Math.min(n, MAX_REPEAT) : 1;
}

/**
 * A sheet's rows (each one line, rowLine) in sections of about a section's size, each headed by
 * the sheet's name and opening with its first row again: a hit on row 4,000 reads with its column
 * names ("Product | Price" above "Gadget | 3,00"), as a table's reader needs them. A first row is
 * a table's header by custom (RFC 4180's optional header line, a spreadsheet's frozen top row);
 * where it is data, it is one line repeated per part, as a heading is. Used for Excel and
 * OpenDocument sheets and for .csv/.tsv files alike.
 */
export function sheetSections(name: string, rows: readonly string[]): SectionBucket[] {
  const writer = new SectionWriter();
  const [header, ...body] = rows;
  if (header === undefined) {
    // An empty sheet is still its name.
    writer.heading(1, name);
    return writer.finish();
  }
  writer.heading(1, name);
  writer.block(header, "row");
  // A first row too wide to name the others briefly (free text, not column names) is not repeated:
  // it would crowd out the rows it heads.
  const repeated = header.length <= MAX_REPEATED_HEADER_CHARS ? header : undefined;
  // Room for the rows of one part once the header line is in it.
  const room = Math.max(1, DEFAULT_MAX_SECTION_CHARS - (repeated === undefined ? 0 : repeated.length + 1));
  const openPart = () => {
    writer.heading(1, name);
    if (repeated !== undefined) writer.block(repeated, "row");
  };
  let size = repeated === undefined ? header.length + 1 : 0;
  for (const line of body) {
    if (size > 0 && size + line.length + 1 > room) {
      openPart();
      size = 0;
    }
    writer.block(line, "row");
    size += line.length + 1;
  }
  return writer.finish();
}
