// Page-range arithmetic for treewalk (docs/reference/vectorless-strategies.md §5.4.2–5.4.3): clamping a requested range to
// the document, and the citation gate (clamp, dedup keeping the higher confidence, cap by
// confidence with ties in emission order, sort by page).
import type { CitedRange } from "../select/treewalk-action.js";

export const DEFAULT_MAX_CITATIONS = 3;

/** The usable range, or undefined when it cannot be read as one. maxPage 0 = unknown. */
export function clampRange(start: number, end: number, maxPage: number): [number, number] | undefined {
  if (start <= 0 && end <= 0) return undefined;
  let s = start <= 0 ? 1 : start;
  let e = end <= 0 ? s : end;
  if (e < s) [s, e] = [e, s];
  if (maxPage > 0) {
    if (s > maxPage) return undefined;
    if (e > maxPage) e = maxPage;
  }
  return [s, e];
}

export function selectCitedRanges(
  ranges: readonly CitedRange[],
  maxPage: number,
  maxCitations: number,
): [number, number][] {
  const distinct: { range: [number, number]; confidence: number; order: number }[] = [];
  for (const r of ranges) {
    const range = clampRange(r.start, r.end, maxPage);
    if (!range) continue;
    const same = distinct.find((d) => d.range[0] === range[0] && d.range[1] === range[1]);
    if (same) same.confidence = Math.max(same.confidence, r.confidence);
    else distinct.push({ range, confidence: r.confidence, order: distinct.length });
  }
  let kept = distinct;
  if (maxCitations > 0 && distinct.length > maxCitations) {
    kept = [...distinct]
      .sort((a, b) => b.confidence - a.confidence || a.order - b.order)
      .slice(0, maxCitations);
  }
  return kept.map((d) => d.range).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

export function overlaps(section: { start: number; end: number }, start: number, end: number): boolean {
  return section.start > 0 && section.end > 0 && section.start <= end && start <= section.end;
}
