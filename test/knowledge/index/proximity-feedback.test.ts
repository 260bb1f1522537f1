import { describe, expect, it } from "vitest";
import { analyzerFor } from "../../../src/knowledge/analysis/registry.js";
import { expandQuery, relevanceModel } from "../../../src/knowledge/index/feedback.js";
import { LexicalIndex } from "../../../src/knowledge/index/lexical-index.js";
import { ProximityScorer } from "../../../src/knowledge/index/proximity.js";

const analyze = (text: string) => analyzerFor("en").analyze(text);

describe("ProximityScorer", () => {
  const index = LexicalIndex.build([
    { title: [], body: analyze("boundary layer transition in supersonic flow") },
    { title: [], body: analyze("boundary conditions were set; many pages later the layer was thin") },
  ]);
  const stats = index.queryStats(analyze("boundary layer"));

  it("rewards query terms that stand together over the same terms far apart", () => {
    const scorer = new ProximityScorer(index, stats);
    expect(scorer.score(0)).toBeGreaterThan(scorer.score(1));
  });

  it("is zero for a single-term query", () => {
    expect(new ProximityScorer(index, index.queryStats(analyze("boundary"))).score(0)).toBe(0);
  });
});

describe("relevance model feedback", () => {
  const index = LexicalIndex.build([
    {
      title: analyze("Annual leave"),
      body: analyze("Holiday allowance is 25 days of annual leave; request holiday in the HR portal."),
    },
    {
      title: analyze("Annual leave carry-over"),
      body: analyze("Unused holiday allowance carries over to March."),
    },
    { title: analyze("Parking"), body: analyze("The garage opens at seven.") },
  ]);
  const stats = index.queryStats(analyze("annual leave"));
  const top = index.search(stats, 10);

  it("finds the vocabulary the top documents use for the topic", () => {
    const model = relevanceModel(index, top, (term) => analyzerFor("en").isStopwordTerm(term));
    const terms = model.map((t) => t.term);
    expect(terms).toContain("holidai");
    expect(terms).toContain("allow");
    expect(model.reduce((s, t) => s + t.weight, 0)).toBeCloseTo(1, 10);
  });

  it("expands the query so a document using only the topic vocabulary is found", () => {
    const index2 = LexicalIndex.build([
      { title: analyze("Annual leave"), body: analyze("Holiday allowance is 25 days.") },
      { title: analyze("Holiday allowance rules"), body: analyze("The holiday allowance accrues monthly.") },
    ]);
    const s = index2.queryStats(analyze("annual leave"));
    expect(index2.search(s, 10).map((u) => u.unit)).toEqual([0]);
    const expanded = expandQuery(
      index2,
      s,
      relevanceModel(index2, index2.search(s, 10), (term) => analyzerFor("en").isStopwordTerm(term)),
    );
    expect(index2.search(expanded, 10).map((u) => u.unit)).toEqual([0, 1]);
  });

  it("keeps the original terms at half the weight (RM3 interpolation)", () => {
    const expanded = expandQuery(index, stats, []);
    expect(expanded.reduce((s, t) => s + t.queryFrequency, 0)).toBeCloseTo(0.5, 10);
  });
});
