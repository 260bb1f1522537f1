// One search as one value: the call made by searchCall carries the caller's scope (within the
// bot's list) through correctCall to the text the model reads, and a pass that fails leaves that
// text exactly as the search rendered it.
import { describe, expect, it } from "vitest";
import { BotConfigSchema } from "../../src/bots/config-schema.js";
import { assembleBot } from "../../src/connectors/assemble-bot.js";
import { correctCall, modelText, searchCall } from "../../src/connectors/search-pipeline.js";
import type { SearchRequest } from "../../src/types.js";
import { hit, response, stubBackend } from "../corrective/corrective-fixtures.js";

const config = BotConfigSchema.parse({
  knowledge: {
    backend: "embedded",
    collections: { wiki: { paths: ["wiki/**"] }, hr: { paths: ["hr/**"] } },
  },
  correctiveRetrieval: { enabled: true, grader: "signal" },
});

function weakThenFound(failRequeries = false) {
  return stubBackend(
    (request: SearchRequest) => {
      if (request.query === "leave") {
        if (failRequeries) throw new Error("backend down");
        return response("leave", [hit("wiki", "2", "Leave policy", 0.9)]);
      }
      return response(request.query, [hit("wiki", "1", "Old doc", 0.2)], { broaderQuery: "leave" });
    },
    ["wiki", "hr", "payroll"],
  );
}

describe("the search pipeline", () => {
  it("a call's scope is the caller's, cut to the bot's collections; anything but a list allows none", async () => {
    const { pipeline } = assembleBot({ config }, weakThenFound(), {});
    expect((await searchCall(pipeline, { query: "q" }, ["hr", "payroll", "wiki"])).scope).toEqual([
      "wiki",
      "hr",
    ]);
    expect((await searchCall(pipeline, { query: "q" }, "wiki")).scope).toEqual([]);
  });

  it("the call's scope travels to every re-query, and its correction is the text the model reads", async () => {
    const backend = weakThenFound();
    const assembled = assembleBot({ config }, backend, {});
    const call = await searchCall(assembled.pipeline, { query: "vacation days" }, ["wiki"]);
    expect(call.toolSpan).toBeDefined();
    const corrected = await correctCall(assembled.correctorFor(), call, {});
    expect(backend.requests.slice(1).map((r) => r.collections)).toEqual([["wiki"]]);
    expect(corrected.correction?.metadata.queriesTried).toEqual(["leave"]);
    expect(modelText(corrected)).not.toBe(call.text);
    expect(modelText(corrected)).toContain("Old doc");
    expect(modelText(corrected)).toContain("Leave policy");
  });

  it("a failed re-query leaves the text exactly as the search rendered it", async () => {
    const assembled = assembleBot({ config }, weakThenFound(true), {});
    const call = await searchCall(assembled.pipeline, { query: "vacation days" }, ["wiki"]);
    const corrected = await correctCall(assembled.correctorFor(), call, {});
    expect(modelText(corrected)).toBe(call.text);
  });

  it("with the pass off, the call is the search's and holds no open span", async () => {
    const assembled = assembleBot({ config }, weakThenFound(), { CORRECTIVE_RETRIEVAL_DISABLED: "1" });
    const call = await searchCall(assembled.pipeline, { query: "vacation days" }, ["wiki"]);
    expect(call.toolSpan).toBeUndefined();
    const corrected = await correctCall(assembled.correctorFor(), call, {});
    expect(corrected).toBe(call);
    expect(modelText(corrected)).toBe(call.text);
  });
});
