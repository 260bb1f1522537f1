// The aligned plain-text tables `eval` and `calibrate` print on a terminal.

/** A share as a percentage with one decimal, "–" when there is nothing to divide. */
export const percent = (x: number | null): string => (x === null ? "–" : `${(x * 100).toFixed(1)}%`);

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
