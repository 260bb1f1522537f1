/**
 * Optimal-string-alignment distance (Levenshtein plus adjacent transpositions), so the most
 * common config typos — a dropped, doubled, swapped or wrong letter — all count as one edit.
 */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = d[i]!;
      const prev = d[i - 1]!;
      let best = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      }
      row[j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The candidate closest to `key`, or undefined when none is close enough to be a plausible typo.
 * Case is ignored (`RetryBudget` → `retryBudget`); the threshold grows with the key's length so
 * a long camelCase key may carry two or three slips while `foo` does not match `url`.
 */
export function closestKey(key: string, candidates: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  const limit = Math.max(1, Math.min(3, Math.floor(key.length / 4)));
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const other = candidate.toLowerCase();
    // The distance is at least the difference in length: a candidate too far off by length alone
    // is not measured, so a long key costs no more than a short one (the table is |key|×|other|).
    if (Math.abs(lower.length - other.length) > limit) continue;
    const distance = editDistance(lower, other);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return bestDistance <= limit ? best : undefined;
}
