import { describe, expect, it } from "vitest";
import { percentiles } from "../../src/evaluation/percentiles.js";

describe("percentiles (nearest rank)", () => {
  it("matches the textbook example", () => {
    // sorted[ceil(p/100 · 5) − 1]: p30 → rank 2, p40 → rank 2, p50 → rank 3, p100 → rank 5.
    expect(percentiles([50, 15, 40, 20, 35], [5, 30, 40, 50, 100])).toEqual([15, 20, 20, 35, 50]);
  });

  it("p50/p95/p99 of 1..100 are observed values, without float drift", () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentiles(values, [50, 95, 99])).toEqual([50, 95, 99]);
    expect(percentiles(values, [0, 100])).toEqual([1, 100]);
  });

  it("small samples: p99 of 10 values is the maximum", () => {
    expect(percentiles([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], [50, 95, 99])).toEqual([5, 10, 10]);
    expect(percentiles([7], [50, 99])).toEqual([7, 7]);
  });

  it("does not mutate its input and sorts numerically", () => {
    const values = [10, 9, 100, 1];
    expect(percentiles(values, [50])).toEqual([9]);
    expect(values).toEqual([10, 9, 100, 1]);
  });

  it("is NaN for no values and rejects bad input", () => {
    expect(percentiles([], [50, 95])).toEqual([Number.NaN, Number.NaN]);
    expect(() => percentiles([1], [101])).toThrow(RangeError);
    expect(() => percentiles([1], [-1])).toThrow(RangeError);
    expect(() => percentiles([Number.NaN], [50])).toThrow(RangeError);
  });
});
