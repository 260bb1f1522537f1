import { describe, expect, it } from "vitest";
import { boundedView, MAX_VIEW_CHARS } from "../../src/knowledge-tool/result-text.js";

describe("boundedView", () => {
  it("returns a small text itself", () => {
    const text = "a\nb\nc";
    expect(boundedView(text)).toEqual({ view: text, truncated: false });
  });

  it("keeps the head and the tail of a large text, cut at line boundaries", () => {
    const lines = Array.from({ length: 200_000 }, (_, i) => `line ${i}`);
    const text = `${lines.join("\n")}\n\n*Weak match — try: broader query: "wide"*`;
    const { view, truncated } = boundedView(text);
    expect(truncated).toBe(true);
    expect(view.length).toBeLessThanOrEqual(MAX_VIEW_CHARS + 2);
    expect(view.startsWith("line 0\nline 1\n")).toBe(true);
    expect(view.endsWith('\n\n*Weak match — try: broader query: "wide"*')).toBe(true);
    // Every line of the view is a whole line of the text.
    const textLines = new Set(text.split("\n"));
    expect(view.split("\n").filter((line) => !textLines.has(line))).toEqual([]);
    expect(view).not.toContain("line 100000\n");
  });

  it("copes with a text without line breaks", () => {
    const { view, truncated } = boundedView("x".repeat(1_000_000));
    expect(truncated).toBe(true);
    expect(view.length).toBeLessThanOrEqual(MAX_VIEW_CHARS + 2);
  });
});
