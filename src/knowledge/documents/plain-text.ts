// Whitespace rules shared by the format parsers, so every loader emits the same shape of
// plain text: paragraphs separated by one blank line, no runs of spaces, no trailing blanks.

/** Collapses every run of whitespace (including no-break spaces and newlines) to one space. */
export function collapseWhitespace(text: string): string {
  return text.replace(/[\s\u00a0]+/g, " ").trim();
}

/**
 * Trims each line's trailing spaces and caps blank runs at one blank line. A run of spaces is
 * only tried from its start, so a long run in mid-line costs its length once, not its square.
 */
export function tidyLines(text: string): string {
  return text
    .replace(/(?<![ \t\u00a0])[ \t\u00a0]+$/gm, "")
    .replace(/\n{3,}/g, "\n\n")
    .replace(/^\n+|\n+$/g, "");
}

/** Joins non-empty blocks with a blank line between them. */
export function joinBlocks(blocks: readonly string[]): string {
  return blocks
    .map((b) => b.trim())
    .filter((b) => b !== "")
    .join("\n\n");
}
