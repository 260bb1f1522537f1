import { describe, expect, it } from "vitest";
import { formatRelevancePercent, parseHeaderRelevance } from "../../src/knowledge-tool/relevance-text.js";

describe("formatRelevancePercent", () => {
  it("prints one decimal like Python, including half-to-even on exact ties", () => {
    expect(formatRelevancePercent(0.998)).toBe("99.8");
    expect(formatRelevancePercent(0.56)).toBe("56.0");
    expect(formatRelevancePercent(0.0625)).toBe("6.2");
    expect(formatRelevancePercent(0.0675)).toBe("6.8");
    expect(formatRelevancePercent(0.065)).toBe("6.5");
    expect(formatRelevancePercent(1)).toBe("100.0");
  });
});

describe("parseHeaderRelevance", () => {
  it("reads full and brief headers, with or without band and date", () => {
    expect(parseHeaderRelevance("## A (82.3% relevant · high) | updated: 2026-05-01")).toBeCloseTo(0.823);
    expect(parseHeaderRelevance("## A (12% relevant · low)")).toBeCloseTo(0.12);
    expect(parseHeaderRelevance("## A (56.0% relevant)")).toBeCloseTo(0.56);
    expect(
      parseHeaderRelevance("12. **A** > h **[UNDER ARBEID]** (75.0% relevant · medium) | 2026-04-01"),
    ).toBeCloseTo(0.75);
  });
  it("undefined for non-headers and headers without relevance", () => {
    expect(parseHeaderRelevance("## A")).toBeUndefined();
    expect(parseHeaderRelevance("### A (50.0% relevant)")).toBeUndefined();
    expect(parseHeaderRelevance("   1. **A** (50.0% relevant)")).toBeUndefined();
    expect(parseHeaderRelevance("text (50.0% relevant)")).toBeUndefined();
    expect(parseHeaderRelevance("## A (lots% relevant)")).toBeUndefined();
  });
});
