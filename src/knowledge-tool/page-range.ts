// How a hit's pages are written: `p. 3` for one page, `pp. 3–5` (en dash) for a range, the
// citation style readers know. Written on a line of its own *after* the doc-id line, so the
// Huginn header line stays byte-identical and the header → doc-id distance the text scanner
// relies on (at most three lines) is unchanged.

/** `p. N` / `pp. N–M`, or undefined when the range is absent or not a valid 1-based range. */
export function renderPageRange(pages: { start: number; end: number } | undefined): string | undefined {
  if (!pages) return undefined;
  const { start, end } = pages;
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 1 || end < start) return undefined;
  return start === end ? `p. ${start}` : `pp. ${start}\u2013${end}`;
}

/** Reads `p. 3` / `pp. 3–5` (en dash or hyphen) back; undefined for anything else. */
export function parsePageRange(text: string): { start: number; end: number } | undefined {
  const match = /^\s*(?:p\. (\d{1,6})|pp\. (\d{1,6})[\u2013-](\d{1,6}))\s*$/.exec(text);
  if (!match) return undefined;
  const start = Number(match[1] ?? match[2]);
  const end = Number(match[1] ?? match[3]);
  return start >= 1 && end >= start ? { start, end } : undefined;
}
