// The two readers of what a result shows: the structured one never parses text, the text one
// reads a bounded view once per reading.
import { describe, expect, it } from "vitest";
import { structuredResult, textResult } from "../../src/corrective/signal-grader.js";
import { renderSearchResponse } from "../../src/knowledge-tool/render.js";
import { hit, response } from "./corrective-fixtures.js";

const weak = response("vacation", [hit("wiki", "1", "Old doc", 0.2), hit("wiki", "2", "Other", 0.1)], {
  broaderQuery: "leave",
});

describe("structuredResult", () => {
  it("grades the response, not the text: an opaque text still reads as the weak search it rendered", () => {
    const shown = structuredResult(weak, "opaque text with no hits at all", false);
    expect(shown.reading.signalGrade.verdict).toBe("insufficient");
    expect(shown.reading.hints).toEqual({ broaderQuery: "leave" });
    expect([...shown.known]).toEqual(["wiki/1", "wiki/2"]);
    expect(shown.hitsShown).toBe(2);
    expect(shown.reading.evidence()).toMatchObject({ weak: true, hitCount: 2, hitsWithoutRelevance: 0 });
  });

  it("after a merge, the merged hits' best relevance decides and the original's hints are gone", () => {
    const shown = structuredResult(weak, "opaque", false);
    const reread = shown.reread("opaque + more", [hit("wiki", "3", "Fresh", 0.9)]);
    expect(reread.reading.signalGrade.verdict).toBe("correct");
    expect(reread.reading.hints).toEqual({});
    expect(reread.digestSource).toBe("opaque");
  });

  it("counts the queries a server's own rescue searched", () => {
    const rescued = { ...weak, rescue: { queriesTried: ["leave", 7 as unknown as string] } };
    expect(structuredResult(rescued as typeof weak, "x", false).searchedByServer).toEqual(["leave"]);
  });
});

describe("textResult", () => {
  it("reads hits, mode and grade from the rendered text alone", () => {
    const text = renderSearchResponse(weak, { brief: true });
    const shown = textResult(text, false);
    expect(shown.brief).toBe(true);
    expect([...shown.known]).toEqual(["wiki/1", "wiki/2"]);
    expect(shown.hitsShown).toBe(2);
    expect(shown.reading.signalGrade.verdict).toBe("insufficient");
    expect(shown.reading.evidence()).toMatchObject({ weak: true, hitCount: 2 });
    expect(shown.searchedByServer).toEqual([]);
    expect(shown.alreadyShown).toBeUndefined();
  });

  it("re-reads the merged text, and digests its view", () => {
    const shown = textResult(renderSearchResponse(weak, { brief: false }), false);
    const merged = renderSearchResponse(response("leave", [hit("wiki", "3", "Fresh", 0.9)]), {
      brief: false,
    });
    const reread = shown.reread(merged, []);
    expect(reread.reading.signalGrade.verdict).toBe("correct");
    expect(reread.digestSource).toBe(merged);
  });

  it("a text with no hit takes the requested mode", () => {
    expect(textResult("No results found for 'x'.", true).brief).toBe(true);
  });
});
