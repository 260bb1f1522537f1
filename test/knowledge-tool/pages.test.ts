import { describe, expect, it } from "vitest";
import { parsePageRange, renderPageRange } from "../../src/knowledge-tool/page-range.js";
import { renderSearchResponse } from "../../src/knowledge-tool/render.js";
import {
  classifyTextSignal,
  extractDocKeys,
  extractTrailingFooter,
  parseFooterHints,
  scanResultText,
} from "../../src/knowledge-tool/result-text.js";
import { hit, response } from "./builders.js";

const paged = hit({
  id: "manual.pdf",
  title: "Manual",
  url: "https://x.example/manual.pdf",
  breadcrumb: "Part I",
  heading: "Maintenance",
  snippet: "Run the routine.",
  relevance: 0.823,
  pages: { start: 3, end: 5 },
});

describe("page ranges", () => {
  it("renders p. N for one page and pp. N–M (en dash) for a range", () => {
    expect(renderPageRange({ start: 3, end: 3 })).toBe("p. 3");
    expect(renderPageRange({ start: 3, end: 5 })).toBe("pp. 3\u20135");
  });

  it("renders nothing for absent or invalid ranges", () => {
    expect(renderPageRange(undefined)).toBeUndefined();
    for (const bad of [
      { start: 0, end: 1 },
      { start: 5, end: 3 },
      { start: 1.5, end: 2 },
      { start: Number.NaN, end: 2 },
    ]) {
      expect(renderPageRange(bad)).toBeUndefined();
    }
  });

  it("reads back what it writes", () => {
    expect(parsePageRange("p. 3")).toEqual({ start: 3, end: 3 });
    expect(parsePageRange("   pp. 3\u20135")).toEqual({ start: 3, end: 5 });
    expect(parsePageRange("pp. 3-5")).toEqual({ start: 3, end: 5 });
    expect(parsePageRange("pp. 5-3")).toBeUndefined();
    expect(parsePageRange("page 3")).toBeUndefined();
  });
});

describe("hits with pages", () => {
  it("full mode: header line unchanged, pages on the line after the doc-id line", () => {
    const text = renderSearchResponse(response({ results: [paged], bestScore: 0.823 }), { brief: false });
    const lines = text.split("\n");
    expect(lines.slice(0, 5)).toEqual([
      "## Manual (82.3% relevant · high)",
      "https://x.example/manual.pdf",
      "Part I",
      "collection: `wiki` doc_id: `manual.pdf`",
      "pp. 3\u20135",
    ]);
    expect(
      text.startsWith(
        renderSearchResponse(response({ results: [{ ...paged, pages: undefined }] }), { brief: false })
          .split("\n")
          .slice(0, 4)
          .join("\n"),
      ),
    ).toBe(true);
  });

  it("brief mode: pages indented after the doc-id line", () => {
    const text = renderSearchResponse(response({ results: [{ ...paged, pages: { start: 3, end: 3 } }] }), {
      brief: true,
    });
    expect(text.split("\n").slice(-2)).toEqual(["   collection: `wiki` doc_id: `manual.pdf`", "   p. 3"]);
  });

  it.each([false, true])("the text parsers still read a text with pages (brief=%s)", (brief) => {
    const weak = response({
      results: [paged, hit({ id: "b.pdf", relevance: 0.3, band: "low", pages: { start: 1, end: 1 } })],
      bestScore: 0.3,
      retryHints: { broaderQuery: "routine" },
    });
    weak.results[0]!.relevance = 0.3;
    weak.results[0]!.band = "low";
    const text = renderSearchResponse(weak, { brief });
    const scan = scanResultText(extractTrailingFooter(text).body);
    expect(scan.docKeys).toEqual(["wiki/manual.pdf", "wiki/b.pdf"]);
    expect(scan.hitCount).toBe(2);
    expect(scan.hitsWithoutRelevance).toBe(0);
    expect(scan.bestRelevance).toBeCloseTo(0.3);
    expect(extractDocKeys(text)).toEqual(["wiki/manual.pdf", "wiki/b.pdf"]);
    expect(extractTrailingFooter(text).kind).toBe("weak");
    expect(parseFooterHints(extractTrailingFooter(text).footer)).toMatchObject({ broaderQuery: "routine" });
    expect(classifyTextSignal(text)).toBe("weak");
  });
});
