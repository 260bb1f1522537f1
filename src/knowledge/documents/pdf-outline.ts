// Sections from a PDF's bookmarks (docs/reference/vectorless-strategies.md §2.4.2): each outline entry is matched to the
// first row, at or after the previous match, whose text starts with the entry's title.
import type { PdfRow } from "./pdf-rows.js";

export interface PdfOutlineEntry {
  title: string;
  /** 1-based depth in the outline, capped at 6. */
  level: number;
  /** The page the bookmark points at, when pdf.js could resolve it. */
  page?: number;
}

const MAX_LEVEL = 6;

/** A match of outline entries to rows: row index → heading level, or undefined when too few matched. */
export function matchOutline(
  entries: readonly PdfOutlineEntry[],
  rows: readonly PdfRow[],
): Map<number, number> | undefined {
  if (entries.length === 0) return undefined;
  const normalisedRows = rows.map((r) => normaliseTitle(r.text));
  const matched = new Map<number, number>();
  let cursor = 0;
  for (const entry of entries) {
    const title = normaliseTitle(entry.title);
    if (title === "") continue;
    // The bookmark's own page, when known, is where its heading must be: a title repeated in a
    // running header or a table of contents earlier in the file must not capture the match.
    for (let i = cursor; i < rows.length; i++) {
      if (entry.page !== undefined && rows[i]!.page < entry.page) continue;
      if (normalisedRows[i]!.startsWith(title)) {
        matched.set(i, Math.min(Math.max(entry.level, 1), MAX_LEVEL));
        cursor = i + 1;
        break;
      }
    }
  }
  // Reference rule: fewer than half of the entries found means the outline does not describe
  // this text layer (renamed bookmarks, scanned pages); the font heuristics do better then.
  return matched.size * 2 >= entries.length ? matched : undefined;
}

/** Lowercase, letters and digits only, single spaces: how titles and rows are compared. */
export function normaliseTitle(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}
