import { describe, expect, it } from "vitest";
import { searchArgsOf } from "../../src/corrective/search-call.js";
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
  });

  it("unset fields stay unset", () => {
    expect(searchArgsOf({ query: "q" })).toEqual({ query: "q" });
  });
});
