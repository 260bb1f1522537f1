import { describe, expect, it } from "vitest";
import { renderSearchResponse } from "../../src/knowledge-tool/render.js";
import { classifyTextSignal, extractDocKeys } from "../../src/knowledge-tool/result-text.js";
import { hit, response } from "./builders.js";

const quoted = hit({
  id: "pto.md",
  title: "Annual Leave",
  chunks: [{ content: "Every full-time employee gets 25 days of paid annual leave." }],
  pages: { start: 2, end: 2 },
  quote: { text: "25 days of paid annual leave", start: 31, end: 59 },
});

describe("supporting quotes in the tool text (retrieval.answerSpans)", () => {
  it("shows a verbatim quote on its own line after the doc-id and pages lines, in both modes", () => {
    const full = renderSearchResponse(response({ results: [quoted] }), { brief: false }).split("\n");
    expect(full.slice(1, 4)).toEqual([
      "collection: `wiki` doc_id: `pto.md`",
      "p. 2",
      'Quote: "25 days of paid annual leave"',
    ]);
    const brief = renderSearchResponse(response({ results: [{ ...quoted, snippet: "x" }] }), { brief: true });
    expect(brief).toContain('\n   p. 2\n   Quote: "25 days of paid annual leave"');
  });

  it("never shows a paraphrase (a quote not found in the document) and keeps one line", () => {
    const paraphrase = { ...quoted, quote: { text: "about a month off", start: -1, end: -1 } };
    expect(renderSearchResponse(response({ results: [paraphrase] }), { brief: false })).not.toContain(
      "Quote:",
    );
    const multiline = { ...quoted, quote: { text: "25 days\nof leave", start: 31, end: 47 } };
    expect(renderSearchResponse(response({ results: [multiline] }), { brief: false })).toContain(
      'Quote: "25 days of leave"',
    );
  });

  it("leaves the text parsers' reading unchanged", () => {
    const text = renderSearchResponse(response({ results: [quoted] }), { brief: false });
    expect(extractDocKeys(text)).toEqual(["wiki/pto.md"]);
    expect(classifyTextSignal(text)).toBeNull();
  });
});
