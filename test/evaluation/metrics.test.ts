import { describe, expect, it } from "vitest";
import type { Qrels } from "../../src/evaluation/dataset.js";
import {
  averagePrecisionAt,
  dcgAt,
  evaluateRuns,
  hasRelevantInTop,
  ndcgAt,
  precision,
  recallAt,
  rocAuc,
} from "../../src/evaluation/metrics.js";

// One query, three relevant documents: d1 (gain 3), d4 (gain 2, never retrieved), d3 (gain 1).
const judgments = new Map([
  ["d1", 3],
  ["d3", 1],
  ["d4", 2],
]);
const ranking = ["d1", "d2", "d3"];

describe("nDCG (linear gain, log2(rank + 1) discount, ideal from all judged relevant docs)", () => {
  it("matches a hand computation", () => {
    // DCG = 3/log2(2) + 0/log2(3) + 1/log2(4) = 3 + 0 + 0.5 = 3.5
    expect(dcgAt(ranking, judgments, 10)).toBeCloseTo(3.5, 12);
    // IDCG = 3/1 + 2/log2(3) + 1/2 = 3.5 + 1.2618595071429148 = 4.761859507142915
    expect(ndcgAt(ranking, judgments, 10)).toBeCloseTo(3.5 / 4.761859507142915, 12);
    expect(ndcgAt(ranking, judgments, 10)).toBeCloseTo(0.73501, 5);
  });

  it("cuts both DCG and the ideal at k", () => {
    // @1: DCG = 3, IDCG = 3.
    expect(ndcgAt(ranking, judgments, 1)).toBe(1);
    // @2: DCG = 3, IDCG = 3 + 2/log2(3) = 4.2618595...
    expect(ndcgAt(ranking, judgments, 2)).toBeCloseTo(3 / (3 + 2 / Math.log2(3)), 12);
  });

  it("is 1 for the ideal ranking and 0 without relevant documents", () => {
    expect(ndcgAt(["d1", "d4", "d3"], judgments, 10)).toBeCloseTo(1, 12);
    expect(ndcgAt(["d2"], judgments, 10)).toBe(0);
    expect(ndcgAt([], judgments, 10)).toBe(0);
    expect(ndcgAt(["d1"], new Map(), 10)).toBe(0);
  });

  it("a repeated document keeps its rank but earns nothing again", () => {
    // d1, d1, d3: 3/1 + 0 + 1/2, same as d1, d2, d3.
    expect(dcgAt(["d1", "d1", "d3"], judgments, 10)).toBeCloseTo(3.5, 12);
  });
});

describe("AP@k (trec_eval map_cut: divide by all relevant docs, not min(R, k))", () => {
  it("matches a hand computation", () => {
    // Relevant at ranks 1 and 3: (1/1 + 2/3) / 3 relevant = 0.5555...
    expect(averagePrecisionAt(ranking, judgments, 100)).toBeCloseTo((1 + 2 / 3) / 3, 12);
  });

  it("keeps the full denominator when k is smaller than the number of relevant documents", () => {
    // @2: only rank 1 counts: 1 / 3, not 1 / min(3, 2).
    expect(averagePrecisionAt(ranking, judgments, 2)).toBeCloseTo(1 / 3, 12);
    // A perfect top 2 of 3 relevant documents: (1 + 1) / 3.
    expect(averagePrecisionAt(["d1", "d3"], judgments, 2)).toBeCloseTo(2 / 3, 12);
  });

  it("is 0 with nothing relevant retrieved", () => {
    expect(averagePrecisionAt(["x", "y"], judgments, 100)).toBe(0);
  });
});

describe("Recall@k and misses", () => {
  it("matches a hand computation", () => {
    expect(recallAt(ranking, judgments, 100)).toBeCloseTo(2 / 3, 12);
    expect(recallAt(ranking, judgments, 2)).toBeCloseTo(1 / 3, 12);
    expect(recallAt(["d1", "d1"], judgments, 100)).toBeCloseTo(1 / 3, 12);
  });

  it("hasRelevantInTop", () => {
    expect(hasRelevantInTop(ranking, judgments, 1)).toBe(true);
    expect(hasRelevantInTop(["d2", "d3"], judgments, 1)).toBe(false);
    expect(hasRelevantInTop(["d2", "d3"], judgments, 2)).toBe(true);
  });
});

