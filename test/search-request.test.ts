import { describe, expect, it } from "vitest";
import { KnowledgeEngine } from "../src/backends/embedded/embedded-engine.js";
import { searchQueryString } from "../src/backends/huginn/huginn-query.js";
import { SEARCH_LIMITS } from "../src/limits.js";
import { normalizeSearchRequest } from "../src/search-request.js";

describe("normalizeSearchRequest", () => {
  it("cuts the query at SEARCH_LIMITS.queryChars and reads anything else as an empty query", () => {
    const long = "kettle ".repeat(1_000);
    expect(normalizeSearchRequest({ query: long }).query).toBe(long.slice(0, SEARCH_LIMITS.queryChars));
    expect(normalizeSearchRequest({ query: 42 as unknown as string }).query).toBe("");
  });

  it("clamps the limit to 1..maxHits, the default when it is not a number", () => {
    expect(normalizeSearchRequest({ query: "q", limit: 0 }).limit).toBe(1);
    expect(normalizeSearchRequest({ query: "q", limit: 10_000 }).limit).toBe(SEARCH_LIMITS.maxHits);
    expect(normalizeSearchRequest({ query: "q", limit: 7.9 }).limit).toBe(7);
    expect(normalizeSearchRequest({ query: "q", limit: Number.NaN }).limit).toBe(SEARCH_LIMITS.defaultHits);
    expect(normalizeSearchRequest({ query: "q" }).limit).toBe(SEARCH_LIMITS.defaultHits);
  });

  it("reranks unless brief, keeps the caller's own choice apart from the default", () => {
    expect(normalizeSearchRequest({ query: "q" })).toMatchObject({
      brief: false,
      rerank: true,
      rerankAsked: undefined,
    });
    expect(normalizeSearchRequest({ query: "q", brief: true })).toMatchObject({
      brief: true,
      rerank: false,
      rerankAsked: undefined,
    });
    expect(normalizeSearchRequest({ query: "q", brief: true, rerank: true })).toMatchObject({
      rerank: true,
      rerankAsked: true,
    });
    expect(normalizeSearchRequest({ query: "q", rerank: false })).toMatchObject({
      rerank: false,
      rerankAsked: false,
    });
  });

  it("keeps minRelevance only when it is a number, and the collections as named", () => {
    expect(normalizeSearchRequest({ query: "q", minRelevance: 0.4 }).minRelevance).toBe(0.4);
    expect(
      normalizeSearchRequest({ query: "q", minRelevance: "0.4" as unknown as number }).minRelevance,
    ).toBe(undefined);
    expect(normalizeSearchRequest({ query: "q", collections: ["a", "b"] }).collections).toEqual(["a", "b"]);
  });
});

describe("every backend bounds a request alike", () => {
  const long = "kettle ".repeat(1_000);
  const request = { query: long, limit: 10_000 };
  const normalized = normalizeSearchRequest(request);

  it("the embedded engine answers for the cut query, with at most the clamped hit count", () => {
    const engine = KnowledgeEngine.fromDocuments({
      kb: Array.from({ length: 120 }, (_, i) => ({
        id: `d${i}.md`,
        title: `Kettle ${i}`,
        sections: [{ headingPath: [`Kettle ${i}`], content: "Descale the kettle." }],
      })),
    });
    const response = engine.searchSync(request);
    expect(response.query).toBe(normalized.query);
    expect(response.results).toHaveLength(normalized.limit);
  });

  it("the Huginn client sends the cut query and the clamped limit, and rerank only when asked", () => {
    const params = new URLSearchParams(searchQueryString(normalized, ["kb"]));
    expect(params.get("q")).toBe(normalized.query);
    expect(params.get("limit")).toBe(String(SEARCH_LIMITS.maxHits));
    expect(params.has("rerank")).toBe(false);
    const asked = new URLSearchParams(
      searchQueryString(normalizeSearchRequest({ query: "q", rerank: true }), ["kb"]),
    );
    expect(asked.get("rerank")).toBe("true");
  });
});
