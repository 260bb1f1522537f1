/**
 * Nearest-rank percentiles: the p-th percentile is the smallest value with at least p% of the
 * values at or below it, i.e. sorted[ceil(p/100 · n) − 1] (p = 0 gives the minimum). Always
 * an observed value, never an interpolation: a reported p99 latency is a latency that
 * happened. Returns one value per entry of `ps`, in that order; NaN for each when `values`
 * is empty.
 */
export function percentiles(values: readonly number[], ps: readonly number[]): number[] {
  for (const p of ps) {
    if (!(p >= 0 && p <= 100)) throw new RangeError(`percentiles: ${p} is not in 0..100`);
  }
  for (const v of values) if (Number.isNaN(v)) throw new RangeError("percentiles: a value is NaN");
  if (values.length === 0) return ps.map(() => Number.NaN);
  const sorted = Float64Array.from(values).sort();
  const n = sorted.length;
  return ps.map((p) => {
    // The epsilon keeps float noise (0.95 · 100 = 95.00000000000001) from bumping the rank.
    const rank = Math.max(1, Math.ceil((p * n) / 100 - 1e-9));
    return sorted[Math.min(rank, n) - 1]!;
  });
}
