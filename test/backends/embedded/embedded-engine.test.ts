import { describe, expect, it } from "vitest";
import { KnowledgeEngine, UnknownCollectionError } from "../../../src/backends/embedded/embedded-engine.js";
import type { IndexableDocument } from "../../../src/knowledge/index/collection-index.js";
import { bandFor, WEAK_BEST_SCORE } from "../../../src/weakness.js";

const doc = (id: string, title: string, sections: [string, string][]): IndexableDocument => ({
  id,
  title,
  sections: sections.map(([heading, content]) => ({ headingPath: [title, heading], heading, content })),
});

const handbook = [
  doc("pto.md", "Vacation and paid time off", [
    ["Allowance", "Every employee gets 25 vacation days per calendar year, accrued monthly."],
    ["Carry-over", "Up to five unused days carry over to the next year."],
  ]),
  doc("sick.md", "Sick leave", [
    ["Reporting", "Report sick days to your manager before nine in the morning."],
  ]),
  doc("travel.md", "Business travel", [["Booking", "Book flights and hotels through the travel portal."]]),
  doc("expenses.md", "Expenses", [["Receipts", "Submit receipts within 30 days of purchase."]]),
];
const engine = KnowledgeEngine.fromDocuments({
  handbook,
  it: [doc("vpn.md", "VPN", [["Setup", "Install the VPN client."]])],
});

describe("KnowledgeEngine.search", () => {
  it("finds the section that answers the question, with its document, heading and chunks", async () => {
    const r = await engine.search({ query: "how many vacation days do I get" });
    const top = r.results[0]!;
    expect(top).toMatchObject({ collection: "handbook", id: "pto.md", title: "Vacation and paid time off" });
    expect(top.chunks?.map((c) => c.content).join(" ")).toContain("25 vacation days");
    expect(r.bestScore).toBe(top.relevance);
  });

  it("returns calibrated relevance in 0..1 with the band that relevance implies, best first", async () => {
    const r = await engine.search({ query: "vacation days carry over" });
    for (const hit of r.results) {
      expect(hit.relevance).toBeGreaterThanOrEqual(0);
      expect(hit.relevance).toBeLessThanOrEqual(1);
      expect(hit.band).toBe(bandFor(hit.relevance));
    }
    const relevances = r.results.map((h) => h.relevance);
    expect(relevances).toEqual([...relevances].sort((a, b) => b - a));
  });

  it("groups sections into one hit per document", async () => {
    const r = await engine.search({ query: "vacation days" });
    expect(r.results.filter((h) => h.id === "pto.md")).toHaveLength(1);
    expect(r.results[0]!.chunks!.length).toBe(2);
  });

  it("brief mode gives a snippet instead of chunks and does not rerank by default", async () => {
    const r = await engine.search({ query: "vacation days", brief: true });
    expect(r.results[0]!.snippet).toContain("25 vacation days");
    expect(r.results[0]!.chunks).toBeUndefined();
    expect(r.reranked).toBe(false);
    expect((await engine.search({ query: "vacation days" })).reranked).toBe(true);
  });

  it("scopes to the requested collections and refuses unknown ones with Huginn's wording", async () => {
    const r = await engine.search({ query: "vpn client", collections: ["handbook"] });
    expect(r.results.every((h) => h.collection === "handbook")).toBe(true);
    await expect(engine.search({ query: "x", collections: ["secret"] })).rejects.toThrow(
      new UnknownCollectionError("secret", ["handbook", "it"]).message,
    );
  });

  it("an empty match is weak: no results, noConfidentResults, bestScore 0", async () => {
    const r = await engine.search({ query: "zeppelin mooring" });
    expect(r).toMatchObject({ results: [], bestScore: 0, noConfidentResults: true });
  });

  it("minRelevance filters hits but bestScore is taken before the filter", async () => {
    const all = await engine.search({ query: "vacation days" });
    const filtered = await engine.search({ query: "vacation days", minRelevance: 0.999 });
    expect(filtered.results).toEqual([]);
    expect(filtered.bestScore).toBe(all.bestScore);
    expect(filtered.noConfidentResults).toBe(true);
  });

  it("a weak response carries retry hints with named strategies; a confident one none", async () => {
    // Only "leave" is in the corpus: words the index never saw count against the hit.
    const weak = await engine.search({ query: "parental leave for contractors abroad" });
    expect(weak.results[0]?.id).toBe("sick.md");
    expect(weak.bestScore).toBeLessThan(WEAK_BEST_SCORE);
    // The broader query drops the words no document contains and keeps the one that matters.
    expect(weak.retryHints?.broaderQuery).toBe("leave");
    expect(weak.retryHints?.broaderQueryStrategy).toBe("drop_unmatched");
    expect(weak.retryHints?.unmatchedTerms).toEqual(["parental", "contractors", "abroad"]);
    expect(weak.retryHints?.rescueQueries?.[0]).toMatchObject({ query: "leave", strategy: "drop_unmatched" });
    expect(weak.retryHints?.narrowerQueryStrategy).toBe("feedback_terms");
    expect(weak.retryHints?.relatedTerms).toContain("sick");
    const strong = await engine.search({ query: "vacation days per calendar year accrued monthly" });
    expect(strong.bestScore).toBeGreaterThanOrEqual(WEAK_BEST_SCORE);
    expect(strong.retryHints).toBeUndefined();
  });

  it("limit is clamped to 1..100 and a non-number falls back to 10", async () => {
    expect((await engine.search({ query: "days", limit: 1 })).results).toHaveLength(1);
    expect((await engine.search({ query: "days", limit: -5 })).results.length).toBeLessThanOrEqual(1);
    expect((await engine.search({ query: "days", limit: Number.NaN })).results.length).toBeLessThanOrEqual(
      10,
    );
  });

  it("a huge or non-string query is bounded, not an error", async () => {
    const huge = "vacation ".repeat(20_000);
    expect((await engine.search({ query: huge })).results[0]?.id).toBe("pto.md");
    expect((await engine.search({ query: 42 as unknown as string })).results).toEqual([]);
  });

  it("honours an already-aborted signal", async () => {
    await expect(engine.search({ query: "vacation" }, { signal: AbortSignal.abort() })).rejects.toThrow();
  });
});

describe("KnowledgeEngine.getDocument", () => {
  it("returns the whole document with its sections, or undefined", async () => {
    const d = await engine.getDocument("handbook", "pto.md");
    expect(d?.text).toContain("Up to five unused days");
    expect(d?.sections?.map((s) => s.heading)).toEqual(["Allowance", "Carry-over"]);
    expect(await engine.getDocument("handbook", "nope.md")).toBeUndefined();
    expect(await engine.getDocument("nope", "pto.md")).toBeUndefined();
  });
});
