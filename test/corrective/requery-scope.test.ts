import { describe, expect, it } from "vitest";
import { requeryScope } from "../../src/corrective/requery.js";

describe("requeryScope", () => {
  const allowed = ["wiki", "handbook"];

  it("no explicit collection → exactly the allow-list", () => {
    expect(requeryScope(allowed, undefined, undefined)).toEqual({
      collections: ["wiki", "handbook"],
      redirected: false,
    });
    expect(requeryScope(allowed, [], undefined)).toEqual({
      collections: ["wiki", "handbook"],
      redirected: false,
    });
  });

  it("keeps the search's own scope, inside the allow-list", () => {
    expect(requeryScope(allowed, ["handbook", "secret"], undefined)).toEqual({
      collections: ["handbook"],
      redirected: false,
    });
    expect(requeryScope(allowed, ["secret"], undefined)).toHaveProperty("stop");
  });

  it("follows a suggestion inside the allow-list, ignores one outside it", () => {
    expect(requeryScope(allowed, ["wiki"], "handbook")).toEqual({
      collections: ["handbook"],
      redirected: true,
    });
    expect(requeryScope(allowed, ["wiki"], "secret")).toEqual({ collections: ["wiki"], redirected: false });
  });

  it("an empty allow-list searches nothing", () => {
    expect(requeryScope([], undefined, "wiki")).toHaveProperty("stop");
  });
});
