import { describe, expect, it } from "vitest";
import { renderHits } from "../../src/knowledge-tool/render.js";
import {
  appendCorrection,
  peelTraceMarker,
  renderRequeryNote,
} from "../../src/knowledge-tool/result-text.js";
import {
  muninnFenceD,
  muninnMergedB,
  muninnTextB,
  muninnTextD,
  muninnWiderHit,
  textD,
} from "./huginn-fixtures.js";

describe("renderRequeryNote", () => {
  it("one collection, one result", () => {
    expect(
      renderRequeryNote({
        n: 1,
        verdict: "insufficient",
        reason: "off-topic",
        query: "LA_BUC_02 structured electronic documents",
        collections: ["wiki"],
        added: 1,
      }),
    ).toBe(
      '[corrective retrieval — re-query #1: prior results graded "insufficient" (off-topic); re-searched "LA_BUC_02 structured electronic documents" in collection wiki; 1 additional result below, deduped against the results above]',
    );
  });
  it("several collections, several results", () => {
    expect(
      renderRequeryNote({
        n: 2,
        verdict: "ambiguous",
        reason: "r",
        query: "q",
        collections: ["a", "b"],
        added: 3,
      }),
    ).toBe(
      '[corrective retrieval — re-query #2: prior results graded "ambiguous" (r); re-searched "q" in collections a, b; 3 additional results below, deduped against the results above]',
    );
  });
  it("no collections means no scope; zero results is plural", () => {
    const note = renderRequeryNote({
      n: 1,
      verdict: "insufficient",
      reason: "r",
      query: "q",
      collections: [],
      added: 0,
    });
    expect(note).toContain('re-searched "q"; 0 additional results below');
    expect(renderRequeryNote({ n: 1, verdict: "insufficient", reason: "r", query: "q", added: 2 })).toContain(
      're-searched "q"; 2 additional results',
    );
  });
  it("stays on one line when the reason or query has line breaks", () => {
    const note = renderRequeryNote({
      n: 1,
      verdict: "insufficient",
      reason: "a\nb",
      query: "c\r\nd",
      added: 1,
    });
    expect(note).not.toMatch(/[\r\n]/);
  });
});

describe("appendCorrection", () => {
  it("reproduces muninn fixture B's merged text exactly", () => {
    const note = renderRequeryNote({
      n: 1,
      verdict: "insufficient",
      reason: "Huginn flagged the result as low confidence",
      query: "LA_BUC concepts",
      collections: ["wiki"],
      added: 1,
    });
    expect(appendCorrection(muninnTextB, note, renderHits([muninnWiderHit], { brief: false }))).toBe(
      muninnMergedB,
    );
  });
  it("keeps the original body byte-for-byte (here a rescue marker stays)", () => {
    const merged = appendCorrection(textD, "[note]", "new");
    expect(merged).toBe(`${textD}\n\n---\n[note]\n\nnew`);
  });
  it("works on a peeled body and the marker is re-appended unchanged (muninn fixture D)", () => {
    const { body, marker } = peelTraceMarker(muninnTextD);
    const final = appendCorrection(body, "[note]", "## Right doc (80.0% relevant · high)") + marker;
    expect(final.startsWith(body)).toBe(true);
    expect(final.endsWith(muninnFenceD)).toBe(true);
    expect(final.endsWith("```")).toBe(true);
  });
});
