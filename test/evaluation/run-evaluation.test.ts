import { describe, expect, it } from "vitest";
import type { EvalDataset } from "../../src/evaluation/dataset.js";
import { runEvaluation } from "../../src/evaluation/run-evaluation.js";

const dataset: EvalDataset = {
  name: "tiny",
  docs: [
    {
      id: "d1",
      title: "Boundary layer transition",
      text: "Transition of the boundary layer on a flat plate.",
    },
    { id: "d2", title: "Heat transfer", text: "Heat transfer in hypersonic flow over a cone." },
    { id: "d3", title: "Wing flutter", text: "Flutter of swept wings at transonic speed." },
    { id: "d4", title: "Shock waves", text: "Shock wave interaction with a boundary layer." },
  ],
  queries: [
    { id: "q1", text: "boundary layer transition" },
    { id: "q2", text: "flutter of wings" },
    { id: "q3", text: "magnetohydrodynamic generators" },
  ],
  qrels: new Map([
    [
      "q1",
      new Map([
        ["d1", 2],
        ["d4", 1],
      ]),
    ],
    ["q2", new Map([["d3", 1]])],
    ["q3", new Map([["d2", 1]])],
  ]),
};

describe("runEvaluation", () => {
  const report = runEvaluation(dataset);

  it("reports the documented shape", () => {
    expect(Object.keys(report)).toEqual(
      expect.arrayContaining([
        "docs",
        "queries",
        "ndcg10",
        "map100",
        "recall100",
        "miss10",
        "indexMs",
        "queryMs",
        "bands",
        "weak",
        "corrective",
      ]),
    );
    expect(Object.keys(report.queryMs)).toEqual(["p50", "p95", "p99"]);
    expect(Object.keys(report.bands)).toEqual(["high", "medium", "low"]);
    expect(Object.keys(report.weak)).toEqual(["flagged", "auc", "precision", "recall"]);
    expect(Object.keys(report.corrective)).toEqual(
      expect.arrayContaining(["requeried", "rescued", "recallBefore", "recallAfter"]),
    );
  });

  it("finds what the queries ask for and misses what the corpus lacks", () => {
    expect(report.docs).toBe(4);
    expect(report.queries).toBe(3);
    // q3's words appear nowhere: a miss; q1 and q2 are found at rank 1.
    expect(report.miss10).toBeCloseTo(1 / 3, 4);
    expect(report.ndcg10).toBeGreaterThan(0.6);
  });

  it("flags the query with no match as weak", () => {
    expect(report.weak.flagged).toBeGreaterThanOrEqual(1);
    expect(report.weak.recall).toBe(1);
  });

  it("counts every top-10 hit in exactly one band", () => {
    const hits = report.bands.high.hits + report.bands.medium.hits + report.bands.low.hits;
    expect(hits).toBeGreaterThan(0);
    expect(hits).toBeLessThanOrEqual(3 * 10);
  });
});
