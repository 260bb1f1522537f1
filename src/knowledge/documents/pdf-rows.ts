// Text rows of one PDF page, rebuilt from pdf.js text items (docs/reference/vectorless-strategies.md §2.4.1): items on the
// same baseline (within 2 pt) form a row, rows run top to bottom and items left to right.

/** One pdf.js text item, reduced to what row building reads. */
export interface PdfTextItem {
  str: string;
  /** pdf.js transform [a, b, c, d, x, y]: the font size is the vertical scale. */
  transform: readonly number[];
  width: number;
  fontName: string;
}

export interface PdfRow {
  /** 1-based page number. */
  page: number;
  /** Baseline in PDF user space (grows upwards). */
  y: number;
  /** The largest font size in the row. */
  size: number;
  /** More than half of the row's non-space characters are set in a bold face. */
  bold: boolean;
  text: string;
}

const SAME_ROW_PT = 2;
const SPACE_GAP_RATIO = 0.2;

/**
 * Rows of one page. `boldFonts` names the pdf.js font ids whose real font is bold (the text
 * items only carry internal ids); items with an empty or non-finite geometry are skipped, so
 * a hostile text layer cannot produce NaN-sorted rows.
 */
export function rowsOfPage(
  items: readonly PdfTextItem[],
  page: number,
  boldFonts: ReadonlySet<string>,
): PdfRow[] {
  const placed = items
    .filter((item) => item.str !== "" && item.transform.length >= 6 && item.transform.every(Number.isFinite))
    .map((item) => ({
      item,
      x: item.transform[4]!,
      y: item.transform[5]!,
      size:
        Math.hypot(item.transform[2]!, item.transform[3]!) ||
        Math.hypot(item.transform[0]!, item.transform[1]!),
    }))
    .sort((a, b) => b.y - a.y || a.x - b.x);

  const groups: (typeof placed)[] = [];
  for (const entry of placed) {
    const current = groups[groups.length - 1];
    if (current && Math.abs(current[0]!.y - entry.y) <= SAME_ROW_PT) current.push(entry);
    else groups.push([entry]);
  }

  const rows: PdfRow[] = [];
  for (const group of groups) {
    group.sort((a, b) => a.x - b.x);
    let text = "";
    let end = Number.NEGATIVE_INFINITY;
    let size = 0;
    let boldChars = 0;
    let chars = 0;
    for (const { item, x, size: itemSize } of group) {
      const gap = x - end;
      if (text !== "" && !/\s$/.test(text) && !/^\s/.test(item.str) && gap > SPACE_GAP_RATIO * itemSize)
        text += " ";
      text += item.str;
      end = x + (Number.isFinite(item.width) ? item.width : 0);
      size = Math.max(size, itemSize);
      const visible = item.str.replace(/\s+/g, "").length;
      chars += visible;
      if (boldFonts.has(item.fontName)) boldChars += visible;
    }
    const clean = rejoinLetterSpacing(text.replace(/\s+/g, " ").trim());
    if (clean === "") continue;
    rows.push({ page, y: group[0]!.y, size, bold: chars > 0 && boldChars * 2 > chars, text: clean });
  }
  return rows;
}

/** Is this PDF font name a bold face (`Helvetica-Bold`, `ABCDEF+Arial,Bold`, `Foo-Bd`)? */
export function isBoldFontName(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.includes("bold") || lower.includes("-bd") || lower.includes(",bd") || lower.includes("black");
}

/** "U N I T E D  S T A T E S" set with tracking comes out as spaced letters; join them back. */
function rejoinLetterSpacing(text: string): string {
  const tokens = text.split(" ");
  if (tokens.length < 4 || !tokens.every((t) => [...t].length === 1)) return text;
  return tokens.join("");
}
