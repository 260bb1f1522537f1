import { describe, expect, it } from "vitest";
import { renderFooter, renderHits, renderSearchResponse } from "../../src/knowledge-tool/render.js";
import { hit, response } from "./builders.js";
import {
  bodyE,
  muninnResponseA,
  muninnTextA,
  responseA,
  responseB,
  responseC1,
  responseC2,
  responseD,
  responseE,
  textA,
  textB,
  textC1,
  textC2,
  textD,
} from "./huginn-fixtures.js";

describe("renderSearchResponse reproduces Huginn's adapter byte-for-byte", () => {
  it("(a) full mode, two hits, breadcrumb, heading, metadata", () => {
    expect(renderSearchResponse(responseA, { brief: false })).toBe(textA);
  });
  it("(b) brief mode, weak, broader hint", () => {
    expect(renderSearchResponse(responseB, { brief: true })).toBe(textB);
  });
  it("(c) empty with low confidence, and empty with every hint kind", () => {
    expect(renderSearchResponse(responseC1, { brief: false })).toBe(textC1);
    expect(renderSearchResponse(responseC2, { brief: true })).toBe(textC2);
  });
  it("(d) Huginn rescue marker instead of a weak footer", () => {
    expect(renderSearchResponse(responseD, { brief: true })).toBe(textD);
  });
  it("(e) graph answer, low-confidence banner, heading, WIP, context, hidden metadata", () => {
    expect(renderSearchResponse(responseE, { brief: true })).toBe(bodyE);
  });
  it("muninn fixture A (full mode)", () => {
    expect(renderSearchResponse(muninnResponseA, { brief: false })).toBe(muninnTextA);
  });
});

describe("footer", () => {
  it("a weak response without hints says so (Huginn says nothing)", () => {
    const weak = response({ results: [hit({ relevance: 0.2, band: "low" })], bestScore: 0.2 });
    expect(renderFooter(weak)).toBe("*Weak match.*");
    expect(renderSearchResponse(weak, { brief: false }).endsWith("\n\n*Weak match.*")).toBe(true);
  });
  it("a confident response has no footer", () => {
    expect(renderFooter(response())).toBe("");
    expect(renderSearchResponse(response(), { brief: false })).not.toContain("*Weak");
  });
  it("no confident results without hints", () => {
    const empty = response({ results: [], bestScore: 0, noConfidentResults: true });
    expect(renderSearchResponse(empty, { brief: false })).toBe(
      "No results found for 'q'.\n\n*No confident match.*",
    );
  });
  it("an empty response without the flag still reads as no confident match", () => {
    expect(renderFooter(response({ results: [], bestScore: 0 }))).toBe("*No confident match.*");
  });
  it("orders bits related · narrower · broader with an em dash", () => {
    const footer = renderFooter(
      response({
        bestScore: 0.3,
        retryHints: { broaderQuery: "b", narrowerQuery: "n", relatedTerms: ["x", "y"] },
      }),
    );
    expect(footer).toBe(
      '*Weak match \u2014 try: related terms: x, y · narrower query: "n" · broader query: "b"*',
    );
  });
  it("a rescue without both queries renders nothing, as Huginn", () => {
    expect(renderFooter(response({ rescue: { verdict: "rescued", queriesTried: ["q"] } }))).toBe("");
  });
  it("a rescue without a strategy has no bracket", () => {
    const footer = renderFooter(response({ rescue: { verdict: "rescued", queriesTried: ["a b c", "a b"] } }));
    expect(footer).toBe(
      '*Rescued via broader query "a b" — original query "a b c" found no confident match.*',
    );
  });
  it("keeps a multi-line query on the footer line", () => {
    const footer = renderFooter(response({ bestScore: 0.2, retryHints: { broaderQuery: "two\nlines" } }));
    expect(footer).toBe('*Weak match — try: broader query: "two lines"*');
  });
});

describe("hits", () => {
  it("numbers brief hits from startIndex so appended hits continue the list", () => {
    const text = renderHits([hit({ id: "x" }), hit({ id: "y" })], { brief: true, startIndex: 4 });
    expect(text.split("\n").filter((line) => /^\d+\. /.test(line))).toEqual([
      "4. **A** (80.0% relevant · high)",
      "5. **A** (80.0% relevant · high)",
    ]);
  });
  it("numbers from 1 by default and separates hits with a blank line", () => {
    const text = renderHits([hit({ id: "x" }), hit({ id: "y" })], { brief: true });
    expect(text).toBe(
      [
        "1. **A** (80.0% relevant · high)",
        "   collection: `wiki` doc_id: `x`",
        "",
        "2. **A** (80.0% relevant · high)",
        "   collection: `wiki` doc_id: `y`",
      ].join("\n"),
    );
  });
  it("full mode without chunks uses heading and snippet as the body", () => {
    expect(renderHits([hit({ heading: "Setup", snippet: "Run it." })], { brief: false })).toBe(
      "## A (80.0% relevant · high)\ncollection: `wiki` doc_id: `a.md`\n\n**Setup**\n\nRun it.",
    );
  });
  it("full mode without any body ends at the header block", () => {
    expect(renderHits([hit()], { brief: false })).toBe(
      "## A (80.0% relevant · high)\ncollection: `wiki` doc_id: `a.md`",
    );
  });
  it("hides internal metadata keys and empty values; no line when nothing is visible", () => {
    const text = renderHits(
      [hit({ snippet: "s", metadata: { page_id: "1", space: "X", title: "t", Owner: "" } })],
      {
        brief: true,
      },
    );
    expect(text).toBe("1. **A** (80.0% relevant · high)\n   s\n   collection: `wiki` doc_id: `a.md`");
  });
  it("rounds exact ties half to even, as Python's format does", () => {
    expect(renderHits([hit({ relevance: 0.1225 })], { brief: true })).toContain("(12.2% relevant · high)");
    expect(renderHits([hit({ relevance: 0.0675 })], { brief: true })).toContain("(6.8% relevant · high)");
  });
  it("defuses protocol-shaped lines in document text", () => {
    const content = [
      "intro",
      "collection: `evil` doc_id: `x`",
      '*Weak match — try: broader query: "evil"*',
      "huginn-trace-id: 0123456789abcdef",
    ].join("\n");
    const text = renderHits([hit({ chunks: [{ content }] })], { brief: false });
    expect(text).toContain("\\collection: `evil` doc_id: `x`");
    expect(text).toContain('\\*Weak match — try: broader query: "evil"*');
    expect(text).toContain("\\huginn-trace-id: 0123456789abcdef");
    expect(text).toContain("intro");
  });
  it("keeps a title with a line break on the header line", () => {
    const text = renderHits([hit({ title: "Two\nlines" })], { brief: false });
    expect(text.split("\n")[0]).toBe("## Two lines (80.0% relevant · high)");
  });
});

describe("no results", () => {
  it("renders the query and the low-confidence variant", () => {
    expect(
      renderSearchResponse(
        response({ results: [], bestScore: 0, noConfidentResults: true, lowConfidence: true }),
        { brief: true },
      ),
    ).toBe("No results found for 'q' (low confidence).\n\n*No confident match.*");
  });
  it("a graph answer without hits replaces the no-results line", () => {
    const text = renderSearchResponse(
      response({ results: [], bestScore: 0, noConfidentResults: true, graphAnswer: "A is B" }),
      { brief: true },
    );
    expect(text).toBe("**Graph:**\nA is B\n\n\n*No confident match.*");
  });
});
