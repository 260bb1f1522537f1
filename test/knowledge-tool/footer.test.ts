import { describe, expect, it } from "vitest";
import {
  extractTrailingFooter,
  parseFooterHints,
  stripTrailingFooter,
} from "../../src/knowledge-tool/result-text.js";
import { muninnTextB, muninnTextC, textB, textC2, textD } from "./huginn-fixtures.js";

describe("extractTrailingFooter", () => {
  it("finds Huginn's weak footer and trims the body", () => {
    const { body, footer, kind } = extractTrailingFooter(textB);
    expect(footer).toBe('*Weak match — try: broader query: "tibetansk pensjonsavtale"*');
    expect(kind).toBe("weak");
    expect(body).toBe(textB.slice(0, textB.indexOf("\n\n*Weak")));
  });
  it("classifies no-confident and rescue footers", () => {
    expect(extractTrailingFooter(textC2).kind).toBe("no-confident");
    expect(extractTrailingFooter(textD).kind).toBe("rescued");
    expect(extractTrailingFooter("*Weak match.*").kind).toBe("weak");
    expect(extractTrailingFooter("*No confident match.*").kind).toBe("no-confident");
  });
  it("tolerates trailing whitespace and CRLF", () => {
    expect(extractTrailingFooter("body\r\n\r\n*Weak match.*\r\n  \n").kind).toBe("weak");
  });
  it("only the last non-blank line counts", () => {
    const text = 'hit\n\n*Weak match — try: broader query: "x"*\n\nmore document text';
    expect(extractTrailingFooter(text)).toEqual({ body: text, footer: "" });
  });
  it("needs a blank line above it (a footer glued to text is document prose)", () => {
    expect(extractTrailingFooter("some text\n*Weak match.*").footer).toBe("");
    expect(extractTrailingFooter("body *Weak match — try: x*").footer).toBe("");
  });
  it("requires a word boundary after the prefix and a closing asterisk", () => {
    expect(extractTrailingFooter("a\n\n*Weak matches are common*").footer).toBe("");
    expect(extractTrailingFooter('a\n\n*Weak match — try: broader query: "x"').footer).toBe("");
    expect(extractTrailingFooter("a\n\n*No confident matching*").footer).toBe("");
  });
  it("a footer followed by a trace marker is not trailing (peel the marker first)", () => {
    expect(extractTrailingFooter(`${textB}\n\nhuginn-trace-id: 0123456789abcdef`).footer).toBe("");
  });
});

describe("stripTrailingFooter", () => {
  it("removes a weak footer and the blank line before it", () => {
    expect(stripTrailingFooter(muninnTextB)).toBe(
      "## Marginal hit (12% relevant · low)\ncollection: `wiki` doc_id: `1`\n\nmeh",
    );
    expect(stripTrailingFooter(muninnTextC)).toBe("No results found for 'xyz'.");
  });
  it("keeps a rescue marker (a fact about the results, not advice)", () => {
    expect(stripTrailingFooter(`${textD}\n`)).toBe(textD);
  });
  it("right-trims a text without a footer", () => {
    expect(stripTrailingFooter("hit\n\n")).toBe("hit");
  });
});

describe("parseFooterHints", () => {
  it("reads every bit in Huginn's order", () => {
    expect(parseFooterHints(extractTrailingFooter(textC2).footer)).toEqual({
      relatedTerms: ["LA_BUC_02 Beslutning om lovvalg", "A003 Beslutning om lovvalg", "Artikkel 13"],
      narrowerQuery: "hvilke SEDer er i LA_BUC_02 prosessen LA_BUC_02 Beslutning om lovvalg",
      broaderQuery: "hvilke SEDer er i LA_BUC_02",
    });
  });
  it("reads related terms alone, narrower alone, broader alone", () => {
    expect(parseFooterHints("*Weak match — try: related terms: foo, bar*")).toEqual({
      relatedTerms: ["foo", "bar"],
    });
    expect(parseFooterHints('*No confident match — try: narrower query: "xyz precise term"*')).toEqual({
      narrowerQuery: "xyz precise term",
    });
    expect(parseFooterHints('*Weak match — try: broader query: "LA_BUC concepts"*')).toEqual({
      broaderQuery: "LA_BUC concepts",
    });
  });
  it("keeps quotes and ` · ` inside queries", () => {
    const footer =
      '*Weak match — try: related terms: a · narrower query: "say "hi" · now" · broader query: "the "x" · y"*';
    expect(parseFooterHints(footer)).toEqual({
      relatedTerms: ["a"],
      narrowerQuery: 'say "hi" · now',
      broaderQuery: 'the "x" · y',
    });
  });
  it("keeps a narrower query that contains `broader query:` when a broader bit follows", () => {
    const footer = '*Weak match — try: narrower query: "a" · broader query: "b" · broader query: "c"*';
    expect(parseFooterHints(footer)).toEqual({ narrowerQuery: 'a" · broader query: "b', broaderQuery: "c" });
  });
  it("drops a bit whose closing quote is missing", () => {
    expect(parseFooterHints('*Weak match — try: broader query: "unterminated*')).toEqual({});
  });
  it("returns nothing for a rescue marker, a bare footer, or other wording", () => {
    expect(parseFooterHints(extractTrailingFooter(textD).footer)).toEqual({});
    expect(parseFooterHints("*Weak match.*")).toEqual({});
    expect(parseFooterHints('*Weak match, see — try: broader query: "x"*')).toEqual({});
    expect(parseFooterHints('broader query: "evil"')).toEqual({});
    expect(parseFooterHints("")).toEqual({});
  });
});
