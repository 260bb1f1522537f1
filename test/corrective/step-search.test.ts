import { describe, expect, it } from "vitest";
import { nextPageLimit, searchStep } from "../../src/corrective/corrective-pass.js";
import { SEARCH_LIMITS } from "../../src/limits.js";
import { hit, response, stubBackend } from "./corrective-fixtures.js";
import { passOver } from "./pass-support.js";

const plan = (...queries: string[]) => ({
  candidates: queries.map((query) => ({ query, origin: "broader" })),
  collections: ["wiki"],
  fromModel: false,
  tried: new Set(queries),
});

describe("searchStep", () => {
  it("searches each candidate with rerank and the original's limit, brief and minRelevance; the round counts", async () => {
    const backend = stubBackend((request) => response(request.query, [hit("wiki", request.query, "T", 0.8)]));
    const pass = passOver(response("q", [hit("wiki", "1", "A", 0.2)]), {
      backend,
      limit: 3,
      brief: true,
      minRelevance: 0.1,
    });
    const searched = await searchStep(pass, plan("a", "b"));
    const found = searched?.found;
    expect(found?.answered.map((r) => r.query)).toEqual(["a", "b"]);
    expect(found?.continuation).toBeUndefined();
    expect(backend.requests).toEqual([
      { query: "a", collections: ["wiki"], rerank: true, limit: 3, brief: true, minRelevance: 0.1 },
      { query: "b", collections: ["wiki"], rerank: true, limit: 3, brief: true, minRelevance: 0.1 },
    ]);
    expect(searched?.pass).toMatchObject({
      retries: 1,
      queriesTried: ["a", "b"],
      collectionsTried: [["wiki"]],
    });
  });

  it("a failing candidate is left out; when all fail the round does not count", async () => {
    const backend = stubBackend((request) => {
      if (request.query !== "ok") throw new Error("down");
      return response("ok", []);
    });
    const pass = passOver(response("q", [hit("wiki", "1", "A", 0.2)]), { backend });
    const counted = await searchStep(pass, plan("ok", "bad"));
    expect(counted?.found.answered.map((r) => r.query)).toEqual(["ok"]);
    expect(await searchStep(counted!.pass, plan("bad"))).toBeUndefined();
    expect(counted?.pass.retries).toBe(1);
  });

  it("a full first page of a signal rescue also fetches the original query's next page", async () => {
    const backend = stubBackend((request) => response(request.query, []));
    const full = Array.from({ length: SEARCH_LIMITS.defaultHits }, (_, i) => hit("wiki", `${i}`, "T", 0.2));
    const pass = passOver(response("q", full), { backend });
    const found = (await searchStep(pass, plan("a")))?.found;
    expect(found?.continuation?.query).toBe("q");
    expect(backend.requests.find((r) => r.query === "q")?.limit).toBe(nextPageLimit(undefined));
  });
});
