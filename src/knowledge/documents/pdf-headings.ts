// Which PDF rows are headings when the file has no outline (docs/reference/vectorless-strategies.md §2.4.3): font sizes
// clearly above the body size become levels (largest = 1), bold body-size rows sit one level
// below them, and a numbered prefix ("3.1.2") deepens the level.
import type { PdfRow } from "./pdf-rows.js";

const HEADING_SIZE_RATIO = 1.2;
const MAX_LEVEL = 6;
const MAX_HEADING_WORDS = 25;
const MAX_HEADING_CHARS = 200;

/** The heading level of every row (0 = body text), in row order. */
export function headingLevels(rows: readonly PdfRow[]): number[] {
  if (rows.length === 0) return [];
  const sizes = rows.map((r) => r.size).sort((a, b) => a - b);
  const median = sizes[Math.floor(sizes.length / 2)]!;
  const floor = HEADING_SIZE_RATIO * median;
  const headingSizes = [...new Set(rows.filter((r) => r.size > floor).map((r) => roundHalf(r.size)))].sort(
    (a, b) => b - a,
  );
  const levelBySize = new Map(headingSizes.map((size, i) => [size, Math.min(i + 1, MAX_LEVEL)]));
  const boldLevel = Math.min(headingSizes.length + 1, MAX_LEVEL);

  return rows.map((row) => {
    let level = 0;
    if (row.size > floor) level = levelBySize.get(roundHalf(row.size)) ?? 0;
    else if (row.bold && row.size >= median) level = boldLevel;
    if (level === 0 || !looksLikeHeading(row.text)) return 0;
    const numbered = /^(\d+(?:\.\d+)+)\.?\s/.exec(row.text);
    if (numbered) level = Math.min(MAX_LEVEL, Math.max(level, level + numbered[1]!.split(".").length - 1));
    return level;
  });
}

/** A heading is short and does not read as the start of a running sentence. */
export function looksLikeHeading(text: string): boolean {
  const words = text.split(/\s+/).filter(Boolean).length;
  return words >= 1 && words <= MAX_HEADING_WORDS && text.length <= MAX_HEADING_CHARS && !/[,;]$/.test(text);
}

function roundHalf(size: number): number {
  return Math.round(size * 2) / 2;
}
