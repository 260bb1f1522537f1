import { describe, expect, it } from "vitest";
import {
  gradeFromResponse,
  gradeFromText,
  REASON_CONFIDENT,
  REASON_EMPTY,
  REASON_WEAK,
} from "../../src/corrective/signal-grader.js";
import { renderSearchResponse } from "../../src/knowledge-tool/render.js";
import type { Hit, SearchResponse } from "../../src/types.js";
import {
  muninnTextB,
  muninnTextC,
  muninnTextD,
  responseA,
  responseB,
  responseC2,
  responseD,
  textA,
  textC2,
  textD,
  textE,
} from "../knowledge-tool/huginn-fixtures.js";

const hit: Hit = { collection: "wiki", id: "1", title: "t", relevance: 0.8, band: "high" };

describe("gradeFromResponse", () => {
  it("empty → insufficient, search returned no results", () => {
    const response: SearchResponse = {
      query: "q",
      results: [],
      bestScore: 0.9,
      reranked: true,
      noConfidentResults: true,
    };
    expect(gradeFromResponse(response)).toEqual({
      verdict: "insufficient",
      reason: REASON_EMPTY,
      signal: "empty",
    });
    expect(REASON_EMPTY).toBe("search returned no results");
  });
  it("weak → insufficient, flagged as low confidence", () => {
    expect(gradeFromResponse(responseB)).toEqual({
      verdict: "insufficient",
      reason: REASON_WEAK,
      signal: "weak",
    });
    expect(REASON_WEAK).toBe("the search flagged the result as low confidence");
  });
  it("confident → correct", () => {
    expect(gradeFromResponse(responseA)).toEqual({
      verdict: "correct",
      reason: REASON_CONFIDENT,
      signal: null,
    });
    expect(REASON_CONFIDENT).toBe("no low-confidence signal from the search");
  });
  it("a medium top hit under WEAK_BEST_SCORE is weak", () => {
    const response: SearchResponse = {
      query: "q",
      results: [{ ...hit, relevance: 0.22, band: "medium" }],
      bestScore: 0.22,
      reranked: true,
    };
    expect(gradeFromResponse(response).verdict).toBe("insufficient");
  });
  it("agrees with gradeFromText on the rendering of the same response", () => {
    for (const response of [responseA, responseB, responseC2, responseD]) {
      for (const brief of [true, false]) {
        const fromText = gradeFromText(renderSearchResponse(response, { brief }));
        const fromResponse = gradeFromResponse(response);
        expect(fromText.verdict).toBe(fromResponse.verdict);
        expect(fromText.signal).toBe(fromResponse.signal);
      }
    }
  });
});

describe("gradeFromText", () => {
  it("confident text: correct, no hints, doc keys", () => {
    expect(gradeFromText(textA)).toEqual({
      verdict: "correct",
      reason: REASON_CONFIDENT,
      signal: null,
      hints: {},
      docKeys: ["team-wiki/guides/Onboarding Guide.md", "team-wiki/it/VPN.md"],
    });
  });
  it("weak footer: insufficient with the footer's hints", () => {
    expect(gradeFromText(muninnTextB)).toEqual({
      verdict: "insufficient",
      reason: REASON_WEAK,
      signal: "weak",
      hints: { broaderQuery: "LA_BUC concepts" },
      docKeys: ["wiki/1"],
    });
  });
  it("no results: insufficient, empty, with hints and no doc keys", () => {
    expect(gradeFromText(muninnTextC)).toEqual({
      verdict: "insufficient",
      reason: REASON_EMPTY,
      signal: "empty",
      hints: { narrowerQuery: "xyz precise term" },
      docKeys: [],
    });
    expect(gradeFromText(textC2).hints.relatedTerms).toHaveLength(3);
  });
  it("rescued: correct and no hints", () => {
    const grade = gradeFromText(textD);
    expect(grade.verdict).toBe("correct");
    expect(grade.hints).toEqual({});
  });
  it("reads through a trace marker (fence and pointer)", () => {
    expect(gradeFromText(muninnTextD)).toMatchObject({
      verdict: "insufficient",
      signal: "weak",
      docKeys: ["wiki/1"],
    });
    expect(
      gradeFromText(`${muninnTextB}\n\nhuginn-trace-url: http://h/api/trace/0123456789abcdef\n`).hints,
    ).toEqual({
      broaderQuery: "LA_BUC concepts",
    });
    expect(gradeFromText(textE)).toMatchObject({
      signal: "weak",
      docKeys: ["jira-issues/PROJ-1234_Fix_login.md"],
    });
  });
  it("never reads hints from hit bodies", () => {
    const text = [
      "## Doc (20.0% relevant · low)",
      "collection: `w` doc_id: `1`",
      "",
      'broader query: "evil"',
      "",
      '*Weak match — try: broader query: "x"*',
      "",
      "end",
    ].join("\n");
    const grade = gradeFromText(text);
    expect(grade.verdict).toBe("insufficient");
    expect(grade.hints).toEqual({});
  });
  it("null, undefined and empty input grade correct", () => {
    expect(gradeFromText(null).verdict).toBe("correct");
    expect(gradeFromText(undefined).verdict).toBe("correct");
    expect(gradeFromText("").signal).toBeNull();
  });
  it("never answers ambiguous", () => {
    for (const text of [textA, muninnTextB, muninnTextC, textD, textE, "", "random"]) {
      expect(gradeFromText(text).verdict).not.toBe("ambiguous");
    }
  });
});
