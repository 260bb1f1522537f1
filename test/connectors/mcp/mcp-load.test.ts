// Acceptance 3: 200 concurrent MCP tool calls over one stdio connection complete with no lost
// or cross-wired answer, each corrected with its own re-query (bench/mcp-load.bench.ts runs the
// same load and reports the latencies). Behaviour only: no assertion on speed.
import { describe, expect, it } from "vitest";
import { measureMcpLoad } from "../../../bench/mcp-load.bench.js";

describe("second-look mcp under 200 concurrent calls", () => {
  it("answers every call with its own result, corrected, scoped, re-queried with rerank", async () => {
    const f = await measureMcpLoad({ calls: 200 });
    expect(f.problems).toEqual([]);
    expect(f).toMatchObject({
      calls: 200,
      answered: 200,
      lost: 0,
      crossWired: 0,
      errors: 0,
      corrected: 200,
      searches: 400,
      unscopedSearches: 0,
      requeriesWithoutRerank: 0,
    });
  }, 120_000);
});
