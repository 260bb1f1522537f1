import { describe, expect, it } from "vitest";
import * as z from "zod";
import {
  parseSearchArgs,
  searchKnowledgeShape,
  unknownArgumentsMessage,
} from "../../src/knowledge-tool/tool-arguments.js";

describe("searchKnowledgeShape (the strict reading of our own tools' arguments)", () => {
  const strict = z.object(searchKnowledgeShape);

  it("reads numbers and booleans sent as strings when they can mean only one thing", () => {
    expect(
      strict.parse({ query: "q", limit: " 2 ", brief: "true", min_relevance: "0.5", rerank: "False" }),
    ).toEqual({ query: "q", limit: 2, brief: true, min_relevance: 0.5, rerank: false });
  });

  it("still refuses strings that are not a number or a boolean, and out-of-range values", () => {
    for (const bad of [
      { limit: "ten" },
      { limit: "2.5" },
      { limit: "0" },
      { limit: "" },
      { brief: "yes" },
      { min_relevance: "2" },
      { rerank: "1" },
    ]) {
      expect(strict.safeParse({ query: "q", ...bad }).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it("publishes the number and boolean types, not strings", () => {
    const { properties } = z.toJSONSchema(strict, { io: "input" }) as { properties: Record<string, unknown> };
    const typeOf = (key: string) => JSON.stringify(properties[key]);
    expect(typeOf("limit")).toContain('"integer"');
    expect(typeOf("brief")).toContain('"boolean"');
    expect(typeOf("min_relevance")).toContain('"number"');
    expect(typeOf("rerank")).toContain('"boolean"');
    for (const key of ["limit", "brief", "min_relevance", "rerank"])
      expect(typeOf(key)).not.toContain('"string"');
  });
});

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

describe("unknownArgumentsMessage", () => {
  const known = Object.keys(searchKnowledgeShape);

  it("names one key with the closest valid one", () => {
    expect(unknownArgumentsMessage(["colection"], known)).toBe(
      'unknown argument "colection" (did you mean "collection"?); this tool takes: query, collection, limit, brief, min_relevance, rerank',
    );
  });

  it("names the first five of 90,000 keys and counts the rest", () => {
    const keys = ["limt", ...Array.from({ length: 89_999 }, (_, i) => `k${i}`)];
    expect(unknownArgumentsMessage(keys, known)).toBe(
      'unknown arguments "limt" (did you mean "limit"?), "k0", "k1", "k2", "k3", and 89995 more; this tool takes: query, collection, limit, brief, min_relevance, rerank',
    );
  });

  it("cuts a long key, quotes it as JSON, and suggests nothing for it", () => {
    const message = unknownArgumentsMessage([`"${"x".repeat(10_000)}\n`], known);
    expect(message).toBe(
      `unknown argument "\\"${"x".repeat(63)}…"; this tool takes: query, collection, limit, brief, min_relevance, rerank`,
    );
  });
});