describe("evaluateRuns", () => {
  it("averages over every judged query; a query without a ranking scores 0 and is a miss", () => {
    const qrels: Qrels = new Map([
      ["q1", new Map(judgments)],
      ["q2", new Map([["a", 1]])],
      ["q3", new Map([["b", 2]])],
    ]);
    const runs = new Map([
      ["q1", ranking],
      // q2: the single relevant document at rank 11 — outside @10, inside @100.
      ["q2", [...Array.from({ length: 10 }, (_, i) => `n${i}`), "a"]],
      ["q9", ["whatever"]], // not judged: ignored
    ]);
    const m = evaluateRuns(qrels, runs);
    expect(m.queries).toBe(3);
    expect(m.ndcg10).toBeCloseTo((3.5 / 4.761859507142915 + 0 + 0) / 3, 12);
    // q2: AP@100 = (1/11) / 1.
    expect(m.map100).toBeCloseTo(((1 + 2 / 3) / 3 + 1 / 11 + 0) / 3, 12);
    expect(m.recall100).toBeCloseTo((2 / 3 + 1 + 0) / 3, 12);
    expect(m.miss10).toBeCloseTo(2 / 3, 12);
    expect(m.perQuery.get("q2")).toEqual({ ndcg10: 0, ap100: 1 / 11, recall100: 1, miss10: true });
    expect(m.perQuery.has("q9")).toBe(false);
  });

  it("is NaN over no judged queries", () => {
    expect(evaluateRuns(new Map(), new Map()).ndcg10).toBeNaN();
  });
});

describe("precision of a set", () => {
  it("counts distinct selected items", () => {
    expect(precision(["a", "b", "c", "d"], new Set(["a", "c", "z"]))).toBe(0.5);
    expect(precision(["a", "a", "b"], new Set(["a"]))).toBe(0.5);
    expect(
      precision(
        ["a", "b", "c"],
        new Map([
          ["a", 2],
          ["b", 0],
        ]),
      ),
    ).toBeCloseTo(1 / 3, 12);
    expect(precision([], new Set(["a"]))).toBeNaN();
  });
});

describe("ROC AUC (Mann–Whitney, ties count half)", () => {
  it("matches a hand computation with a tie", () => {
    // Positives 0.9, 0.7; negatives 0.8, 0.7, 0.1.
    // Pairs: 0.9 beats all three (3); 0.7 loses to 0.8 (0), ties 0.7 (0.5), beats 0.1 (1): 4.5 / 6.
    expect(rocAuc([0.9, 0.8, 0.7, 0.7, 0.1], [true, false, true, false, false])).toBeCloseTo(0.75, 12);
  });

  it("is 1 for a perfect separation, 0 for an inverted one, 0.5 when all tie", () => {
    expect(rocAuc([3, 2, 1], [true, false, false])).toBe(1);
    expect(rocAuc([1, 2, 3], [true, false, false])).toBe(0);
    expect(rocAuc([5, 5, 5, 5], [true, false, true, false])).toBe(0.5);
  });

  it("is NaN with one class only, and rejects mismatched input", () => {
    expect(rocAuc([1, 2], [true, true])).toBeNaN();
    expect(rocAuc([], [])).toBeNaN();
    expect(() => rocAuc([1], [true, false])).toThrow(RangeError);
    expect(() => rocAuc([Number.NaN, 1], [true, false])).toThrow(RangeError);
  });

  it("agrees with the O(n²) pair count on random data with many ties", () => {
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let trial = 0; trial < 20; trial++) {
      const n = 50 + trial * 7;
      const scores = Array.from({ length: n }, () => Math.round(random() * 10) / 10);
      const labels = scores.map((s) => random() < 0.3 + s * 0.4);
      let wins = 0;
      let pairs = 0;
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < n; j++) {
          if (!labels[i] || labels[j]) continue;
          pairs++;
          if (scores[i]! > scores[j]!) wins += 1;
          else if (scores[i] === scores[j]) wins += 0.5;
        }
      }
      expect(rocAuc(scores, labels)).toBeCloseTo(wins / pairs, 12);
    }
  });
});
