// The aligned plain-text tables `eval` and `calibrate` print on a terminal.

export { percent } from "../evaluation/bot-report-rows.js";

/** The header and body rows as lines, each column padded to its widest cell. */
export function tableLines(header: readonly string[], body: readonly (readonly string[])[]): string[] {
  const widths = header.map((_, i) => Math.max(...[header, ...body].map((row) => row[i]!.length)));
  const line = (row: readonly string[]) =>
    row
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  return [line(header), ...body.map(line)];
}
