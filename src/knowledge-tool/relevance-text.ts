// How a hit's relevance is written in a hit header, ` (82.3% relevant · high)`, and read back.
import type { Band } from "../types.js";

/**
 * `relevance` as a percentage with one decimal, the way Python's `f"{x * 100:.1f}"` prints it
 * (Huginn's adapter). `toFixed` agrees with Python except on exact binary ties (x.25 → Python
 * rounds half to even, `toFixed` rounds up), which we correct so the bytes match.
 */
export function formatRelevancePercent(relevance: number): string {
  const percent = relevance * 100;
  const quadruple = percent * 4; // exact: multiplying by a power of two never rounds
  if (Number.isInteger(quadruple) && !Number.isInteger(percent * 2)) {
    // An exact tie at the second decimal (…25 or …75): round half to even, as Python does.
    const tenths = Math.floor(percent * 10);
    return ((tenths % 2 === 0 ? tenths : tenths + 1) / 10).toFixed(1);
  }
  return percent.toFixed(1);
}

/** ` (NN.N% relevant · band)`; the band part is left out when there is no band. */
export function renderRelevanceFragment(relevance: number, band: Band | undefined): string {
  return ` (${formatRelevancePercent(relevance)}% relevant${band ? ` · ${band}` : ""})`;
}

// The inner text of the fragment, e.g. `82.3% relevant · high` or `12% relevant` (muninn's
// fixtures print no decimal). Only ever applied to a short slice, never to a whole line.
const FRAGMENT_INNER = /^(\d{1,3}(?:\.\d{1,3})?)% relevant(?: · [a-z]{1,12})?$/;
const MAX_FRAGMENT_INNER = 40;

/**
 * The relevance (0..1) in a hit header line, or undefined when the line is not a hit header or
 * carries no relevance. Full-mode headers start with `## `, brief-mode headers with `N. **`.
 * The fragment is read from the end of the line (after an optional ` | updated: YYYY-MM-DD` or
 * ` | YYYY-MM-DD`), so brackets or percentages inside a title do not confuse it. Linear time.
 */
export function parseHeaderRelevance(line: string): number | undefined {
  if (!isHitHeaderStart(line)) return undefined;
  let end = line.length;
  while (end > 0 && (line[end - 1] === " " || line[end - 1] === "\r")) end--;
  end = withoutDateSuffix(line, end);
  if (line[end - 1] !== ")") return undefined;
  const open = line.lastIndexOf(" (", end - 1);
  if (open < 0 || end - 1 - (open + 2) > MAX_FRAGMENT_INNER) return undefined;
  const match = FRAGMENT_INNER.exec(line.slice(open + 2, end - 1));
  return match ? Number(match[1]) / 100 : undefined;
}

/** `## ` (full mode) or `<digits>. **` (brief mode) at the very start of the line. */
export function isHitHeaderStart(line: string): boolean {
  if (line.startsWith("## ")) return true;
  let i = 0;
  while (i < line.length && i < 7 && line.charCodeAt(i) >= 48 && line.charCodeAt(i) <= 57) i++;
  return i > 0 && line.startsWith(". **", i);
}

/** True when the header is the full-mode (`## `) form. */
export function isFullHeader(line: string): boolean {
  return line.startsWith("## ");
}

// ` | updated: 2026-05-02` (full) or ` | 2026-05-02` (brief) at `end`; returns the new end.
function withoutDateSuffix(line: string, end: number): number {
  const dateStart = end - 10;
  if (dateStart < 0 || !isIsoDate(line, dateStart)) return end;
  if (line.startsWith(" | updated: ", dateStart - 12)) return dateStart - 12;
  if (line.startsWith(" | ", dateStart - 3)) return dateStart - 3;
  return end;
}

function isIsoDate(line: string, at: number): boolean {
  for (let i = 0; i < 10; i++) {
    const c = line.charCodeAt(at + i);
    const isDash = i === 4 || i === 7;
    if (isDash ? c !== 45 : c < 48 || c > 57) return false;
  }
  return true;
}
