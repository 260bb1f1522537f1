import { describe, expect, it } from "vitest";
import { KnowledgeEngine } from "../../../src/backends/embedded/embedded-engine.js";
import { analyzerFor } from "../../../src/knowledge/analysis/registry.js";
import { idf } from "../../../src/knowledge/index/bm25.js";
import {
  expandedQueryWeights,
  feedbackVocabulary,
  holdsTerm,
  type IndexableDocument,
  leadingDocumentIds,
  queryTermPlan,
  queryTermsFor,
  queryTermWeights,
  RankingCore,
} from "../../../src/knowledge/ranking-core/index.js";
import { normalizeSearchRequest } from "../../../src/search-request.js";

const doc = (id: string, title: string, content: string): IndexableDocument => ({
  id,
  title,
  sections: [{ headingPath: [title], content }],
});

const handbook = [
  doc("pto.md", "Vacation", "Every employee gets 25 vacation days per calendar year, accrued monthly."),
  doc("carry.md", "Carry-over", "Unused vacation days carry over to the next calendar year."),
  doc("sick.md", "Sick leave", "Report sick days to your manager before nine in the morning."),
  doc("travel.md", "Business travel", "Book flights and hotels through the travel portal."),
];
const engine = KnowledgeEngine.fromDocuments({ handbook });
const index = engine.collectionIndex("handbook")!;

describe("RankingCore", () => {
  it("over the embedded engine's indexes answers a normalised request as the engine answers the request", () => {
    const core = new RankingCore([index], { calibration: engine.calibrationModel });
    for (const request of [
      { query: "vacation days" },
      { query: "vacation days", brief: true },
      { query: "sick manager", rerank: false, limit: 2 },
      { query: "zzz unknown words" },
    ]) {
      expect(core.rank(normalizeSearchRequest(request))).toEqual(engine.searchSync(request));
    }
  });
});

describe("queryTermPlan", () => {
  const de = analyzerFor("de");

  it("asks for the analysed terms and every compound part, then adds only the parts the collection holds", () => {
    const plan = queryTermPlan("Seitennummerierung ändern", de);
    const parts = [...de.analyze("Seite"), ...de.analyze("Nummerierung")];
    expect(plan.lookups).toEqual(
      expect.arrayContaining([...de.analyze("Seitennummerierung ändern"), ...parts]),
    );
    const held = new Set([...parts, ...de.analyze("ändern")]);
    expect(plan.terms((term) => (held.has(term) ? 2 : 0))).toEqual([
      ...de.analyze("Seitennummerierung ändern"),
      ...parts,
    ]);
    expect(plan.terms(() => 0)).toEqual(de.analyze("Seitennummerierung ändern"));
  });

  it("gives the terms the embedded engine searches a collection with", () => {
    const german = KnowledgeEngine.fromDocuments(
      { de: [doc("seite.md", "Seite", "Die Nummerierung jeder Seite ändern.")] },
      { language: "de" },
    ).collectionIndex("de")!;
    const plan = queryTermPlan("Seitennummerierung", german.analyzer);
    const frequency = (term: string) => {
      const id = german.lexical.termId(term);
      return id === undefined ? 0 : german.lexical.documentFrequency(id);
    };
    expect(plan.terms(frequency)).toEqual(queryTermsFor("Seitennummerierung", german));
    expect(plan.terms(frequency).length).toBeGreaterThan(
      german.analyzer.analyze("Seitennummerierung").length,
    );
  });
});

describe("queryTermWeights", () => {
  it("sums idf over each occurrence of a term the collection holds and leaves out the others", () => {
    const df = new Map([
      ["vacat", 2],
      ["day", 3],
    ]);
    const weights = queryTermWeights(["vacat", "day", "vacat", "absent"], 10, (t) => df.get(t) ?? 0);
    expect([...weights.keys()]).toEqual(["vacat", "day"]);
    expect(weights.get("vacat")).toBeCloseTo(2 * idf(10, 2), 12);
    expect(weights.get("day")).toBeCloseTo(idf(10, 3), 12);
  });
});

describe("what a candidate-reading backend asks the ranker", () => {
  const terms = queryTermsFor("vacation days", index);

  it("the leading documents are the ranking's own, in its order", () => {
    const ranked = engine.searchSync({ query: "vacation days", limit: 50 }).results.map((h) => h.id);
    expect(leadingDocumentIds(index, terms, true)).toEqual(ranked);
  });

  it("the feedback vocabulary is the terms of the documents the feedback pass reads, as wanted", () => {
    const all = feedbackVocabulary(index, terms, () => true);
    for (const term of index.analyzer.analyze("vacation calendar year")) expect(all.has(term)).toBe(true);
    // The travel document shares no term with the query: the feedback pass never reads it.
    expect(all.has(index.analyzer.analyze("portal")[0]!)).toBe(false);
    const wanted = feedbackVocabulary(index, terms, (term) => !terms.includes(term));
    expect([...wanted].some((term) => terms.includes(term))).toBe(false);
    expect(wanted.size).toBe(all.size - new Set(terms).size);
  });

  it("the expanded query weighs the original terms and the feedback terms; none without feedback", () => {
    const expanded = expandedQueryWeights(index, terms)!;
    for (const term of terms) expect(expanded.get(term)).toBeGreaterThan(0);
    expect([...expanded.keys()].some((term) => !terms.includes(term))).toBe(true);
    expect(expandedQueryWeights(index, index.analyzer.analyze("zzz qqq"))).toBeUndefined();
  });

  it("holdsTerm says whether any section holds a term", () => {
    expect(holdsTerm(index, terms[0]!)).toBe(true);
    expect(holdsTerm(index, "zzz")).toBe(false);
  });
});
