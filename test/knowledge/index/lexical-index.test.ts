import { describe, expect, it } from "vitest";
import { analyzerFor } from "../../../src/knowledge/analysis/registry.js";
import { LexicalIndex } from "../../../src/knowledge/index/lexical-index.js";

const analyze = (text: string) => analyzerFor("en").analyze(text);

const units = [
  { title: analyze("Vacation policy"), body: analyze("Every employee gets 25 vacation days per year.") },
  { title: analyze("Sick leave"), body: analyze("Report sick days to your manager before nine.") },
  {
    title: analyze("Expenses"),
    body: analyze("Submit receipts within 30 days. Travel expenses need approval."),
  },
  { title: analyze("Travel"), body: analyze("Book travel through the portal.") },
];
const index = LexicalIndex.build(units);
const search = (q: string, k = 10) => index.search(index.queryStats(analyze(q)), k);

describe("LexicalIndex", () => {
  it("ranks the unit that matches the query's terms first", () => {
    expect(search("vacation days")[0]!.unit).toBe(0);
    expect(search("travel expenses approval")[0]!.unit).toBe(2);
  });

  it("uses OR semantics: a unit matching only some terms is still found", () => {
    const found = search("vacation receipts").map((s) => s.unit);
    expect(found).toContain(0);
    expect(found).toContain(2);
    expect(found).not.toContain(1);
  });

  it("weights a title occurrence above a body occurrence", () => {
    // "travel" is in unit 3's title and unit 2's body (both have similar lengths).
    expect(search("travel")[0]!.unit).toBe(3);
  });

  it("returns at most k results, best first, and nothing for unknown terms", () => {
    const top = search("days", 2);
    expect(top).toHaveLength(2);
    expect(top[0]!.score).toBeGreaterThanOrEqual(top[1]!.score);
    expect(search("zeppelin")).toEqual([]);
  });

  it("gives rarer terms a higher idf and counts repeated query words", () => {
    const stats = index.queryStats(analyze("days days vacation"));
    const days = stats.find((s) => s.term === "dai")!;
    const vacation = stats.find((s) => s.term === "vacat")!;
    expect(days.queryFrequency).toBe(2);
    expect(vacation.idf).toBeGreaterThan(days.idf);
  });

  it("scoreUnit agrees with search for the same unit", () => {
    const stats = index.queryStats(analyze("travel expenses"));
    const [best] = index.search(stats, 1);
    expect(index.scoreUnit(stats, best!.unit)).toBeCloseTo(best!.score, 10);
  });

  it("can restrict scoring to allowed units", () => {
    const stats = index.queryStats(analyze("days"));
    expect(index.search(stats, 10, (u) => u !== 0).map((s) => s.unit)).not.toContain(0);
  });

  it("is empty-safe", () => {
    const empty = LexicalIndex.build([]);
    expect(empty.search(empty.queryStats(["anything"]), 10)).toEqual([]);
  });

  it("reads packed terms (joined by spaces) exactly as arrays: same streams, same scores", () => {
    const packed = LexicalIndex.build([
      ...units.map((u) => ({ title: u.title.join(" "), body: u.body.join(" ") })),
      { title: "", body: [] },
    ]);
    for (let u = 0; u < units.length; u++) {
      expect([...packed.titleStream(u)].map((t) => packed.term(t))).toEqual(units[u]!.title);
      expect([...packed.bodyStream(u)].map((t) => packed.term(t))).toEqual(units[u]!.body);
    }
    expect(packed.titleStream(units.length)).toHaveLength(0);
    const stats = (i: LexicalIndex) => i.queryStats(analyze("travel expenses days"));
    const scores = (i: LexicalIndex) => i.search(stats(i), 10).map((s) => [s.unit, s.score.toFixed(12)]);
    // One more (empty) unit moves idf and the average lengths: compare with the same units as arrays.
    const arrays = LexicalIndex.build([...units, { title: [], body: [] }]);
    expect(scores(packed)).toEqual(scores(arrays));
  });

  it("restated() reads the collection frequencies its statistics know now, and leaves the original as it was", () => {
    // A part of a larger collection whose frequencies the caller learns after building it.
    const known = new Map([["vacat", 40]]);
    const statistics = {
      unitCount: 1000,
      avgTitleLength: 2,
      avgBodyLength: 8,
      documentFrequency: (term: string) => known.get(term) ?? 0,
    };
    const part = LexicalIndex.build(units, undefined, statistics);
    const dayId = part.termId(analyze("days")[0]!)!;
    // Unknown to the statistics: never below what the part itself holds (3 units say "days").
    expect(part.documentFrequency(dayId)).toBe(3);
    known.set(analyze("days")[0]!, 500);
    const restated = part.restated();
    expect(restated.documentFrequency(dayId)).toBe(500);
    expect(part.documentFrequency(dayId)).toBe(3);
    // Scores are those of an index built from scratch with the same statistics.
    const fresh = LexicalIndex.build(units, undefined, statistics);
    const query = analyze("vacation days travel");
    expect(restated.search(restated.queryStats(query), 10)).toEqual(
      fresh.search(fresh.queryStats(query), 10),
    );
    expect(part.search(part.queryStats(query), 10)).not.toEqual(fresh.search(fresh.queryStats(query), 10));
    // Without statistics there is nothing to re-read.
    expect(index.restated()).toBe(index);
  });

  it("withParams() scores as an index built with those parameters, and leaves the original as it was", () => {
    const params = { k1: 2, bBody: 0.3, bTitle: 0.9, titleWeight: 4 };
    const query = analyze("travel expenses days");
    const before = index.search(index.queryStats(query), 10);
    const other = index.withParams(params);
    const fresh = LexicalIndex.build(units, params);
    expect(other.params).toEqual(params);
    expect(other.search(other.queryStats(query), 10)).toEqual(fresh.search(fresh.queryStats(query), 10));
    expect(other.search(other.queryStats(query), 10)).not.toEqual(before);
    expect(index.search(index.queryStats(query), 10)).toEqual(before);
  });
});
