import { describe, expect, it } from "vitest";
import { parseSearchArgs } from "../../src/protocol/tool-arguments.js";

describe("parseSearchArgs", () => {
  it("reads Huginn's parameters", () => {
    expect(
      parseSearchArgs({
        query: "  leave  ",
        collection: "handbook",
        limit: 5,
        brief: true,
        min_relevance: 0.3,
      }),
    ).toEqual({ query: "leave", collections: ["handbook"], limit: 5, brief: true, minRelevance: 0.3 });
  });

  it("accepts collection arrays, dropping blanks, non-strings, oversized names and repeats", () => {
    expect(
      parseSearchArgs({ query: "q", collection: ["a", " a ", "", 3, null, "x".repeat(300), "b"] }),
    ).toEqual({
      query: "q",
      collections: ["a", "b"],
    });
    expect(parseSearchArgs({ query: "q", collection: [] })).toEqual({ query: "q" });
    expect(parseSearchArgs({ query: "q", collection: null })).toEqual({ query: "q" });
  });

  it("drops out-of-range numbers instead of guessing", () => {
    expect(parseSearchArgs({ query: "q", limit: 0, min_relevance: 2, brief: "yes" })).toEqual({ query: "q" });
    expect(parseSearchArgs({ query: "q", limit: 1e9, minRelevance: 0 })).toEqual({
      query: "q",
      limit: 100,
      minRelevance: 0,
    });
    expect(parseSearchArgs({ query: "q", limit: Number.NaN })).toEqual({ query: "q" });
  });

  it("refuses what is not a search", () => {
    for (const args of [
      null,
      undefined,
      "q",
      1,
      ["q"],
      {},
      { query: 1 },
      { query: "" },
      { query: "x".repeat(4_001) },
    ]) {
      expect(parseSearchArgs(args)).toBeUndefined();
    }
  });
});
