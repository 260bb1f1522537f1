// Where a model's quote sits in the section text. Offsets are JavaScript string units
// (UTF-16), start inclusive and end exclusive, so `content.slice(start, end)` is the quote.
// Two passes as in docs/reference/vectorless-strategies.md §6: the exact substring, then a match that ignores
// differences of whitespace (runs of space, tab, CR, LF collapse to one space) and of Unicode
// composition (NFC, so "å" finds "a" + combining ring). Neither → the sentinel -1/-1.

export const NOT_FOUND = { start: -1, end: -1 } as const;

export function locateQuote(content: string, quote: string): { start: number; end: number } {
  if (quote === "" || content === "") return NOT_FOUND;
  const exact = content.indexOf(quote);
  if (exact >= 0) return { start: exact, end: exact + quote.length };

  const haystack = normalisedWithMap(content);
  const needle = normalisedWithMap(quote).text.trim();
  if (needle === "") return NOT_FOUND;
  const at = haystack.text.indexOf(needle);
  if (at < 0) return NOT_FOUND;
  const start = haystack.starts[at]!;
  const end = haystack.ends[at + needle.length - 1]!;
  return end > start ? { start, end } : NOT_FOUND;
}

/**
 * The text with whitespace runs collapsed and each cluster (a character and the combining
 * marks after it) in NFC, plus, for every unit of the result, the original offsets of the
 * cluster it came from. Linear in the text.
 */
function normalisedWithMap(text: string): { text: string; starts: number[]; ends: number[] } {
  let out = "";
  const starts: number[] = [];
  const ends: number[] = [];
  const cluster = /\s+|\P{M}\p{M}*|\p{M}+/gsu;
  for (const match of text.matchAll(cluster)) {
    const start = match.index;
    const end = start + match[0].length;
    const piece = /^\s+$/.test(match[0]) ? " " : match[0].normalize("NFC");
    out += piece;
    for (let i = 0; i < piece.length; i++) {
      starts.push(start);
      ends.push(end);
    }
  }
  return { text: out, starts, ends };
}
