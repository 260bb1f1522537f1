import { describe, expect, it } from "vitest";
import { analyzerFor } from "../../src/knowledge/analysis/registry.js";
import { snippetFor, truncateSnippet } from "../../src/knowledge/snippet.js";

const analyze = (text: string) => analyzerFor("en").analyze(text);

describe("snippetFor", () => {
  it("starts at the sentence that matches the query best", () => {
    const content =
      "Welcome to the handbook. Parking is free. Every employee gets 25 vacation days per year.";
    expect(snippetFor(content, new Set(analyze("vacation days")), analyzerFor("en"))).toBe(
      "Every employee gets 25 vacation days per year.",
    );
  });

  it("cuts at a sentence end between 160 and 240 characters, else at a word with an ellipsis", () => {
    const sentence = `${"word ".repeat(35).trim()}.`; // 175 chars
    expect(truncateSnippet(`${sentence} ${"more ".repeat(20)}`)).toBe(sentence);
    const noStop = "lorem ".repeat(60);
    const cut = truncateSnippet(noStop);
    expect(cut.endsWith("…")).toBe(true);
    expect(cut.length).toBeLessThanOrEqual(201);
    expect(truncateSnippet("short text")).toBe("short text");
  });
});
