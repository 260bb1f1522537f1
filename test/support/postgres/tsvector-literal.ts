/**
 * Text forms of tsvector values built from our own analysed terms, as second-look wrote them
 * into `sections.tsv` up to schema version 3: tests build older databases with them. The terms are
 * given to PostgreSQL as lexemes exactly (no parser or dictionary of its own runs), so the
 * database and the engine agree on what a term is. The texts travel as query parameters, cast
 * in SQL; quoting here only keeps a lexeme one lexeme.
 */

/** PostgreSQL keeps at most this many positions per lexeme in a tsvector. */
export const MAX_POSITIONS = 256;

function lexeme(term: string): string {
  return `'${term.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`;
}

/**
 * One section's terms as a tsvector: every distinct term once, with one position per
 * occurrence — title-field occurrences weighted A, body occurrences unweighted (D) — so the
 * count of A and D positions is the term's frequency in each field (capped at MAX_POSITIONS
 * in all, title first). Positions only number occurrences; they are not word offsets.
 */
export function sectionTsvector(titleTerms: readonly string[], bodyTerms: readonly string[]): string {
  const counts = new Map<string, { title: number; body: number }>();
  for (const term of titleTerms) {
    const c = counts.get(term) ?? { title: 0, body: 0 };
    c.title++;
    counts.set(term, c);
  }
  for (const term of bodyTerms) {
    const c = counts.get(term) ?? { title: 0, body: 0 };
    c.body++;
    counts.set(term, c);
  }
  const parts: string[] = [];
  for (const [term, c] of counts) {
    const title = Math.min(c.title, MAX_POSITIONS);
    const body = Math.min(c.body, MAX_POSITIONS - title);
    const positions: string[] = [];
    for (let p = 1; p <= title; p++) positions.push(`${p}A`);
    for (let p = title + 1; p <= title + body; p++) positions.push(String(p));
    parts.push(`${lexeme(term)}:${positions.join(",")}`);
  }
  return parts.join(" ");
}
