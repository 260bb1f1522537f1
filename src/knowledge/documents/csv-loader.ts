// A table kept as delimited text (`.csv`, `.tsv`) → sections headed by the file's name, each row
// one line of " | "-joined cells as an Excel sheet's rows are (office-sheets.ts), and each section
// of about a section's size opening with the table's first row, its column names. Parsed by
// csv-parse (RFC 4180: quoted fields holding the delimiter, quotes and line breaks), bounded as a
// sheet is: at most MAX_SHEET_ROWS rows and MAX_ROW_CELLS cells a row are read, and the parse
// stops there.

import { parse } from "csv-parse/sync";
import type { ParsedDocument } from "./loaded-document.js";
import {
  cellText,
  MAX_CELL_CHARS,
  MAX_ROW_CELLS,
  MAX_SHEET_ROWS,
  rowLine,
  sheetSections,
} from "./office-sections.js";
import { buildSections } from "./section-tree.js";

/** Delimiters a `.csv` file is written with: the comma, and the semicolon of locales whose decimal mark is a comma. */
const CSV_DELIMITERS = [",", ";", "\t", "|"] as const;
/** The first lines the delimiter is judged on. */
const SNIFF_LINES = 20;
/**
 * One record's characters at the most: a quote left open swallows the rest of the file into one
 * field, which is refused at this size rather than carried to the end of a 10 MB file.
 */
const MAX_RECORD_CHARS = MAX_ROW_CELLS * MAX_CELL_CHARS;

/**
 * A delimited table to sections (office-sections.ts sheetSections). `tabs`: the file says it is tab-separated (`.tsv`); a `.csv`
 * file's delimiter is the one of `,` `;` tab `|` that splits its first lines into the most equal,
 * widest rows (so "Name;Price" files from a comma-decimal locale read as two columns). Throws on a
 * file the parser cannot read (a quote never closed), which the caller reports as the reason.
 */
export function parseCsv(source: string, fileTitle: string, tabs = false): ParsedDocument {
  const delimiter = tabs ? "\t" : sniffDelimiter(source);
  const rows = parse(source, {
    delimiter,
    bom: true,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    skip_records_with_empty_values: true,
    to: MAX_SHEET_ROWS,
    max_record_size: MAX_RECORD_CHARS,
  }) as string[][];
  const lines = rows
    .map((row) => rowLine(row.slice(0, MAX_ROW_CELLS).map(cellText)))
    .filter((line) => line !== "");
  // A file of no rows has no text: no section, not one of its name alone.
  const buckets = lines.length === 0 ? [] : sheetSections(fileTitle, lines);
  return { title: fileTitle, sections: buildSections(fileTitle, buckets) };
}

/**
 * The delimiter whose count outside quotes is the same on most of the first lines and highest
 * there; the comma when none splits a line.
 */
export function sniffDelimiter(source: string): string {
  const lines = source
    .split(/\r?\n/, SNIFF_LINES * 4)
    .filter((line) => line.trim() !== "")
    .slice(0, SNIFF_LINES);
  let best: { delimiter: string; score: number } = { delimiter: ",", score: 0 };
  for (const delimiter of CSV_DELIMITERS) {
    const counts = lines.map((line) => countOutsideQuotes(line, delimiter));
    const commonest = mode(counts);
    if (commonest === 0) continue;
    // Lines agreeing on the commonest count, weighted by how many columns it makes.
    const score = counts.filter((n) => n === commonest).length * (commonest + 1);
    if (score > best.score) best = { delimiter, score };
  }
  return best.delimiter;
}

function countOutsideQuotes(line: string, delimiter: string): number {
  let count = 0;
  let quoted = false;
  for (const char of line) {
    if (char === '"') quoted = !quoted;
    else if (char === delimiter && !quoted) count++;
  }
  return count;
}

function mode(values: readonly number[]): number {
  const counts = new Map<number, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  let best = 0;
  let bestCount = 0;
  for (const [value, count] of counts) {
    if (count > bestCount || (count === bestCount && value > best)) {
      best = value;
      bestCount = count;
    }
  }
  return best;
}
