import { describe, expect, it } from "vitest";
import { searchArgsKey, searchArgsOf } from "../../src/corrective/search-call.js";
import { parseSearchArgs, toSearchRequest } from "../../src/knowledge-tool/tool-arguments.js";

describe("searchArgsOf", () => {
  it("reads a validated call's request as parseSearchArgs reads the same arguments observed", () => {
    const args = {
      query: " vacation ",
      collection: "wiki",
      limit: 3,
      brief: true,
      min_relevance: 0.4,
      rerank: false,
    };
    const request = toSearchRequest(args);
    expect(searchArgsOf(request)).toEqual(parseSearchArgs(args));
    expect(searchArgsKey(searchArgsOf(request))).toBe(searchArgsKey(parseSearchArgs(args)!));
  });

  it("unset fields stay unset, and differing calls get differing keys", () => {
    expect(searchArgsOf({ query: "q" })).toEqual({ query: "q" });
    expect(searchArgsKey({ query: "q" })).not.toBe(searchArgsKey({ query: "q", limit: 3 }));
    expect(searchArgsKey({ query: "q", collections: ["a"] })).not.toBe(searchArgsKey({ query: "q" }));
  });
});
