// What the Office, OpenDocument and EPUB readers share: the bounds on what one file may yield,
// and the writer that turns their paragraphs, list items and table rows into section buckets
// with the same shape of plain text the other loaders emit.

import { collapseWhitespace } from "./plain-text.js";
import type { SectionBucket } from "./section-tree.js";

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
