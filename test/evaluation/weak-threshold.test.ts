// The weak threshold's rule (bench/calibrate.ts): the highest of the grid whose false alarms stay
// under the cap on every documentation bot of the fit.
import { describe, expect, it } from "vitest";
import {
  chooseWeakThreshold,
  WEAK_THRESHOLD_GRID,
  type WeakOutcome,
  weakFlagFigures,
} from "../../src/evaluation/calibration-fit.js";

const answered = (bestScore: number): WeakOutcome => ({ bestScore, answerable: true, answered: true });
const unanswerable = (bestScore: number): WeakOutcome => ({ bestScore, answerable: false, answered: false });

describe("chooseWeakThreshold", () => {
  it("takes the highest threshold that keeps false alarms under the cap on every set", () => {
    // Set A: answered at 0.30, 0.50, 0.60, 0.70, 0.80 — a threshold above 0.30 flags one of five (20 %).
    const a = [0.3, 0.5, 0.6, 0.7, 0.8].map(answered).concat([unanswerable(0.25)]);
    // Set B: answered at 0.40 and up — a threshold above 0.40 flags one of five.
    const b = [0.4, 0.45, 0.55, 0.65, 0.75].map(answered);
    expect(chooseWeakThreshold([a], 0.2)).toBe(0.5);
    expect(chooseWeakThreshold([b], 0.2)).toBe(0.45);
    expect(chooseWeakThreshold([a, b], 0.2)).toBe(0.45);
    expect(chooseWeakThreshold([a, b], 0)).toBe(0.3);
    expect(weakFlagFigures(a, 0.45).falseAlarms).toBe(0.2);
  });
  it("is null when no threshold of the grid keeps a set under the cap, or a set has no answered search", () => {
    expect(chooseWeakThreshold([[answered(0.1)]], 0)).toBeNull();
    expect(chooseWeakThreshold([[unanswerable(0.3)]], 0.2)).toBeNull();
  });
  it("searches 0.20 to 0.60 by 0.01", () => {
    expect(WEAK_THRESHOLD_GRID).toHaveLength(41);
    expect(WEAK_THRESHOLD_GRID[0]).toBe(0.2);
    expect(WEAK_THRESHOLD_GRID[40]).toBe(0.6);
    expect(WEAK_THRESHOLD_GRID[7]).toBe(0.27);
  });
});
